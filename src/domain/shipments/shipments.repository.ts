import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type Selectable,
  type SqlBool,
  sql,
  type Transaction,
  type Updateable,
} from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database, LabelTable, ParcelTable, ShipmentTable } from "../../storage/schema.js";
import { notFound } from "../errors.js";
import type { MeterEntryRow } from "../meter/meter.repository.js";
import type { AccountScope } from "../services.js";
import { listTrackingEvents, type TrackingEventRow } from "../tracking/tracking.repository.js";
import { movesInto, type ShipmentStatus } from "./shipment-status.js";

export type ShipmentRow = Selectable<ShipmentTable>;
export type ParcelRow = Selectable<ParcelTable>;
export type LabelRow = Selectable<LabelTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** A shipment with its parcels and their labels, as every presenter needs it. */
export interface ShipmentRecord {
  shipment: ShipmentRow;
  parcels: ParcelRow[];
  labels: LabelRow[];
  /** The purchase charge on the meter, when there is one. */
  charge: MeterEntryRow | undefined;
  /** Tracking events of every parcel, oldest first. */
  trackingEvents: TrackingEventRow[];
  /**
   * The label images just written, by file name, on the answer of the purchase that wrote them:
   * an inline image needs no second read of the file store, so an outage of the store after the
   * purchase was recorded cannot turn a bought label into an error (and a retry into a second buy).
   */
  labelImages?: ReadonlyMap<string, Buffer>;
}

export async function insertShipment(db: Executor, row: Insertable<ShipmentTable>): Promise<ShipmentRow> {
  return db.insertInto("shipments").values(row).returningAll().executeTakeFirstOrThrow();
}

/** A status change: where to, from what the caller read (if it read one), and what else it writes. */
export interface StatusMove {
  to: ShipmentStatus;
  from?: string;
  set?: Omit<Updateable<ShipmentTable>, "id" | "status">;
}

/**
 * The one write of `shipments.status`: `UPDATE shipments SET status = :to … WHERE … AND status IN
 * (:froms)`, the froms being the statuses the lifecycle table lets reach `to` (only `from`, when
 * the caller read the status it moves from). A row another writer moved meanwhile, or whose move
 * the table forbids, is left as it is. Undefined when nothing may move (no query is sent).
 */
function guardedMove(db: Executor, move: StatusMove) {
  const froms = movesInto(move.to).filter((from) => move.from === undefined || from === move.from);
  if (froms.length === 0) return undefined;
  return (
    db
      .updateTable("shipments")
      // The schema lets no other update write `status`.
      .set({ ...move.set, status: sql<never>`${move.to}` })
      .where("status", "in", froms)
  );
}

/** Moves one shipment's status (see `guardedMove`); the row as written, or undefined if it did not move. */
export async function moveShipment(db: Executor, id: number, move: StatusMove): Promise<ShipmentRow | undefined> {
  return guardedMove(db, move)?.where("id", "=", id).returningAll().executeTakeFirst();
}

/** Moves the status of every shipment `which` selects (see `guardedMove`); how many moved. */
export async function moveShipments(
  db: Executor,
  which: (eb: ExpressionBuilder<Database, "shipments">) => Expression<SqlBool>,
  move: StatusMove,
): Promise<number> {
  const moved = await guardedMove(db, move)?.where(which).executeTakeFirst();
  return Number(moved?.numUpdatedRows ?? 0);
}

export async function insertParcels(db: Executor, rows: Insertable<ParcelTable>[]): Promise<ParcelRow[]> {
  return db.insertInto("parcels").values(rows).returningAll().execute();
}

export async function findShipment(db: Executor, scope: AccountScope, id: number): Promise<ShipmentRow | undefined> {
  return db.selectFrom("shipments").selectAll().where("id", "=", id).where(ownedBy(scope)).executeTakeFirst();
}

/** The shipment bought under one idempotent request, in the caller's scope. */
export async function findShipmentByRequestKey(
  db: Executor,
  scope: AccountScope,
  requestKey: string,
): Promise<ShipmentRow | undefined> {
  return db
    .selectFrom("shipments")
    .selectAll()
    .where("request_key", "=", requestKey)
    .where(ownedBy(scope))
    .executeTakeFirst();
}

