import type { AddressInfo } from "node:net";
import net from "node:net";
import qs from "qs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_DEPTH } from "../../src/http/plugins/body-depth.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { rateShipment } from "../helpers/shipments.js";

let t: TestApp;
let parent: TestAccount;
let child: TestAccount;

beforeAll(async () => {
  t = await buildTestApp();
  parent = await createTestAccount(t.services);
  child = await createTestAccount(t.services, { parentId: parent.accountId });
  await connectSandboxCarriers(t.services, parent.accountId);
});
afterAll(async () => t.close());

const get = (url: string) => t.app.inject({ method: "GET", url, headers: parent.auth });
const post = (url: string, payload: string, contentType: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload, headers: { ...parent.auth, "content-type": contentType, ...headers } });

function expectError(response: { statusCode: number; body: string }, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(JSON.parse(response.body)).toEqual({ status: "error", error_code: code, error_message: expect.any(String) });
}

const nestedJson = (levels: number, leaf = "1") => `${'{"a":'.repeat(levels)}${leaf}${"}".repeat(levels)}`;

describe("integers in paths and queries", () => {
  const hostile = ["Infinity", "-Infinity", "1e308", "9".repeat(400), "", "NaN", "1.5"];

  it.each(hostile.flatMap((value) => ["page", "per_page"].map((name) => [name, value])))(
    "answers 400 for %s=%s on both forms",
    async (name, value) => {
      for (const prefix of ["/api/v2", `/api/v2/customers/${child.accountId}`]) {
        expectError(await get(`${prefix}/shipments?${name}=${value}`), 400, "request.invalid");
      }
    },
  );

  it.each(["Infinity", "1e308", "9".repeat(60), "2147483648", "-1", "1.5"])("refuses the id %s", async (id) => {
    expectError(await get(`/api/v2/shipments/${id}`), 400, "request.invalid");
  });

  it("holds integers without their own bounds to 32 bits, which the database's columns take", async () => {
    expectError(await get("/api/v2/shipments?shipment_batch_id=2147483648"), 400, "request.invalid");
    expectError(await get(`/api/v2/customers/2147483648/shipments`), 404, "customer.not_found");
    expect((await get("/api/v2/shipments?shipment_batch_id=2147483647")).statusCode).toBe(200);
  });

  it("refuses non-finite numbers that form and XML bodies carry as text", async () => {
    const body = rateShipment();
    body.shipment.parcels = [{ length: "Infinity", width: 8, height: 4, weight: 24 } as never];
    const form = await post("/api/v2/rates", qs.stringify(body), "application/x-www-form-urlencoded");
    expectError(form, 400, "request.invalid");
    expect(form.json().error_message).toMatch(/shipment\.parcels\[0\]\.length .*finite/);
    const xml = await post(
      "/api/v2/shipments/ship",
      "<shipment><service_id>1e400</service_id></shipment>",
      "application/xml",
    );
    expectError(xml, 400, "request.invalid");
  });

  it("still takes ordinary numbers", async () => {
    const listed = await get(`/api/v2/customers/${child.accountId}/shipments?page=2&per_page=5`);
    expect(listed.statusCode, listed.body).toBe(200);
    const rated = await post("/api/v2/rates", JSON.stringify(rateShipment()), "application/json");
    expect(rated.statusCode, rated.body).toBe(201);
  });
});

describe("nesting depth", () => {
  it("refuses a JSON body nested 5,000 levels, with or without an Idempotency-Key", async () => {
    for (const headers of [{ "idempotency-key": "deep-1" }, {}] as Record<string, string>[]) {
      const response = await post("/api/v2/customers", nestedJson(5000), "application/json", headers);
      expectError(response, 400, "request.too_deep");
      expect(response.json().error_message).toContain(String(MAX_BODY_DEPTH));
    }
  });

  it("refuses carrier credentials nested 10,000 levels", async () => {
    const body = `{"carrier_account":{"carrier_code":"usps","credentials":${nestedJson(10_000)}}}`;
    expectError(await post("/api/v2/carrier_accounts", body, "application/json"), 400, "request.too_deep");
  });

  it("counts only structure: braces inside strings are text", async () => {
    const credentials = `{"key":${JSON.stringify("{[".repeat(500))},"deep":${nestedJson(MAX_BODY_DEPTH - 3)}}`;
    const body = `{"carrier_account":{"carrier_code":"fed_ex","credentials":${credentials}}}`;
    // The child has no carriers connected yet.
    const response = await post(`/api/v2/customers/${child.accountId}/carrier_accounts`, body, "application/json");
    expect(response.statusCode, response.body).toBe(201);
    const oneTooMany = `{"carrier_account":{"carrier_code":"ups","credentials":${nestedJson(MAX_BODY_DEPTH - 1)}}}`;
    expectError(await post("/api/v2/carrier_accounts", oneTooMany, "application/json"), 400, "request.too_deep");
  });

  it("refuses deep XML and deep forms the same way", async () => {
    const xml = `<customer>${"<a>".repeat(5000)}x${"</a>".repeat(5000)}</customer>`;
    expectError(await post("/api/v2/customers", xml, "application/xml"), 400, "request.too_deep");
    const form = `customer${"[a]".repeat(200)}=x`;
    expectError(await post("/api/v2/customers", form, "application/x-www-form-urlencoded"), 400, "request.too_deep");
  });
});

