import type { Transaction } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database } from "../../storage/schema.js";
import { sellingCarrierOf } from "../carriers/carrier-connections.js";
import { callingCarrier } from "../carriers/carrier-failure.js";
import { DomainError, notFound, partUnavailable } from "../errors.js";
import { findMoneyIncident, markRepaired, recordBesideFailure, shipmentIds } from "../incidents/money-incidents.js";
import { appendMeterEntry, type MeterEntryRow, postHeldEntry } from "../meter/meter.repository.js";
import { queueLabelUnlink } from "../orders/link-label.js";
import type { AccountScope, DomainServices } from "../services.js";
import { cancelRefusal } from "./cancel-window.js";
import { isShipmentStatus } from "./shipment-status.js";
import { loadShipmentRecords, moveShipment, type ShipmentRecord, type ShipmentRow } from "./shipments.repository.js";

/** USPS holds prepaid postage 30 days before refunding it. */
export const POSTAL_REFUND_HOLD_MS = 30 * 24 * 60 * 60 * 1000;
export const SETTLE_REFUND_JOB = "shipment.settle_refund";
export const RECORD_REFUND_JOB = "money.record_refund";

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
  await callingCarrier(services.clock, () => carrier.voidLabels(trackingNumbers));
  let refund: MeterEntryRow;
  try {
    refund = await recordCancellation(services, shipment, now);
  } catch (error) {
    // The carrier has voided: the refund must not be lost with this write.
    if (error instanceof DomainError) throw error;
    await reportRefundNotRecorded(services, shipment, trackingNumbers, error);
    throw partUnavailable(
      `The carrier voided shipment ${id}'s labels, but recording the cancel failed; a repair job records it and its refund shortly.`,
    );
  }
  const [updated] = await loadShipmentRecords(services.db, await shipmentOrNotFound(services, scope, id));
  return { record: updated as ShipmentRecord, refund };
}

/**
 * The cancel's one write, once the carrier has voided: `cancel_pending`, labels voided, the refund
 * held on the meter with the job that settles it. Refused if the shipment moved meanwhile.
 */
async function recordCancellation(services: DomainServices, shipment: ShipmentRow, now: Date): Promise<MeterEntryRow> {
  const id = shipment.id;
  const stamp = now.toISOString();
  const availableAt = new Date(now.getTime() + (shipment.carrier_code === "usps" ? POSTAL_REFUND_HOLD_MS : 0));
  return services.db.transaction().execute(async (trx) => {
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

/** The carrier voided but the cancel's write failed: a money incident, repaired by `recordMissingRefund`. */
async function reportRefundNotRecorded(
  services: DomainServices,
  shipment: ShipmentRow,
  trackingNumbers: readonly string[],
  failure: unknown,
): Promise<void> {
  await recordBesideFailure(
    services,
    {
      kind: "refund_not_recorded",
      ...shipmentIds(shipment),
      tracking_numbers: trackingNumbers,
      amount_cents: shipment.rate_cents,
      job_kind: RECORD_REFUND_JOB,
      failure: `the carrier voided the labels, then the refund could not be written: ${failure instanceof Error ? failure.message : String(failure)}`,
    },
    RECORD_REFUND_JOB,
  );
}

/**
 * The repair of a cancel whose write failed after the carrier voided: writes it now, once. Only a
 * shipment still `shipped` or `manifested` gets it; any other was cancelled since (a cancel writes
 * its refund with the status, in one transaction) and is only marked repaired, so nothing is
 * refunded twice.
 */
export async function recordMissingRefund(services: DomainServices, incidentId: number): Promise<void> {
  const incident = await findMoneyIncident(services.db, incidentId);
  if (!incident || incident.repaired_at !== null || incident.shipment_id === null) return;
  const shipment = await services.db
    .selectFrom("shipments")
    .selectAll()
    .where("id", "=", incident.shipment_id)
    .executeTakeFirstOrThrow();
  if (shipment.status === "shipped" || shipment.status === "manifested") {
    const refund = await recordCancellation(services, shipment, services.clock.now());
    await markRepaired(services, { id: incidentId }, `refund ${refund.id} recorded by the repair job`);
  } else {
    await markRepaired(services, { id: incidentId }, `nothing written: the shipment is ${shipment.status}`);
  }
}