/** Loads parcels, labels, charges and tracking events of many shipments in four queries. */
export async function loadShipmentRecords(db: Executor, shipments: ShipmentRow[]): Promise<ShipmentRecord[]> {
  if (shipments.length === 0) return [];
  const ids = shipments.map((s) => s.id);
  const [parcels, labels, charges, events] = await Promise.all([
    db.selectFrom("parcels").selectAll().where("shipment_id", "in", ids).orderBy("position").execute(),
    db.selectFrom("labels").selectAll().where("shipment_id", "in", ids).orderBy("id").execute(),
    db
      .selectFrom("meter_entries")
      .selectAll()
      .where("shipment_id", "in", ids)
      .where("kind", "=", "label_purchase")
      .execute(),
    listTrackingEvents(db, ids),
  ]);
  return shipments.map((shipment) => ({
    shipment,
    parcels: parcels.filter((p) => p.shipment_id === shipment.id),
    labels: labels.filter((l) => l.shipment_id === shipment.id),
    charge: charges.find((c) => c.shipment_id === shipment.id),
    trackingEvents: events.filter((e) => e.shipment_id === shipment.id),
  }));
}

export interface ShipmentFilter {
  carrierCode?: string;
  serviceCode?: string;
  /** ISO instants bounding created_at. */
  from?: string;
  to?: string;
  batchId?: number;
  status?: string;
  trackingNumbers?: readonly string[];
}

/**
 * With no filter but the status, the list's total is the sum of the counters that the triggers of
 * src/storage/migrations/0035-shipment-counts.ts keep in step: a few rows instead of every
 * shipment. Undefined when another filter narrows the list, which is then counted.
 */
function countedTotal(db: Executor, scope: AccountScope, filter: ShipmentFilter) {
  const { status, trackingNumbers, ...narrowing } = filter;
  const narrowed =
    (trackingNumbers !== undefined && trackingNumbers.length > 0) ||
    Object.values(narrowing).some((value) => value !== undefined);
  if (narrowed) return undefined;
  let counters = db
    .selectFrom("shipment_counts")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("n"), eb.lit(0)).as("n"))
    .where("account_id", "=", scope.accountId)
    .where("mode", "=", scope.mode)
    .where("status", "not in", ["purchasing", "failed"]);
  if (status) counters = counters.where("status", "=", status);
  return counters.executeTakeFirstOrThrow();
}

/** Newest first, by id, so pages stay stable while new shipments arrive. */
export async function listShipments(
  db: Executor,
  scope: AccountScope,
  filter: ShipmentFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: ShipmentRow[]; total: number }> {
  let query = db
    .selectFrom("shipments")
    .where("shipments.account_id", "=", scope.accountId)
    .where("shipments.mode", "=", scope.mode)
    .where("shipments.status", "not in", ["purchasing", "failed"]);
  if (filter.carrierCode) query = query.where("shipments.carrier_code", "=", filter.carrierCode);
  if (filter.serviceCode) query = query.where("shipments.service_code", "=", filter.serviceCode);
  if (filter.from) query = query.where("shipments.created_at", ">=", filter.from);
  if (filter.to) query = query.where("shipments.created_at", "<=", filter.to);
  if (filter.batchId !== undefined) query = query.where("shipments.batch_id", "=", filter.batchId);
  if (filter.status) query = query.where("shipments.status", "=", filter.status);
  if (filter.trackingNumbers && filter.trackingNumbers.length > 0) {
    // The shipments of these parcels first, then those ids: given the subquery instead, SQLite
    // counts by walking the account's every shipment (docs/performance.md).
    const parcels = await db
      .selectFrom("parcels")
      .select("shipment_id")
      .distinct()
      .where("tracking_number", "in", filter.trackingNumbers)
      .execute();
    if (parcels.length === 0) return { rows: [], total: 0 };
    query = query.where(
      "shipments.id",
      "in",
      parcels.map((parcel) => parcel.shipment_id),
    );
  }
  const [rows, count] = await Promise.all([
    query.selectAll("shipments").orderBy("shipments.id", "desc").limit(page.limit).offset(page.offset).execute(),
    countedTotal(db, scope, filter) ?? query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** One shipment of the scope with its parcels and labels; one still being bought, or never bought, is not found. */
export async function boughtShipmentRecord(db: Executor, scope: AccountScope, id: number): Promise<ShipmentRecord> {
  const shipment = await findShipment(db, scope, id);
  if (!shipment || shipment.status === "purchasing" || shipment.status === "failed") throw notFound("shipment", id);
  const [record] = await loadShipmentRecords(db, [shipment]);
  return record as ShipmentRecord;
}