describe("paging links", () => {
  it("carries only the parameters the route knows, as validated", async () => {
    const response = await get(`/api/v2/shipments?a=${"x".repeat(15_000)}&carrier_code=usps&per_page=5`);
    expect(response.statusCode).toBe(200);
    const link = String(response.headers.link);
    expect(link).not.toContain("xxx");
    expect(link).toBe(
      '</api/v2/shipments?carrier_code=usps&page=1&per_page=5>; rel="first", </api/v2/shipments?carrier_code=usps&page=1&per_page=5>; rel="last"',
    );
  });

  it("leaves the Link header out rather than send one over 8 KiB", async () => {
    const numbers = Array.from({ length: 200 }, (_, i) => `tracking_number=${"9".repeat(50)}${i}`).join("&");
    const response = await get(`/api/v2/shipments?${numbers}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers.link).toBeUndefined();
    expect(response.headers["x-total-count"]).toBe("0");
  });
});

describe("framework errors carry the spec's error body", () => {
  it("answers a URL that cannot be decoded and an over-long path segment", async () => {
    expectError(await get("/api/v2/shipments/%zz"), 400, "request.malformed_url");
    expectError(await get(`/api/v2/shipments/${"1".repeat(101)}`), 414, "request.url_too_long");
  });

  /** Sends raw bytes to the listening server and reads until it closes the connection. */
  async function rawExchange(request: string): Promise<{ status: number; headers: string; body: string }> {
    const { port } = t.app.server.address() as AddressInfo;
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(request);
    await new Promise((resolve) => socket.once("close", resolve));
    const text = Buffer.concat(chunks).toString();
    const [head = "", body = ""] = text.split("\r\n\r\n");
    return { status: Number(head.split(" ")[1]), headers: head, body };
  }

  describe("over a real socket", () => {
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: "127.0.0.1" });
    });

    it.each([
      [
        "a 17,000-character query",
        `GET /api/v2/shipments?q=${"x".repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        431,
        "request.headers_too_large",
      ],
      ["a malformed request line", "GARBAGE\r\n\r\n", 400, "request.malformed"],
      [
        "Content-Length with Transfer-Encoding",
        "POST /api/v2/rates HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400,
        "request.malformed",
      ],
      [
        "a bad percent-escape",
        "GET /api/v2/shipments/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        400,
        "request.malformed_url",
      ],
      ...["/docs/static/..", "/docs/static/../", "/docs/static/%2e%2e", "/docs/static/../package.json"].map(
        (path): [string, string, number, string] => [
          `the docs' files climbed out of (${path})`,
          `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
          404,
          "route.not_found",
        ],
      ),
      [
        "a docs file with a null byte",
        "GET /docs/static/%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        404,
        "route.not_found",
      ],
      [
        "a docs file that is not there",
        "GET /docs/static/nothing.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        404,
        "route.not_found",
      ],
    ])("answers %s", async (_name, request, status, code) => {
      const response = await rawExchange(request);
      expect(response.status, response.headers).toBe(status);
      expect(response.headers.toLowerCase()).toContain("content-type: application/json");
      expect(JSON.parse(response.body)).toEqual({
        status: "error",
        error_code: code,
        error_message: expect.any(String),
      });
    });

    it("keeps serving afterwards", async () => {
      const response = await rawExchange(
        `GET /api/v2/test/ping HTTP/1.1\r\nHost: x\r\nAuthorization: ${parent.auth.authorization}\r\nConnection: close\r\n\r\n`,
      );
      expect(response.status).toBe(200);
    });
  });
});

describe("label options found by the fuzz test", () => {
  const ship = (overrides: Record<string, unknown>) =>
    post(
      "/api/v2/shipments/ship",
      JSON.stringify(rateShipment({ service_id: 1172, ...overrides })),
      "application/json",
    );
  const shipmentCount = async () => Number((await get("/api/v2/shipments")).headers["x-total-count"]);

  it("takes an explicit null label_scale as the default scale", async () => {
    const response = await ship({ label_scale: null });
    expect(response.statusCode, response.body).toBe(201);
  });

  it.each([
    ["a label_scale out of range given as text", { label_scale: "5" }],
    [
      "an image that cannot be read",
      { label_contents: [{ label_content: { type: "image", base64_image: "bm90IGFuIGltYWdl", location: [0, 0] } }] },
    ],
  ])("refuses %s before buying anything", async (_name, overrides) => {
    const before = await shipmentCount();
    expectError(await ship(overrides), 422, "shipment.label_option_invalid");
    expect(await shipmentCount()).toBe(before);
  });
});

describe("the OpenAPI document", () => {
  it("declares every path parameter of every operation", async () => {
    const document = (await t.app.inject({ url: "/api/v2/openapi.json" })).json() as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const missing: string[] = [];
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? "");
      for (const [method, operation] of Object.entries(operations)) {
        const declared = new Set((operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name));
        for (const name of names) {
          checked += 1;
          if (!declared.has(name)) missing.push(`${method.toUpperCase()} ${path}: ${name}`);
        }
        for (const name of declared)
          if (!names.includes(name)) missing.push(`${method.toUpperCase()} ${path}: extra ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(20);
    expect(document.paths["/api/v2/customers/{customer_id}/shipments/{id}/cancel"]).toBeDefined();
  });
});
