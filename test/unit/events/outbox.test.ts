import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock.js";
import { appendEvents, type OutboxEvent } from "../../../src/events/outbox.js";
import { openDatabase } from "../../../src/storage/db.js";
import { createTestDatabase, type TestDatabase, testDialect } from "../../helpers/database.js";
import { waitFor } from "../../helpers/processes.js";

describe("the events outbox", () => {
  let testDb: TestDatabase;
  let accountId: number;
  let otherAccountId: number;
  const clock = new ManualClock("2026-03-02T10:00:00.000Z");

  const tracking = (n: number, account = accountId): OutboxEvent => ({
    accountId: account,
    mode: "test",
    stream: "shipment_tracking",
    payload: { tracking_event_id: n, code: "03", description: `event ${n}` },
    occurredAt: `2026-03-01T0${n % 10}:00:00.000Z`,
  });
  const read = (account = accountId) =>
    testDb.db.kysely.selectFrom("events").selectAll().where("account_id", "=", account).orderBy("id").execute();

  beforeAll(async () => {
    testDb = await createTestDatabase();
    const accounts = await testDb.db.kysely
      .insertInto("accounts")
      .values([
        {
          parent_id: null,
          name: "Outbox One",
          email: null,
          phone: null,
          external_id: null,
          created_at: clock.now().toISOString(),
        },
        {
          parent_id: null,
          name: "Outbox Two",
          email: null,
          phone: null,
          external_id: null,
          created_at: clock.now().toISOString(),
        },
      ])
      .returning("id")
      .execute();
    accountId = accounts[0]?.id as number;
    otherAccountId = accounts[1]?.id as number;
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it("appends events in order with their payload, times, account, mode and stream, and moves the stream head", async () => {
    await testDb.db.kysely.transaction().execute((trx) => appendEvents(trx, [tracking(1), tracking(2)], clock));
    const rows = await read();
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => JSON.parse(r.payload).tracking_event_id)).toEqual([1, 2]);
    expect(rows[0]).toMatchObject({
      mode: "test",
      stream: "shipment_tracking",
      occurred_at: "2026-03-01T01:00:00.000Z",
      created_at: "2026-03-02T10:00:00.000Z",
    });
    expect((rows[1]?.id as number) > (rows[0]?.id as number)).toBe(true);
    const head = await testDb.db.kysely
      .selectFrom("event_streams")
      .selectAll()
      .where("account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    expect(head).toMatchObject({ mode: "test", stream: "shipment_tracking", last_event_id: rows[1]?.id });
  });

  it("appends more events in one call than one statement could carry, in order", async () => {
    const many = Array.from({ length: 12_000 }, (_, n) => ({
      ...tracking(100_000 + n),
      stream: "payment_status" as const,
    }));
    await appendEvents(testDb.db.kysely, many, clock);
    const payments = (await read()).filter((r) => r.stream === "payment_status");
    expect(payments.map((r) => JSON.parse(r.payload).tracking_event_id)).toEqual(many.map((_, n) => 100_000 + n));
  });

  it("keeps nothing when the causing transaction rolls back", async () => {
    const before = (await read()).length;
    await expect(
      testDb.db.kysely.transaction().execute(async (trx) => {
        await appendEvents(trx, [tracking(3)], clock);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await read()).toHaveLength(before);
  });

  it("accepts a plain database handle and writes every event of a mixed call to its own stream", async () => {
    await appendEvents(testDb.db.kysely, [
      tracking(4),
      tracking(5, otherAccountId),
      { ...tracking(6), mode: "production" },
      { ...tracking(7), stream: "payment_status" },
    ]);
    const mine = await read();
    expect(mine.slice(-3).map((r) => [r.mode, r.stream, JSON.parse(r.payload).tracking_event_id])).toEqual([
      ["test", "shipment_tracking", 4],
      ["production", "shipment_tracking", 6],
      ["test", "payment_status", 7],
    ]);
    expect((await read(otherAccountId)).map((r) => JSON.parse(r.payload).tracking_event_id)).toEqual([5]);
    expect(await testDb.db.kysely.selectFrom("event_streams").selectAll().execute()).toHaveLength(4);
  });

  it("makes an id visible only after every smaller id of the stream: a later appender waits for the earlier one", async () => {
    let releaseFirst: () => void = () => {};
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstAppended: (backendPid: number) => void = () => {};
    const appendedByFirst = new Promise<number>((resolve) => {
      firstAppended = resolve;
    });
    const first = testDb.db.kysely.transaction().execute(async (trx) => {
      await appendEvents(trx, [tracking(8)], clock);
      const pid =
        testDialect() === "postgres"
          ? (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid
          : 0;
      firstAppended(pid ?? 0);
      await firstHolds;
    });
    const reader = openDatabase(testDb.url);
    try {
      const firstPid = await appendedByFirst;
      let secondDone = false;
      const second = appendEvents(testDb.db.kysely, [tracking(9)], clock).then(() => {
        secondDone = true;
      });
      if (testDialect() === "postgres") {
        // The second appender waits on the stream's head row, held by the first.
        await waitFor(
          () => "the second appender to wait for the first",
          async () => {
            const { rows } = await sql<{ waiting: number }>`
              select count(*)::int as waiting from pg_stat_activity
              where ${firstPid}::int = any(pg_blocking_pids(pid))`.execute(reader.kysely);
            return (rows[0]?.waiting ?? 0) > 0 ? true : undefined;
          },
        );
      }
      // While the first is open, a reader on its own connection sees neither event (on SQLite the
      // second is queued behind the first on the one writing connection).
      const visible = (
        await reader.kysely.selectFrom("events").select("payload").where("account_id", "=", accountId).execute()
      ).map((r) => JSON.parse(r.payload).tracking_event_id);
      expect(visible).not.toContain(8);
      expect(visible).not.toContain(9);
      expect(secondDone).toBe(false);
      releaseFirst();
      await Promise.all([first, second]);
    } finally {
      releaseFirst();
      await reader.close();
    }
    const rows = (await read()).filter((r) => r.stream === "shipment_tracking" && r.mode === "test");
    expect(rows.slice(-2).map((r) => JSON.parse(r.payload).tracking_event_id)).toEqual([8, 9]);
  });
});
