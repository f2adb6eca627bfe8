import type { Transaction } from "kysely";
import { CarrierError } from "../../carriers/carrier.js";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database } from "../../storage/schema.js";
import { sellingCarrierOf } from "../carriers/carrier-connections.js";
import { DomainError, notFound } from "../errors.js";
import { appendMeterEntry, type MeterEntryRow, postHeldEntry } from "../meter/meter.repository.js";
import { queueLabelUnlink } from "../orders/link-label.js";
import type { AccountScope, DomainServices } from "../services.js";
import { cancelRefusal } from "./cancel-window.js";
import { isShipmentStatus } from "./shipment-status.js";
import { loadShipmentRecords, moveShipment, type ShipmentRecord } from "./shipments.repository.js";

/** USPS holds prepaid postage 30 days before refunding it (the spec). */
export const POSTAL_REFUND_HOLD_MS = 30 * 24 * 60 * 60 * 1000;
export const SETTLE_REFUND_JOB = "shipment.settle_refund";

export interface CancelledShipment {
  record: ShipmentRecord;
  refund: MeterEntryRow;
}

/**
 * Voids a shipment's labels within the carrier's window and puts its refund on the meter: at once
 * for most carriers, after the 30-day hold for USPS. The shipment stays `cancel_pending` until
 * the refund is settled by a job, then becomes `cancelled`.
 */
export async function cancelShipment(
  services: DomainServices,
  scope: AccountScope,
  id: number,
): Promise<CancelledShipment> {
  const [record] = await loadShipmentRecords(services.db, await shipmentOrNotFound(services, scope, id));
  const { shipment } = record as ShipmentRecord;
  if (shipment.status === "cancel_pending" || shipment.status === "cancelled") {
    throw new DomainError("shipment.already_cancelled", `Shipment ${id} is already ${shipment.status}.`);
  }
  if (!isShipmentStatus(shipment.status) || !["shipped", "manifested"].includes(shipment.status)) {
    throw new DomainError(
      "shipment.cancel_window_closed",
      `Shipment ${id} is ${shipment.status}; only shipments not yet in the carrier's hands can be cancelled.`,
    );
  }
  const now = services.clock.now();
  const refusal = cancelRefusal(
    {
      carrierCode: shipment.carrier_code,
      mode: shipment.mode,
      createdAt: shipment.created_at,
      shipDate: shipment.ship_date,
      status: shipment.status,
      batchId: shipment.batch_id,
      manifestedAt: shipment.manifested_at,
    },
    now,
  );
  if (refusal)
    throw new DomainError("shipment.cancel_window_closed", `Shipment ${id} cannot be cancelled: ${refusal}.`);

  const carrier = await sellingCarrierOf(services, shipment);
  const trackingNumbers = (record as ShipmentRecord).parcels.flatMap((p) =>
    p.tracking_number ? [p.tracking_number] : [],
  );
  try {
    await carrier.voidLabels(trackingNumbers);
  } catch (error) {
    if (error instanceof CarrierError) throw new DomainError("carrier.rejected", error.message);
    throw error;
  }

  const stamp = now.toISOString();
  const availableAt = new Date(now.getTime() + (shipment.carrier_code === "usps" ? POSTAL_REFUND_HOLD_MS : 0));
  const refund = await services.db.transaction().execute(async (trx) => {
    const moved = await moveShipment(trx, shipment.id, {
      from: shipment.status,
      to: "cancel_pending",
      set: { cancel_requested_at: stamp, updated_at: stamp },
    });
    if (!moved) {
      throw new DomainError("shipment.already_cancelled", `Shipment ${id} changed while it was being cancelled.`);
    }
    await trx
      .updateTable("parcels")
      .set({ status: "cancel_pending", updated_at: stamp })
      .where("shipment_id", "=", shipment.id)
      .execute();
    await trx.updateTable("labels").set({ status: "voided" }).where("shipment_id", "=", shipment.id).execute();
    const entry = await appendMeterEntry(trx, {
      account_id: shipment.account_id,
      mode: shipment.mode,
      kind: "refund",
      amount_cents: await labelCostCents(trx, shipment.id),
      shipment_id: shipment.id,
      description:
        shipment.carrier_code === "usps"
          ? `Refund for voided shipment ${shipment.id}, held 30 days by USPS`
          : `Refund for voided shipment ${shipment.id}`,
      status: "held",
      available_at: availableAt.toISOString(),
      created_at: stamp,
    });
    await services.jobs.enqueue(SETTLE_REFUND_JOB, { meterEntryId: entry.id }, { runAt: availableAt, executor: trx });
    await queueLabelUnlink(services, trx, shipment);
    return entry;
  });
  const [updated] = await loadShipmentRecords(services.db, await shipmentOrNotFound(services, scope, id));
  return { record: updated as ShipmentRecord, refund };
}

/**
 * What the labels cost in the end: their debit with every adjustment since (the carrier charging
 * other than it quoted, a USPS audit). A voided label is refunded whole, so its adjustments are
 * reversed with it: the refund gives back what the meter paid, no more and no less.
 */
async function labelCostCents(trx: Transaction<Database>, shipmentId: number): Promise<number> {
  const { paid } = await trx
    .selectFrom("meter_entries")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount_cents"), eb.lit(0)).as("paid"))
    .where("shipment_id", "=", shipmentId)
    .where("kind", "in", ["label_purchase", "adjustment"])
    .where("status", "=", "posted")
    .executeTakeFirstOrThrow();
  return -Number(paid);
}

async function shipmentOrNotFound(services: DomainServices, scope: AccountScope, id: number) {
  const shipment = await services.db
    .selectFrom("shipments")
    .selectAll()
    .where("id", "=", id)
    .where(ownedBy(scope))
    .where("status", "not in", ["purchasing", "failed"])
    .executeTakeFirst();
  if (!shipment) throw notFound("shipment", id);
  return [shipment];
}

/** The refund's hold is over: post it, and the shipment is `cancelled`. */
export async function settleRefund(services: DomainServices, meterEntryId: number): Promise<void> {
  const stamp = services.clock.now().toISOString();
  await services.db.transaction().execute(async (trx) => {
    const entry = await postHeldEntry(trx, meterEntryId);
    if (!entry?.shipment_id) return;
    if (!(await moveShipment(trx, entry.shipment_id, { to: "cancelled", set: { updated_at: stamp } }))) return;
    await trx
      .updateTable("parcels")
      .set({ status: "cancelled", updated_at: stamp })
      .where("shipment_id", "=", entry.shipment_id)
      .execute();
  });
}
