import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "../../src/app-services.js";
import { registerAccountRoutes } from "../../src/http/plugins/account-scope.js";
import { buildServer } from "../../src/http/server.js";
import { type Db, openDatabase } from "../../src/storage/db.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { testDialect } from "../helpers/database.js";
import { TcpProxy } from "../helpers/tcp-proxy.js";

/**
 * The database goes away while a request holds an idempotency key: the handler's query fails, and
 * so does freeing the key afterwards. The client must still hear the spec's 503 body with
 * Retry-After, and the key must be taken over by a retry once the database is back. PostgreSQL only:
 * a TCP proxy between the server and the cluster is what goes away (an SQLite file cannot).
 */
describe.runIf(testDialect() === "postgres")("an idempotent request when the database goes away under it", () => {
  let t: TestApp;
  let account: TestAccount;
  let proxy: TcpProxy;
  let proxied: Db;
  let server: FastifyInstance;

  beforeAll(async () => {
    t = await buildTestApp();
    account = await createTestAccount(t.services);
    const target = new URL(t.database.url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    target.port = String(proxy.port);
    proxied = openDatabase(target.toString());
    const services: AppServices = {
      ...t.services,
      database: proxied,
      db: proxied.kysely,
      wakeUps: proxied.wakeUps,
      config: { ...t.services.config, idempotencyLeaseMs: 1_000 },
    };
    server = await buildServer(services, {
      logger: false,
      extraApiRoutes: (api) =>
        registerAccountRoutes(api, async (scoped) => {
          scoped.post("/test/outage", { config: { permission: "shipping" } }, async (request, reply) => {
            if (request.headers["x-cut"] === "yes") await proxy.cut();
            await request.server.services.db.selectFrom("accounts").select("id").execute();
            return reply.code(201).send({ ran: true });
          });
        }),
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.close();
    await proxied?.close();
    await proxy?.cut();
    await t?.close();
  });

  it("answers 503 errors.unavailable with Retry-After, and the retry runs once the database is back", async () => {
    const headers = { ...account.auth, "idempotency-key": "outage-1" };
    const cut = await server.inject({
      method: "POST",
      url: "/api/v2/test/outage",
      headers: { ...headers, "x-cut": "yes" },
    });
    expect(cut.statusCode, cut.body).toBe(503);
    expect(cut.json()).toMatchObject({ status: "error", error_code: "errors.unavailable" });
    expect(cut.headers["retry-after"]).toMatch(/^\d+$/);

    await proxy.restore();
    // The key could not be freed; its lease runs out, and the retry takes it over.
    t.clock.advance(1_001);
    const retried = await server.inject({ method: "POST", url: "/api/v2/test/outage", headers });
    expect(retried.statusCode, retried.body).toBe(201);
    expect(retried.json()).toEqual({ ran: true });
  });
});
