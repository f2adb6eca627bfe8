import net from "node:net";
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { setPassword } from "../../src/domain/accounts/dashboard-sessions.js";
import { ERROR_CATALOGUE, statusOf } from "../../src/http/errors.js";
import { addTestUser, buildTestApp, createTestAccount, type TestAccount } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { servedOperations } from "../helpers/openapi.js";
import { type FuzzAccounts, type FuzzRequest, type Operation, requestsFor } from "./hostile-requests.js";
import { privateTargets } from "./outbound-targets.js";
import { REALISTIC } from "./schema-arbitraries.js";

/**
 * Requests generated from the OpenAPI document for every operation it lists (endpoints added later
 * join by themselves): faithful, lightly and heavily corrupted bodies, queries, path parameters
 * and headers, in every body format and some no one should send. Whatever comes in, Porter answers
 * with the spec's error body (never a 500 but the spec's `parcel.missing_parcels`), no header over
 * 8 KiB, and stays up. `npm test` runs FUZZ_RUNS (3,000) requests with a fixed seed; `npm run fuzz`
 * runs 200,000; FUZZ_SEED replays a reported run.
 */
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
const MAX_HEADER_BYTES = 8 * 1024;

const t = await buildTestApp();
/** A listener on this machine behind every private-target form the fuzzer offers: nothing may reach it. */
let sinkConnections = 0;
const sink = net.createServer((socket) => {
  sinkConnections += 1;
  socket.destroy();
});
await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
const targets = privateTargets((sink.address() as net.AddressInfo).port);
REALISTIC.url = targets;
REALISTIC.service_type = ["woocommerce", "custom", "shopify"];
REALISTIC.credentials = targets.map((site_url) => ({ site_url, consumer_key: "ck_1", consumer_secret: "cs_1" }));
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => sink.close(resolve));
});

/** Key holders whose keys the fuzzer presents; a request that rotated their keys gets them replaced. */
const main = await createTestAccount(t.services);
const child = await createTestAccount(t.services, { parentId: main.accountId });
const stranger = await createTestAccount(t.services);
for (const account of [main, child, stranger]) await connectSandboxCarriers(t.services, account.accountId);

/** An order of the main account's whose items labels name (`order_items`): the item check is reached, not only the schema. */
const fuzzStore = await t.app.inject({
  method: "POST",
  url: "/api/v2/order_stores",
  headers: { authorization: `Bearer ${main.keys.test}` },
  payload: { order_store: { name: "Fuzz shop", service_type: "custom" } },
});
await t.app.inject({
  method: "POST",
  url: `/api/v2/order_stores/${fuzzStore.json().order_store.id}/orders`,
  headers: { authorization: `Bearer ${main.keys.test}` },
  payload: { orders: [{ order_number: "FUZZ-1", items: [{ sku: "MUG", quantity: 3 }] }] },
});
REALISTIC.order_id = ["FUZZ-1"];
REALISTIC.order_items = [[{ sku: "MUG", quantity: 1 }], [{ sku: "CUP" }], [{ sku: "MUG", quantity: 9 }]];
const holders: TestAccount[] = [main, stranger, child];

/** The main account's dashboard session (cookie and CSRF token); a request that ended it gets a new one. */
const DASHBOARD_PASSWORD = "fuzzing passphrase";
await setPassword(t.services, main.userId, DASHBOARD_PASSWORD);
const mainEmail = (
  await t.services.db.selectFrom("users").select("email").where("id", "=", main.userId).executeTakeFirstOrThrow()
).email;
const dashboard = { cookie: "", csrf: "" };
async function signInToDashboard(): Promise<void> {
  // From an address of its own: the fuzzer's failed sign-ins count against 127.0.0.1.
  const response = await t.app.inject({
    method: "POST",
    url: "/dashboard/session",
    payload: { email: mainEmail, password: DASHBOARD_PASSWORD },
    remoteAddress: "10.9.9.9",
  });
  dashboard.cookie = String(response.headers["set-cookie"]).split(";")[0] as string;
  dashboard.csrf = response.json().csrf_token;
}
await signInToDashboard();

/** Index 0 and 1 are the main account's test and production keys; then everything else. */
const authorizations: (() => Record<string, string>)[] = [
  () => ({ authorization: `Bearer ${holders[0]?.keys.test}` }),
  () => ({ authorization: `Bearer ${holders[0]?.keys.production}` }),
  () => ({ authorization: `Bearer ${holders[1]?.keys.test}` }),
  () => ({ authorization: `Bearer ${holders[1]?.keys.production}` }),
  () => ({ authorization: `Bearer ${holders[2]?.keys.test}` }),
  () => ({}),
  () => ({ authorization: "Bearer pk_test_0000000000000000000000000000" }),
  () => ({ authorization: "Basic Zm9vOmJhcg==" }),
  () => ({ authorization: `Bearer ${"x".repeat(5000)}` }),
  () => ({ cookie: dashboard.cookie, "x-csrf-token": dashboard.csrf }),
  () => ({ cookie: dashboard.cookie }),
  () => ({ cookie: `porter_session=${"A".repeat(43)}`, "x-csrf-token": dashboard.csrf }),
];
const accounts: FuzzAccounts = {
  childId: child.accountId,
  otherAccountIds: [main.accountId, stranger.accountId, 999_999],
  authorizations: authorizations.length,
};

