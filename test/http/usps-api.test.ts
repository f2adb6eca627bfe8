import { beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { realCarrierSuite } from "../helpers/real-carrier-calls.js";
import {
  itConnectsWithAToken,
  itRefusesRejectedCredentials,
  itWarnsWhenRatingFails,
  type RealCarrier,
} from "../helpers/real-carrier-tests.js";
import { shipmentToBuy } from "../helpers/shipments.js";
import { STAND_IN_USPS_CREDENTIALS, UspsStandIn } from "../stand-ins/usps/usps-stand-in.js";

const CLIENT_SECRET = STAND_IN_USPS_CREDENTIALS.client_secret;
const REAL_USPS = { carrier_code: "usps", credentials: STAND_IN_USPS_CREDENTIALS };
const USPS: RealCarrier = { name: "USPS", account: REAL_USPS, secret: CLIENT_SECRET, beside: "ups" };

describe("a real USPS connection (against the USPS stand-in)", () => {
  let standIn: UspsStandIn;
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    standIn = await new UspsStandIn({ clientId: "porter-test-app", clientSecret: CLIENT_SECRET }).start();
    t = await buildTestApp({ config: { uspsApiBaseUrl: standIn.baseUrl, carrierApiTimeoutMs: 3000 } });
    merchant = await createTestAccount(t.services);
    other = await createTestAccount(t.services);
  });
  const calls = realCarrierSuite(
    () => t,
    () => merchant,
    () => standIn,
  );
  const { post, connect, rate } = calls;

  it("refuses credentials without the OAuth client, naming what is missing", async () => {
    const response = await connect({ carrier_code: "usps", credentials: { client_id: "porter-test-app" } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ status: "error", error_code: "carrier_account.credentials_invalid" });
    expect(response.json().error_message).toContain("client_secret");
  });

  itRefusesRejectedCredentials(() => t, calls, USPS, { client_secret: "wrong" }, "Client authentication failed.");

  it("answers 503 when USPS does not answer the token request", async () => {
    standIn.fail("timeout", { operation: "token" });
    const response = await connect(REAL_USPS);
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("30");
    expect(response.json()).toMatchObject({ error_code: "carrier.unavailable" });
    expect(response.json().error_message).toContain("did not answer");
  });

  itConnectsWithAToken(
    () => t,
    calls,
    USPS,
    () => standIn.callsTo("token"),
  );

  it("rates USPS through the USPS API beside the sandbox carriers, reusing the connection's token", async () => {
    const tokensBefore = standIn.callsTo("token");
    const pricesBefore = standIn.callsTo("prices");
    const { response, rates, warnings } = await rate();
    expect(response.statusCode).toBe(201);
    expect(warnings).toEqual([]);
    const ground = rates.find((r) => r.service_id === 1172)!;
    // The stand-in's own table: 2 lb × $5.20 + zone 2 × $0.35.
    expect(ground).toMatchObject({ carrier_code: "usps", rate: 11.1, zone: "02", errors: null });
    expect(ground.rate_details).toEqual([expect.objectContaining({ cost_type: "std", rate: 11.1 })]);
    expect(rates.some((r) => r.carrier_code === "ups" && r.rate !== null)).toBe(true);
    expect(standIn.callsTo("token")).toBe(tokensBefore);
    expect(standIn.callsTo("prices")).toBeGreaterThan(pricesBefore);
    const query = standIn.requests.findLast((r) => r.path === "/prices/v3/base-rates/search")!;
    expect(query.authorization).toMatch(/^Bearer /);
    expect(query.body).toMatchObject({ originZIPCode: "90035", destinationZIPCode: "84111", accountType: "EPS" });
  });

  it("keeps other accounts and the production mode on their own connections", async () => {
    const pricesBefore = standIn.callsTo("prices");
    expect((await rate(other.auth)).rates).toEqual([]);
    expect((await rate({ authorization: `Bearer ${merchant.keys.production}` })).rates).toEqual([]);
    expect(standIn.callsTo("prices")).toBe(pricesBefore);
  });

  it("renews a token USPS no longer accepts, once", async () => {
    standIn.revokeTokens();
    const tokensBefore = standIn.callsTo("token");
    const { rates, warnings } = await rate();
    expect(warnings).toEqual([]);
    expect(rates.find((r) => r.service_id === 1172)?.rate).toBe(11.1);
    expect(standIn.callsTo("token")).toBe(tokensBefore + 1);
  });

  it("waits out a 429 as Retry-After asks, then answers", async () => {
    standIn.fail("429", { operation: "prices" });
    const { rates, warnings } = await rate();
    expect(warnings).toEqual([]);
    expect(rates.find((r) => r.service_id === 1172)?.rate).toBe(11.1);
  });

  itWarnsWhenRatingFails(
    calls,
    USPS,
    (fault) => standIn.fail(fault, { operation: "prices", times: 20 }),
    () => {
      standIn.clearFaults();
      t.clock.advance(61_000);
    },
  );

  it("reports a USPS API that keeps failing as degraded in GET /status, with its calls this hour, until it answers again", async () => {
    const account = await createTestAccount(t.services);
    expect((await connect(REAL_USPS, account.auth)).statusCode).toBe(201);
    expect((await connect({ carrier_code: "ups" }, account.auth)).statusCode).toBe(201);
    const status = async () =>
      (await t.app.inject({ method: "GET", url: "/api/v2/status", headers: account.auth })).json().api_services as {
        api_service_code: string;
        status: string;
        message: string | null;
        calls_last_hour: number | null;
        calls_per_hour: number | null;
      }[];
    const before = (await status()).find((row) => row.api_service_code === "usps_rate");
    expect(before).toMatchObject({ status: "online", calls_per_hour: 60 });
    standIn.fail("500", { operation: "prices", times: 50 });
    for (let attempt = 0; attempt < 5; attempt++) expect((await rate(account.auth)).warnings[0]).toMatch(/USPS/);
    const degraded = (await status()).find((row) => row.api_service_code === "usps_rate");
    expect(degraded).toMatchObject({ status: "degraded", calls_per_hour: 60 });
    expect(degraded?.message).toMatch(/USPS failed repeatedly/);
    expect(degraded?.calls_last_hour).toBeGreaterThan(before?.calls_last_hour ?? 0);
    const pricesWhileOpen = standIn.callsTo("prices");
    expect((await rate(account.auth)).warnings[0]).toMatch(/was not called/);
    expect(standIn.callsTo("prices")).toBe(pricesWhileOpen);
    standIn.clearFaults();
    t.clock.advance(61_000);
    expect((await rate(account.auth)).warnings).toEqual([]);
    expect((await status()).find((row) => row.api_service_code === "usps_rate")?.status).toBe("online");
    expect((await status()).find((row) => row.api_service_code === "ups_rate")).toMatchObject({
      calls_last_hour: null,
      calls_per_hour: null,
    });
  });

  it("batches and picks up labels bought earlier through the sandbox with the sandbox carrier, once USPS is real", async () => {
    const account = await createTestAccount(t.services);
    expect((await connect({ carrier_code: "usps" }, account.auth)).statusCode).toBe(201);
    const bought = await post("/api/v2/shipments/ship", { shipment: shipmentToBuy() }, account.auth);
    expect(bought.statusCode, bought.body).toBe(201);
    const shipmentId = bought.json().shipment.id;
    const sandbox = (
      await t.app.inject({ method: "GET", url: "/api/v2/carrier_accounts", headers: account.auth })
    ).json().carrier_accounts[0].id;
    await t.app.inject({ method: "DELETE", url: `/api/v2/carrier_accounts/${sandbox}`, headers: account.auth });
    expect((await connect(REAL_USPS, account.auth)).statusCode).toBe(201);

    const formsBefore = standIn.callsTo("scan-forms");
    const pickupsBefore = standIn.callsTo("pickup");
    const batch = await post("/api/v2/shipments/batches", { shipment_ids: [shipmentId] }, account.auth);
    expect(batch.statusCode, batch.body).toBe(201);
    const pickup = await post("/api/v2/pickups", { pickup: { shipment_ids: [shipmentId] } }, account.auth);
    expect(pickup.statusCode, pickup.body).toBe(201);
    expect(standIn.callsTo("scan-forms")).toBe(formsBefore);
    expect(standIn.callsTo("pickup")).toBe(pickupsBefore);
  });
});
