import type { Transaction } from "kysely";
import { appendEvents } from "../../events/outbox.js";
import type { Database } from "../../storage/schema.js";
import type { DomainServices } from "../services.js";
import type { ShipmentRow } from "../shipments/shipments.repository.js";
import type { TrackingEventRow } from "../tracking/tracking.repository.js";
import { appendMeterEntry } from "./meter.repository.js";

/** Whether an event says the carrier has the parcel: any carrier scan past the label's creation. */
export function isFirstScan(event: Pick<TrackingEventRow, "source" | "status">): boolean {
  return event.source === "carrier" && event.status !== "pre_transit";
}

/**
 * A scan-based return is paid when the carrier first scans it: the label's price is taken from the
 * meter (the carrier has charged it, so the balance may go below zero) and a `payment_status`
 * event says so, in the transaction that records the scan. The tracking writer holds the shipment's
 * row, so a label is charged once however many scans or readers arrive; one never scanned is never
 * charged.
 */
export async function chargeFirstScan(
  services: DomainServices,
  trx: Transaction<Database>,
  shipment: ShipmentRow,
  recorded: readonly TrackingEventRow[],
): Promise<void> {
  if (shipment.return_type !== "scan_based" || !recorded.some(isFirstScan)) return;
  const charged = await trx
    .selectFrom("meter_entries")
    .select("id")
    .where("shipment_id", "=", shipment.id)
    .where("kind", "=", "label_purchase")
    .executeTakeFirst();
  if (charged) return;
  const stamp = services.clock.now().toISOString();
  const entry = await appendMeterEntry(trx, {
    account_id: shipment.account_id,
    mode: shipment.mode,
    kind: "label_purchase",
    amount_cents: -shipment.rate_cents,
    shipment_id: shipment.id,
    description: `Scan-based return label for shipment ${shipment.id}, charged at the carrier's first scan`,
    status: "posted",
    available_at: stamp,
    created_at: stamp,
  });
  await appendEvents(
    trx,
    [
      {
        accountId: shipment.account_id,
        mode: shipment.mode,
        stream: "payment_status",
        occurredAt: stamp,
        payload: {
          payment_method_id: null,
          payment_transaction_id: null,
          gateway_txn_reference: null,
          transaction_time: stamp,
          amount: shipment.rate_cents / 100,
          type: "meter",
          status: "charged",
          shipment_id: shipment.id,
          meter_entry_id: entry.id,
        },
      },
    ],
    services.clock,
  );
}
