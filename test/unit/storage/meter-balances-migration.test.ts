import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meterTotals } from "../../../src/domain/meter/meter.repository.js";
import { migrateToLatest } from "../../../src/storage/migrate.js";
import type { Database } from "../../../src/storage/schema.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.js";

const STAMP = "2026-01-15T15:00:00.000Z";

/** The tables this test writes, as they were before migration 0017. */
interface SchemaBefore0017 {
  accounts: Pick<Database["accounts"], "id" | "parent_id" | "name" | "created_at">;
  meter_entries: Database["meter_entries"];
}

describe("migration 0017: each meter's balance on a row, filled from the ledger", () => {
  let testDb: TestDatabase;
  let db: Kysely<Database>;
  let busy: number;
  let quiet: number;

  beforeAll(async () => {
    testDb = await createTestDatabase("0016-shipment-carrier-account");
    const old = testDb.db.kysely as unknown as Kysely<SchemaBefore0017>;
    const account = async () =>
      (
        await old
          .insertInto("accounts")
          .values({ parent_id: null, name: "A", created_at: STAMP })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    busy = await account();
    quiet = await account();
    const entry = (
      mode: "test" | "production",
      kind: Database["meter_entries"]["kind"],
      amount_cents: number,
      status: "posted" | "held" | "rejected",
    ) => ({
      account_id: busy,
      mode,
      kind,
      amount_cents,
      shipment_id: null,
      description: kind,
      status,
      available_at: STAMP,
      created_at: STAMP,
    });
    await old
      .insertInto("meter_entries")
      .values([
        entry("production", "refill", 10_000, "posted"),
        entry("production", "label_purchase", -1_234, "posted"),
        entry("production", "refund", 866, "held"),
        entry("production", "refund", 500, "held"),
        entry("production", "refill", 2_500, "rejected"),
        entry("production", "refill_return", -4_000, "posted"),
        entry("test", "label_purchase", -700, "posted"),
      ])
      .execute();
    await migrateToLatest(testDb.db);
    db = testDb.db.kysely;
  });
  afterAll(() => testDb.drop());

  it("sums each meter's posted and held entries into its row; a meter with no entries has none", async () => {
    const rows = await db.selectFrom("meter_balances").selectAll().orderBy("mode").execute();
    expect(rows).toEqual([
      { account_id: busy, mode: "production", posted_cents: 4_766, held_cents: 1_366, held_count: 2 },
      { account_id: busy, mode: "test", posted_cents: -700, held_cents: 0, held_count: 0 },
    ]);
    expect(await meterTotals(db, { accountId: busy, mode: "production" })).toEqual({
      balanceCents: 4_766,
      pendingRefundCents: 1_366,
      pendingRefundCount: 2,
    });
    expect((await meterTotals(db, { accountId: quiet, mode: "test" })).balanceCents).toBe(100_000);
  });
});
