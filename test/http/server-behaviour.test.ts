import http from "node:http";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { FastifyPluginAsync } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAccountRoutes } from "../../src/http/plugins/account-scope.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";

let release: () => void = () => {};
let signalEntered: () => void = () => {};
/** Resolves when the next request to /test/hold is inside its handler: an event, not a duration. */
const nextHold = () =>
  new Promise<void>((resolve) => {
    signalEntered = resolve;
  });
/** Routes that let a test hold a request open, or fail one, through the real plugin chain. */
const probes: FastifyPluginAsync = async (app) => {
  app.get("/test/hold", { config: { permission: "shipping" } }, async () => {
    signalEntered();
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    return { held: true };
  });
  app.route({
    method: ["GET", "POST"],
    url: "/test/explode",
    config: { permission: "shipping" },
    handler: async () => {
      throw new Error("secret internal detail");
    },
  });
};

describe("server-wide behaviour", () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp({
      config: { keyConcurrencyLimit: 1 },
      extraApiRoutes: (api) => registerAccountRoutes(api, probes),
    });
    account = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  it("answers 429 with Retry-After when a key has too many requests in flight, and recovers", async () => {
    const other = await createTestAccount(t.services);
    const entered = nextHold();
    const held = t.app.inject({ method: "GET", url: "/api/v2/test/hold", headers: account.auth });
    await entered;
    const blocked = await t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: account.auth });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBe("1");
    expect(blocked.json().error_code).toBe("errors.too_many_requests");
    expect((await t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: other.auth })).statusCode).toBe(200);
    release();
    expect((await held).json()).toEqual({ held: true });
    expect((await t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: account.auth })).statusCode).toBe(
      200,
    );
  });

  it("stops counting a request against its key once its client has gone away", async () => {
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const ping = async () =>
      (await t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: account.auth })).statusCode;
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const entered = nextHold();
    const client = http.get(`${address}/api/v2/test/hold`, { headers: account.auth });
    client.on("error", () => {});
    await entered;
    expect(await ping()).toBe(429);
    client.destroy();
    let status = 429;
    for (let turn = 0; turn < 10_000 && status === 429; turn++) {
      await nextTurn();
      status = await ping();
    }
    expect(status).toBe(200);
    // The abandoned handler still finishes; the count stays right afterwards.
    release();
    await nextTurn();
    expect(await ping()).toBe(200);
    const enteredAgain = nextHold();
    const held = t.app.inject({ method: "GET", url: "/api/v2/test/hold", headers: account.auth });
    await enteredAgain;
    expect(await ping()).toBe(429);
    release();
    expect((await held).statusCode).toBe(200);
  });

  it("answers unknown routes with 404 route.not_found and wrong methods with 405", async () => {
    const missing = await t.app.inject({ method: "GET", url: "/api/v2/nothing/here", headers: account.auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      status: "error",
      error_code: "route.not_found",
      error_message: "No route GET /api/v2/nothing/here.",
    });
    const wrong = await t.app.inject({ method: "DELETE", url: "/api/v2/customers", headers: account.auth });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe("GET, POST");
    expect(wrong.json().error_code).toBe("route.method_not_allowed");
  });

  it("hides internal errors behind 500 errors.internal with the request id", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/v2/test/explode",
      headers: { ...account.auth, "x-request-id": "trace-me-1" },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      status: "error",
      error_code: "errors.internal",
      error_message: "Something went wrong on our side; quote request id trace-me-1.",
    });
    expect(response.body).not.toContain("secret internal detail");
    expect(response.headers["x-request-id"]).toBe("trace-me-1");
  });

  it("frees an Idempotency-Key after a server error so the client can retry", async () => {
    const send = () =>
      t.app.inject({
        method: "POST",
        url: "/api/v2/test/explode",
        headers: { ...account.auth, "idempotency-key": "after-500" },
        payload: {},
      });
    expect((await send()).statusCode).toBe(500);
    const retry = await send();
    expect(retry.statusCode).toBe(500);
    expect(retry.headers["idempotent-replayed"]).toBeUndefined();
    const rows = await t.services.db
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("idempotency_key", "=", "after-500")
      .execute();
    expect(rows).toEqual([]);
  });

  it("gives every response a request id", async () => {
    const response = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("compiles every route's request and answer schemas (they compile on a route's first use)", () => {
    // A schema Ajv or fast-json-stringify cannot compile would otherwise fail only when its route is first called.
    expect(() => t.app.compileSchemas()).not.toThrow();
  });

  it("serves a valid OpenAPI 3 document generated from the route schemas", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/v2/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/v2/test/ping", "/api/v2/customers", "/api/v2/customers/{id}", "/api/v2/users"]),
    );
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
  });

  it("serves the docs page", async () => {
    const response = await t.app.inject({ method: "GET", url: "/docs/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
  });

  it("answers /healthz and /readyz (which checks the database)", async () => {
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).json()).toEqual({ status: "ok" });
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().database).toBe(t.services.database.dialect);
  });

  it("exports request counts and latency per route at /metrics", async () => {
    await t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: account.auth });
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(response.headers["content-type"]).toContain("text/plain");
    expect(response.body).toMatch(
      /porter_http_requests_total\{method="GET",route="\/api\/v2\/test\/ping",status_code="200"\} \d+/,
    );
    expect(response.body).toContain(
      'porter_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v2/test/ping"}',
    );
  });
});
