import type { Expression, ExpressionBuilder, Insertable, Kysely, Selectable, SqlBool, Transaction } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { BatchTable, Database } from "../../storage/schema.js";
import type { AccountScope } from "../services.js";
import { movesInto } from "../shipments/shipment-status.js";
import { moveShipments } from "../shipments/shipments.repository.js";

export type BatchRow = Selectable<BatchTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** A batch with the ids of its shipments, as presenters need it. */
export interface BatchRecord {
  batch: BatchRow;
  shipmentIds: number[];
}

/** Ids in `in (…)` lists are sent in slices: both engines cap the parameters of one statement. */
export const ID_SLICE = 5000;

/** Ids the id columns can hold (PostgreSQL `integer`); a larger one names no row, and asking would fail. */
export function storableIds(ids: readonly number[]): number[] {
  return ids.filter((id) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647);
}

export function slices<T>(values: readonly T[], size = ID_SLICE): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}

export async function insertBatch(db: Executor, row: Insertable<BatchTable>): Promise<BatchRow> {
  return db.insertInto("batches").values(row).returningAll().executeTakeFirstOrThrow();
}

/** Shipments a batch can still take: bought, on no batch, not closed out. */
export const openForManifesting = (eb: ExpressionBuilder<Database, "shipments">): Expression<SqlBool> =>
  eb.and([eb("status", "=", "shipped"), eb("batch_id", "is", null), eb("manifested_at", "is", null)]);

/** Puts the shipments still open for manifesting onto the batch; returns how many it took. */
export async function takeShipments(
  db: Executor,
  batchId: number,
  shipmentIds: readonly number[],
  stamp: string,
): Promise<number> {
  const taken = await db
    .updateTable("shipments")
    .set({ batch_id: batchId, updated_at: stamp })
    .where("id", "in", shipmentIds)
    .where(openForManifesting)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows);
}

/** Takes a batch's shipments off it, when the carrier refused its document for good. */
export async function releaseShipments(db: Executor, batchId: number, stamp: string): Promise<void> {
  await db
    .updateTable("shipments")
    .set({ batch_id: null, updated_at: stamp })
    .where("batch_id", "=", batchId)
    .where("manifested_at", "is", null)
    .execute();
}

export async function findBatch(db: Executor, scope: AccountScope, id: number): Promise<BatchRow | undefined> {
  return db.selectFrom("batches").selectAll().where("id", "=", id).where(ownedBy(scope)).executeTakeFirst();
}

/** Oldest first within the window of creation instants. */
export async function listBatches(
  db: Executor,
  scope: AccountScope,
  window: { from: string; to: string },
  page: { limit: number; offset: number },
): Promise<{ rows: BatchRow[]; total: number }> {
  const query = db
    .selectFrom("batches")
    .where(ownedBy(scope))
    .where("created_at", ">=", window.from)
    .where("created_at", "<", window.to);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("id").limit(page.limit).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function withShipmentIds(db: Executor, batches: BatchRow[]): Promise<BatchRecord[]> {
  if (batches.length === 0) return [];
  const rows = await db
    .selectFrom("shipments")
    .select(["id", "batch_id"])
    .where(
      "batch_id",
      "in",
      batches.map((b) => b.id),
    )
    .orderBy("id")
    .execute();
  return batches.map((batch) => ({
    batch,
    shipmentIds: rows.filter((r) => r.batch_id === batch.id).map((r) => r.id),
  }));
}

/** One listed piece of a batch: a parcel's tracking number and its shipment's service. */
export interface BatchParcelRow {
  parcelId: number;
  shipmentId: number;
  trackingNumber: string;
  serviceCode: string;
}

/** A batch's parcels in order, a page at a time, so ten thousand never sit in memory together. */
export async function* batchParcels(
  db: Executor,
  batchIds: readonly number[],
  pageSize = 1000,
): AsyncIterable<BatchParcelRow> {
  let after = 0;
  for (;;) {
    const page = await db
      .selectFrom("parcels")
      .innerJoin("shipments", "shipments.id", "parcels.shipment_id")
      .select([
        "parcels.id as parcelId",
        "parcels.shipment_id as shipmentId",
        "parcels.tracking_number as trackingNumber",
        "shipments.service_code as serviceCode",
      ])
      .where("shipments.batch_id", "in", batchIds)
      .where("parcels.tracking_number", "is not", null)
      .where("parcels.id", ">", after)
      .orderBy("parcels.id")
      .limit(pageSize)
      .execute();
    for (const row of page) yield { ...row, trackingNumber: row.trackingNumber as string };
    if (page.length < pageSize) return;
    after = (page[page.length - 1] as { parcelId: number }).parcelId;
  }
}

/** Pieces (parcels) per service in a batch. */
export async function piecesByService(
  db: Executor,
  batchId: number,
): Promise<{ serviceCode: string; pieces: number }[]> {
  const rows = await db
    .selectFrom("parcels")
    .innerJoin("shipments", "shipments.id", "parcels.shipment_id")
    .select(["shipments.service_code as serviceCode", (eb) => eb.fn.countAll<number>().as("pieces")])
    .where("shipments.batch_id", "=", batchId)
    .groupBy("shipments.service_code")
    .orderBy("shipments.service_code")
    .execute();
  return rows.map((r) => ({ serviceCode: r.serviceCode, pieces: Number(r.pieces) }));
}

/**
 * Makes the bought shipments chosen by `which` and their parcels `manifested`, in the caller's
 * transaction (a batch's document, or the close-out); returns how many shipments moved.
 */
export async function markManifested(
  trx: Executor,
  which: (eb: ExpressionBuilder<Database, "shipments">) => Expression<SqlBool>,
  manifestedAt: string,
  stamp: string,
): Promise<number> {
  await trx
    .updateTable("parcels")
    .set({ status: "manifested", updated_at: stamp })
    .where("status", "=", "shipped")
    .where("shipment_id", "in", (eb) =>
      eb.selectFrom("shipments").select("id").where("status", "in", movesInto("manifested")).where(which),
    )
    .execute();
  return moveShipments(trx, which, { to: "manifested", set: { manifested_at: manifestedAt, updated_at: stamp } });
}
