import { type Insertable, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canMove, SHIPMENT_STATUSES } from "../../../src/domain/shipments/shipment-status.js";
import { moveShipment, moveShipments } from "../../../src/domain/shipments/shipments.repository.js";
import type { Db } from "../../../src/storage/db.js";
import type { ShipmentTable } from "../../../src/storage/schema.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.js";

const STAMP = "2026-01-15T15:00:00.000Z";
const LATER = "2026-01-16T09:00:00.000Z";

/** The status write's guard, on the engine the suite runs on (SQLite, or PostgreSQL with TEST_DATABASE_URL). */
describe("a shipment's status changes only as the lifecycle table allows", () => {
  let testDb: TestDatabase;
  let db: Db["kysely"];
  let shipment: Insertable<ShipmentTable>;

  const statusOf = async (id: number) =>
    (await db.selectFrom("shipments").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
  const insert = async (status: string) =>
    (
      await db
        .insertInto("shipments")
        .values({ ...shipment, status })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = testDb.db.kysely;
    const account = await db
      .insertInto("accounts")
      .values({ parent_id: null, name: "A", email: null, phone: null, external_id: null, created_at: STAMP })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Columns left out are null: the guard reads and writes none of them.
    shipment = {
      account_id: account.id,
      mode: "test",
      status: "purchasing",
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
    };
  });

  afterAll(async () => {
    await testDb.drop();
  });

  it("moves a row exactly for the table's pairs, walking every pair of statuses", async () => {
    const id = await insert("purchasing");
    const wrong: string[] = [];
    for (const from of SHIPMENT_STATUSES) {
      for (const to of SHIPMENT_STATUSES) {
        await sql`update shipments set status = ${from}, updated_at = ${STAMP} where id = ${id}`.execute(db);
        const moved = await moveShipment(db, id, { to, set: { updated_at: LATER } });
        const status = await statusOf(id);
        if ((moved !== undefined) !== canMove(from, to) || status !== (moved ? to : from)) {
          wrong.push(`${from} → ${to}: ${moved ? "moved" : "refused"}, now ${status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("returns the row as the move wrote it", async () => {
    const id = await insert("purchasing");
    const moved = await moveShipment(db, id, { to: "failed", set: { status_reason: "no label", updated_at: LATER } });
    expect(moved).toMatchObject({ id, status: "failed", status_reason: "no label", updated_at: LATER });
  });

  it("refuses a move the table forbids, writing nothing", async () => {
    const id = await insert("delivered");
    expect(await moveShipment(db, id, { to: "in_transit", set: { updated_at: LATER } })).toBeUndefined();
    expect(await db.selectFrom("shipments").select(["status", "updated_at"]).where("id", "=", id).execute()).toEqual([
      { status: "delivered", updated_at: STAMP },
    ]);
  });

  it("refuses a move from a status another writer changed since it was read", async () => {
    const id = await insert("shipped");
    const read = await statusOf(id);
    // The label is cancelled between the tracking read and its write.
    expect(await moveShipment(db, id, { from: read, to: "cancel_pending", set: { updated_at: LATER } })).toBeDefined();
    expect(await moveShipment(db, id, { from: read, to: "in_transit" })).toBeUndefined();
    expect(await statusOf(id)).toBe("cancel_pending");
  });

  it("moves many rows by a condition, only those whose status the table lets reach the target", async () => {
    const ids = [
      await insert("shipped"),
      await insert("shipped"),
      await insert("cancel_pending"),
      await insert("in_transit"),
    ];
    const moved = await moveShipments(db, (eb) => eb("id", "in", ids), {
      to: "manifested",
      set: { manifested_at: LATER, updated_at: LATER },
    });
    expect(moved).toBe(2);
    expect(await Promise.all(ids.map(statusOf))).toEqual(["manifested", "manifested", "cancel_pending", "in_transit"]);
  });
});
