import type { Insertable, Kysely, Selectable, Transaction } from "kysely";
import type { Database, TrackingEventTable } from "../../storage/schema.js";

export type TrackingEventRow = Selectable<TrackingEventTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** Stores events; a carrier event already stored (same parcel and sequence) is skipped, not repeated. */
export async function insertTrackingEvents(
  db: Executor,
  rows: Insertable<TrackingEventTable>[],
): Promise<TrackingEventRow[]> {
  if (rows.length === 0) return [];
  return db
    .insertInto("tracking_events")
    .values(rows)
    .onConflict((oc) => oc.columns(["parcel_id", "sequence"]).doNothing())
    .returningAll()
    .execute();
}

/** The events of some shipments, oldest first. */
export async function listTrackingEvents(db: Executor, shipmentIds: readonly number[]): Promise<TrackingEventRow[]> {
  if (shipmentIds.length === 0) return [];
  return db
    .selectFrom("tracking_events")
    .selectAll()
    .where("shipment_id", "in", shipmentIds)
    .orderBy("event_timestamp")
    .orderBy("id")
    .execute();
}
