import { type Insertable, type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../../src/storage/migrate.js";
import type { Database, ShipmentTable } from "../../../src/storage/schema.js";
import { createTestDatabase, type TestDatabase, testDialect } from "../../helpers/database.js";
import { deferred } from "../../helpers/deferred.js";

const STAMP = "2026-01-15T15:00:00.000Z";

/**
 * Migration 0035's counters, on the engine the suite runs on (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL): filled from the shipments there were, then kept equal to a count of the
 * table through inserts, updates and deletes of many rows at once, a rollback, and two
 * transactions that move statuses in opposite orders at the same time (PostgreSQL).
 */
describe("migration 0035: shipments counted per account, mode and status", () => {
  let testDb: TestDatabase;
  let db: Kysely<Database>;
  let row: (accountId: number, mode: "test" | "production", status: string) => Insertable<ShipmentTable>;
  let first: number;
  let second: number;

  /** The counters that are not zero, and the table's own count, in the same shape. */
  const counters = async () =>
    (await db.selectFrom("shipment_counts").selectAll().where("n", "<>", 0).execute())
      .map((c) => `${c.account_id} ${c.mode} ${c.status} ${Number(c.n)}`)
      .sort();
  const counted = async () =>
    (
      await db
        .selectFrom("shipments")
        .select(["account_id", "mode", "status", (eb) => eb.fn.countAll<number | string>().as("n")])
        .groupBy(["account_id", "mode", "status"])
        .execute()
    )
      .map((c) => `${c.account_id} ${c.mode} ${c.status} ${Number(c.n)}`)
      .sort();

  beforeAll(async () => {
    testDb = await createTestDatabase("0031-dashboard-sessions");
    db = testDb.db.kysely;
    const account = async (name: string) =>
      (
        await db
          .insertInto("accounts")
          .values({ parent_id: null, name, email: null, phone: null, external_id: null, created_at: STAMP })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    first = await account("A");
    second = await account("B");
    // Columns left out are null: the counters read none of them.
    row = (accountId, mode, status) => ({
      account_id: accountId,
      mode,
      status,
      carrier_code: "usps",
      service_id: 1,
      service_code: "usps_ground_advantage",
      to_location: "{}",
      from_location: "{}",
      ship_date: "2026-01-15",
      label_format: "pdf",
      label_size: "4x6",
      rate_cents: 0,
      cost_details: "[]",
      delivery_guaranteed: 0,
      created_at: STAMP,
      updated_at: STAMP,
    });
    await db
      .insertInto("shipments")
      .values([
        row(first, "test", "shipped"),
        row(first, "test", "shipped"),
        row(first, "test", "voided"),
        row(first, "production", "shipped"),
        row(second, "test", "failed"),
      ])
      .execute();
    await migrateToLatest(testDb.db);
  });
  afterAll(() => testDb.drop());

  it("starts from the shipments there were", async () => {
    expect(await counters()).toEqual([
      `${first} production shipped 1`,
      `${first} test shipped 2`,
      `${first} test voided 1`,
      `${second} test failed 1`,
    ]);
  });

  it("follows inserts, updates and deletes of many rows in one statement, and ignores other columns", async () => {
    await db
      .insertInto("shipments")
      .values([row(first, "test", "purchasing"), row(second, "test", "purchasing"), row(second, "test", "shipped")])
      .execute();
    await sql`update shipments set status = 'delivered' where status in ('shipped', 'purchasing')`.execute(db);
    await db.updateTable("shipments").set({ updated_at: "2026-01-16T00:00:00.000Z" }).execute();
    await db.deleteFrom("shipments").where("account_id", "=", second).where("status", "=", "failed").execute();
    expect(await counters()).toEqual(await counted());
    expect(await counters()).toContain(`${first} test delivered 3`);
  });

  it("undoes nothing it did not do: a rolled-back change leaves the counters as they were", async () => {
    const before = await counters();
    await db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto("shipments")
          .values(row(first, "test", "shipped"))
          .execute();
        await sql`update shipments set status = 'voided'`.execute(trx);
        throw new Error("roll back");
      })
      .catch(() => undefined);
    expect(await counters()).toEqual(before);
  });

  // Two transactions of one account, each moving shipments of its own in the opposite order of
  // statuses, interleaved: counters locked as each statement ran would deadlock here. SQLite runs
  // one transaction at a time, so they cannot interleave there.
  it.skipIf(testDialect() !== "postgres")(
    "counts two interleaved transactions that move statuses in opposite orders, without a deadlock",
    async () => {
      const ids = await db
        .insertInto("shipments")
        .values([
          row(first, "test", "shipped"),
          row(first, "test", "cancel_pending"),
          row(first, "test", "cancel_pending"),
          row(first, "test", "shipped"),
        ])
        .returning("id")
        .execute();
      const [x, y, z, w] = ids.map((shipment) => shipment.id);
      const halfway = [deferred<void>(), deferred<void>()] as const;
      const move = (mine: 0 | 1, steps: Array<[number | undefined, string]>) =>
        db.transaction().execute(async (trx) => {
          for (const [index, [id, status]] of steps.entries()) {
            await sql`update shipments set status = ${status} where id = ${id}`.execute(trx);
            if (index === 0) {
              halfway[mine].resolve();
              await halfway[mine === 0 ? 1 : 0].promise;
            }
          }
        });
      await Promise.all([
        move(0, [
          [x, "voided"],
          [z, "delivered"],
        ]),
        move(1, [
          [y, "delivered"],
          [w, "voided"],
        ]),
      ]);
      expect(await counters()).toEqual(await counted());
    },
  );
});
