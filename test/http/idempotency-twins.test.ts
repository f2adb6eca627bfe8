import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "../../src/app-services.js";
import { ManualClock } from "../../src/clock.js";
import { registerAccountRoutes } from "../../src/http/plugins/account-scope.js";
import { buildServer } from "../../src/http/server.js";
import { openDatabase } from "../../src/storage/db.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { testDialect } from "../helpers/database.js";
import { deferred } from "../helpers/deferred.js";
import { waitFor } from "../helpers/processes.js";
import { StatementCounter } from "../helpers/statement-counter.js";

/** A POST whose handler holds until the test lets it finish, so a twin can arrive meanwhile. */
class HeldRoute {
  #entered = deferred<void>();
  #finish = deferred<{ value: number; status: number }>();

  routes = (api: FastifyInstance) =>
    registerAccountRoutes(api, async (scoped) => {
      scoped.post("/test/held", { config: { permission: "shipping" } }, async (_request, reply) => {
        this.#entered.resolve();
        const { value, status } = await this.#finish.promise;
        return reply.code(status).send({ finished_with: value });
      });
    });

  /** Resolves when a request is inside the handler; the next request will hold again. */
  async entered(): Promise<void> {
    await this.#entered.promise;
    this.#entered = deferred<void>();
  }

  finish(value: number, status = 201): void {
    this.#finish.resolve({ value, status });
    this.#finish = deferred();
  }
}

describe("a twin waiting for a request that holds its idempotency key", () => {
  const held = new HeldRoute();
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    // The lease outlives the 30 s the twin waits, so moving the clock never hands it the key.
    t = await buildTestApp({ config: { idempotencyLeaseMs: 600_000 }, extraApiRoutes: held.routes });
    account = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const post = (app: FastifyInstance, key: string) =>
    app.inject({ method: "POST", url: "/api/v2/test/held", headers: { ...account.auth, "idempotency-key": key } });

  /** Resolves when a waiter sleeps on `clock`: the twin looked, found the key held, and waits. */
  const sleepingOn = (clock: ManualClock) =>
    waitFor(
      () => "the twin to wait",
      () => clock.nextWake(),
    );

  it("wakes as soon as the holder stores its answer, without the clock moving, and replays it", async () => {
    const holder = post(t.app, "wake-1");
    await held.entered();
    const twin = post(t.app, "wake-1");
    await sleepingOn(t.clock);
    const asleepAt = t.clock.now();

    held.finish(7);
    expect((await holder).statusCode).toBe(201);
    const replay = await twin;
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual({ finished_with: 7 });
    expect(t.clock.now()).toEqual(asleepAt);
  });

  it("wakes when the holder frees the key after a server error, and runs the request itself", async () => {
    const holder = post(t.app, "wake-2");
    await held.entered();
    const twin = post(t.app, "wake-2");
    await sleepingOn(t.clock);

    held.finish(1, 503);
    expect((await holder).statusCode).toBe(503);
    await held.entered();
    held.finish(2);
    const ran = await twin;
    expect(ran.statusCode).toBe(201);
    expect(ran.headers["idempotent-replayed"]).toBeUndefined();
    expect(ran.json()).toEqual({ finished_with: 2 });
  });

  it("sends a small bounded number of statements while waiting its whole 30 s, then answers 409", async () => {
    const counter = new StatementCounter();
    const holder = post(t.app, "storm-1");
    await held.entered();
    const services = t.services as AppServices;
    const plain = services.db;
    services.db = plain.withPlugin(counter);
    try {
      let answered = false;
      const twin = post(t.app, "storm-1").finally(() => {
        answered = true;
      });
      // Move the clock to each of the twin's fallback looks until its wait is over.
      while (!answered) {
        const wake = await waitFor(
          () => `the twin to wait or answer (${counter.count} statements so far)`,
          () => (answered ? "answered" : t.clock.nextWake()),
        );
        if (wake instanceof Date) t.clock.set(wake);
      }
      const response = await twin;
      expect(response.statusCode).toBe(409);
      expect(response.json().error_code).toBe("idempotency.in_progress");
      // Two statements a look (the insert that is the lock, the read of the row), some twenty looks.
      expect(counter.count).toBeGreaterThan(10);
      expect(counter.count).toBeLessThanOrEqual(50);
    } finally {
      services.db = plain;
    }
    held.finish(1);
    expect((await holder).statusCode).toBe(201);
  });

  it.runIf(testDialect() === "postgres")(
    "wakes a twin in another process on the same schema through LISTEN/NOTIFY",
    async () => {
      const database = openDatabase(t.database.url);
      const clock = new ManualClock(t.clock.now());
      const services: AppServices = { ...t.services, database, db: database.kysely, wakeUps: database.wakeUps, clock };
      const other = await buildServer(services, { logger: false, extraApiRoutes: held.routes });
      try {
        await other.ready();
        const holder = post(t.app, "remote-1");
        await held.entered();
        const twin = post(other, "remote-1");
        await sleepingOn(clock);

        held.finish(9);
        expect((await holder).statusCode).toBe(201);
        const replay = await twin;
        expect(replay.headers["idempotent-replayed"]).toBe("true");
        expect(replay.json()).toEqual({ finished_with: 9 });
      } finally {
        await other.close();
        await database.close();
      }
    },
    // Building a second server takes several seconds on a loaded machine.
    60_000,
  );
});
