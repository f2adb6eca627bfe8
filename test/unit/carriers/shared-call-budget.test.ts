import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallGuard } from "../../../src/carriers/api-client/call-guard.js";
import { ManualClock } from "../../../src/clock.js";
import { DatabaseCallCounter, pruneCallCounts } from "../../../src/storage/carrier-call-counts.js";
import { type Db, openDatabase } from "../../../src/storage/db.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.js";

const MINUTE = 60_000;

/**
 * Two guards, each on its own connection to one database, stand for two Porter processes: the
 * hourly budget they spend is one.
 */
describe("a carrier call budget shared by processes on one database", () => {
  let database: TestDatabase;
  let other: Db;
  let clock: ManualClock;
  let budgetNo = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    other = openDatabase(database.url);
    clock = new ManualClock(new Date("2026-03-02T10:00:30Z"));
  });
  afterAll(async () => {
    await other.close();
    await database.drop();
  });

  /** Two "processes" guarding one app's budget of `limit` rate calls an hour. */
  function twoProcesses(limit: number) {
    budgetNo += 1;
    const guard = (db: Db) =>
      new CallGuard({
        clock,
        callsPerHour: { rate: limit },
        counter: new DatabaseCallCounter(db.kysely, db.dialect),
        budget: `usps:test:app-${budgetNo}`,
      });
    return [guard(database.db), guard(other)] as const;
  }

  it("refuses the call past the budget whichever process makes it, until the oldest call's hour is over", async () => {
    const [first, second] = twoProcesses(3);
    expect(await first.admit("rate")).toBeUndefined();
    clock.advance(5 * MINUTE);
    expect(await second.admit("rate")).toBeUndefined();
    expect(await first.admit("rate")).toBeUndefined();
    const refused = await second.admit("rate");
    expect(refused?.reason).toBe("budget");
    // The first call was made in the minute from 10:00; it leaves the budget when 11:01 begins.
    expect(refused?.retryAt.toISOString()).toBe("2026-03-02T11:01:00.000Z");
    expect(await first.admit("rate")).toMatchObject({ reason: "budget" });
    // Another API of the same app has its own budget; a refused call was not counted.
    expect(await second.admit("label")).toBeUndefined();
    expect(second.health().find((h) => h.purpose === "rate")).toMatchObject({ callsLastHour: 3, callsPerHour: 3 });
  });

  it("slides: a call leaves the budget an hour (to the minute) after it was made", async () => {
    const [first, second] = twoProcesses(2);
    const start = clock.now().getTime();
    expect(await first.admit("rate")).toBeUndefined();
    clock.advance(30 * MINUTE);
    expect(await second.admit("rate")).toBeUndefined();
    expect(await first.admit("rate")).toMatchObject({ reason: "budget" });
    clock.set(new Date(start + 60 * MINUTE));
    // Still within the hour of the first call's minute, counted to the minute.
    expect(await second.admit("rate")).toMatchObject({ reason: "budget" });
    clock.set(new Date(start + 61 * MINUTE));
    expect(await second.admit("rate")).toBeUndefined();
    expect(await first.admit("rate")).toMatchObject({ reason: "budget" });
    clock.advance(30 * MINUTE);
    expect(await first.admit("rate")).toBeUndefined();
  });

  it("lets no more calls through than the budget when processes ask at once", async () => {
    // SQLite's writers wait on each other's file lock, which two connections of one Node process
    // cannot do without blocking each other; separate processes do.
    if (database.db.dialect !== "postgres") return;
    const [first, second] = twoProcesses(3);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? first : second).admit("rate")),
    );
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(3);
  });

  it("lets only the last call through when processes ask at once in different minutes", async () => {
    if (database.db.dialect !== "postgres") return;
    const budget = "usps:test:minute-edge";
    const guard = (db: Db, at: ManualClock) =>
      new CallGuard({
        clock: at,
        callsPerHour: { rate: 3 },
        counter: new DatabaseCallCounter(db.kysely, db.dialect),
        budget,
      });
    const late = new ManualClock(new Date(clock.now().getTime() + 10 * MINUTE));
    const early = new ManualClock(new Date(late.now().getTime() - MINUTE));
    const [first, second] = [guard(database.db, early), guard(other, late)];
    expect(await first.admit("rate")).toBeUndefined();
    expect(await first.admit("rate")).toBeUndefined();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? first : second).admit("rate")),
    );
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(1);
  });

  it("prunes counts older than asked", async () => {
    const [first] = twoProcesses(5);
    expect(await first.admit("rate")).toBeUndefined();
    const past = new Date(clock.now().getTime() + 3 * 60 * MINUTE).toISOString();
    expect(await pruneCallCounts(database.db.kysely, past, 1000)).toBeGreaterThan(0);
    const left = await database.db.kysely.selectFrom("carrier_call_counts").selectAll().execute();
    expect(left).toEqual([]);
  });
});