const operations: Operation[] = (await servedOperations(t)).map((operation) => ({
  method: operation.method,
  path: operation.path,
  parameters: operation.parameters,
  body: operation.requestBody?.content["application/json"]?.schema,
}));
const runsPerOperation = Math.max(10, Math.round(TOTAL_RUNS / Math.max(operations.length, 1)));

const ping = () =>
  t.app.inject({
    method: "GET",
    url: "/api/v2/test/ping",
    headers: { authorization: `Bearer ${holders[0]?.keys.test}` },
  });

/** Every way an answer can break the promise, named; empty when it keeps it. */
function brokenPromises(response: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(response.headers)) {
    const bytes = Buffer.byteLength(Array.isArray(value) ? value.join(", ") : String(value));
    if (bytes > MAX_HEADER_BYTES) problems.push(`header ${name} has ${bytes} bytes`);
  }
  if (response.statusCode < 400) return problems;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.body);
  } catch {
    return [...problems, "the error body is not JSON"];
  }
  const code = String(body.error_code);
  if (
    Object.keys(body).sort().join() !== "error_code,error_message,status" ||
    body.status !== "error" ||
    typeof body.error_message !== "string"
  ) {
    problems.push("the error body is not the spec's");
  } else if (!(code in ERROR_CATALOGUE)) {
    problems.push(`error_code ${code} is not in the catalogue`);
  } else if (statusOf(code) !== response.statusCode) {
    problems.push(`error_code ${code} belongs with ${statusOf(code)}`);
  }
  if (response.statusCode >= 500 && code !== "parcel.missing_parcels") problems.push("a server error");
  return problems;
}

/**
 * A fuzzed request may rotate the very keys the fuzzer uses (a key rotates those of its own mode):
 * the holder then gets a new user. One may also sign the dashboard's session out.
 */
async function renewRevokedKeys(): Promise<void> {
  const session = await t.app.inject({
    method: "GET",
    url: "/dashboard/session",
    headers: { cookie: dashboard.cookie },
  });
  if (session.statusCode === 401) await signInToDashboard();
  for (const [i, holder] of holders.entries()) {
    for (const key of [holder.keys.test, holder.keys.production]) {
      const answer = await t.app.inject({
        method: "GET",
        url: "/api/v2/test/ping",
        headers: { authorization: `Bearer ${key}` },
      });
      if (answer.statusCode === 401) {
        holders[i] = await addTestUser(t.services, holder.accountId, ["Owner", "API"]);
        break;
      }
    }
  }
}

/** How many requests went out and how many the API accepted: a fuzzer stuck at the door tests little. */
let sent = 0;
let accepted = 0;

async function send(request: FuzzRequest): Promise<void> {
  const credentials = authorizations[request.authorization]?.();
  const response = await t.app.inject({
    method: request.method as "GET",
    url: request.url,
    headers: { ...request.headers, ...credentials },
    payload: request.payload,
  });
  sent += 1;
  if (response.statusCode < 300) accepted += 1;
  const problems = brokenPromises(response);
  if (problems.length > 0) {
    throw new Error(
      `${problems.join("; ")}\n${request.method} ${request.url.slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 500)}`,
    );
  }
  if (response.statusCode < 300 && request.method !== "GET") await renewRevokedKeys();
}

describe(`fuzzing the OpenAPI document (seed ${SEED}, ${runsPerOperation} requests per operation)`, () => {
  it("covers every operation of the document", () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.some((operation) => operation.path.includes("{customer_id}"))).toBe(true);
  });

  it.each(operations.map((operation, index) => [`${operation.method} ${operation.path}`, operation, index] as const))(
    "%s keeps its promises",
    async (_name, operation, index) => {
      await fc.assert(fc.asyncProperty(requestsFor(operation, accounts), send), {
        numRuns: runsPerOperation,
        seed: SEED + index,
      });
    },
    30_000 + runsPerOperation * 200,
  );

  it("is still up afterwards, and got past validation often enough to mean something", async () => {
    expect((await ping()).statusCode).toBe(200);
    expect(accepted / sent).toBeGreaterThan(0.05);
  });

  it("let no private target in: none was subscribed to, none connected to", async () => {
    const urls = await t.services.db.selectFrom("webhook_subscriptions").select("url").execute();
    for (const { url } of urls) expect(targets.map((target) => new URL(target).href)).not.toContain(url);
    expect(sinkConnections).toBe(0);
  });
});
