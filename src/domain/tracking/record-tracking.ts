import type { Transaction } from "kysely";
import type { TrackingLocation, TrackingStatus } from "../../carriers/carrier.js";
import { appendEvents } from "../../events/outbox.js";
import type { Database } from "../../storage/schema.js";
import { chargeFirstScan } from "../meter/first-scan-charge.js";
import type { DomainServices } from "../services.js";
import { isShipmentStatus, shipmentStatusOf, statusAfterEvent } from "../shipments/shipment-status.js";
import { moveShipment, type ParcelRow, type ShipmentRow } from "../shipments/shipments.repository.js";
import { insertTrackingEvents, type TrackingEventRow } from "./tracking.repository.js";

/** An event to store for one parcel: from the carrier (with its sequence) or made by a client. */
export interface NewTrackingEvent extends TrackingLocation {
  parcelId: number;
  source: "carrier" | "custom";
  sequence: number | null;
  code: string;
  secondaryCode: string | null;
  description: string;
  status: TrackingStatus;
  occurredAt: Date;
}

export interface TrackingWrite {
  shipment: ShipmentRow;
  parcels: ParcelRow[];
  stored: TrackingEventRow[];
}

/**
 * Runs `write` in a transaction that holds the shipment for tracking writes (the first statement
 * updates its row, which locks it on PostgreSQL and takes the write lock on SQLite), so two
 * writers never compute a status from the same stale read.
 */
export async function withTrackingLock<T>(
  services: DomainServices,
  shipmentId: number,
  write: (trx: Transaction<Database>, current: TrackingWrite) => Promise<T>,
): Promise<T | undefined> {
  return services.db.transaction().execute(async (trx) => {
    const shipment = await trx
      .updateTable("shipments")
      .set((eb) => ({ tracking_shift_ms: eb.ref("tracking_shift_ms") }))
      .where("id", "=", shipmentId)
      .returningAll()
      .executeTakeFirst();
    if (!shipment) return undefined;
    const [parcels, stored] = await Promise.all([
      trx.selectFrom("parcels").selectAll().where("shipment_id", "=", shipmentId).orderBy("position").execute(),
      trx
        .selectFrom("tracking_events")
        .selectAll()
        .where("shipment_id", "=", shipmentId)
        .orderBy("event_timestamp")
        .orderBy("id")
        .execute(),
    ]);
    return write(trx, { shipment, parcels, stored });
  });
}

/**
 * Stores new events, moves the parcels' and the shipment's status forward as they say, charges a
 * scan-based return at its first scan, and appends them to the account's `shipment_tracking`
 * stream, all in the caller's transaction. Returns the
 * events actually stored (a carrier event stored before is not stored or sent again).
 */
export async function recordTrackingEvents(
  services: DomainServices,
  trx: Transaction<Database>,
  current: TrackingWrite,
  events: readonly NewTrackingEvent[],
): Promise<TrackingEventRow[]> {
  const { shipment, parcels } = current;
  const now = services.clock.now().toISOString();
  const ordered = [...events].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  const inserted = await insertTrackingEvents(
    trx,
    ordered.map((event) => ({
      account_id: shipment.account_id,
      mode: shipment.mode,
      shipment_id: shipment.id,
      parcel_id: event.parcelId,
      source: event.source,
      sequence: event.sequence,
      code: event.code,
      secondary_code: event.secondaryCode,
      description: event.description,
      status: event.status,
      city: event.city,
      state: event.state,
      postal_code: event.postalCode,
      country: event.country,
      event_timestamp: event.occurredAt.toISOString(),
      created_at: now,
    })),
  );
  if (inserted.length === 0) return [];
  const statuses: string[] = [];
  for (const parcel of parcels) {
    let status = parcel.status;
    let deliveredAt = parcel.delivered_at;
    for (const event of inserted.filter((e) => e.parcel_id === parcel.id)) {
      const next = statusAfterEvent(status, event.status);
      if (next === "delivered" && status !== "delivered") deliveredAt = event.event_timestamp;
      status = next;
    }
    statuses.push(status);
    if (status !== parcel.status || deliveredAt !== parcel.delivered_at) {
      await trx
        .updateTable("parcels")
        .set({ status, delivered_at: deliveredAt, updated_at: now })
        .where("id", "=", parcel.id)
        .execute();
    }
  }
  const shipmentStatus = shipmentStatusOf(statuses, shipment.status);
  if (shipmentStatus !== shipment.status && isShipmentStatus(shipmentStatus)) {
    // The row is held since it was read (`withTrackingLock`): a refusal is a move the table lacks.
    const moved = await moveShipment(trx, shipment.id, {
      from: shipment.status,
      to: shipmentStatus,
      set: { updated_at: now },
    });
    if (!moved) throw new Error(`Shipment ${shipment.id} cannot move from ${shipment.status} to ${shipmentStatus}.`);
  }
  await chargeFirstScan(services, trx, shipment, inserted);
  const trackingNumbers = new Map(parcels.map((p) => [p.id, p.tracking_number]));
  await appendEvents(
    trx,
    inserted.map((event) => ({
      accountId: shipment.account_id,
      mode: shipment.mode,
      stream: "shipment_tracking" as const,
      occurredAt: event.event_timestamp,
      payload: {
        shipment_id: shipment.id,
        tracking_number: trackingNumbers.get(event.parcel_id) ?? null,
        tracking_event_id: event.id,
        parcel_id: event.parcel_id,
        code: event.code,
        secondary_code: event.secondary_code,
        description: event.description,
        event_timestamp: event.event_timestamp,
        city: event.city,
        state: event.state,
        postal_code: event.postal_code,
        country: event.country,
      },
    })),
    services.clock,
  );
  return inserted;
}
