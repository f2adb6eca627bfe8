import { sellingCarrierOf } from "../carriers/carrier-connections.js";
import { DomainError } from "../errors.js";
import { markRepaired } from "../incidents/money-incidents.js";
import { releaseLabelDebit } from "../meter/fund-label.js";
import type { AccountScope, DomainServices } from "../services.js";
import {
  findShipmentByRequestKey,
  loadShipmentRecords,
  moveShipment,
  type ShipmentRecord,
} from "./shipments.repository.js";

/**
 * A purchase still `purchasing` after the process buying it died: void whatever the carrier sold
 * and mark it failed, so nothing stays charged (the label's debit goes back on the meter). The recovery job runs it ten minutes after the
 * purchase began; a retry of the same idempotent request runs it as soon as the buyer is known dead.
 */
export async function recoverPurchase(services: DomainServices, shipmentId: number): Promise<void> {
  const shipment = await services.db
    .selectFrom("shipments")
    .selectAll()
    .where("id", "=", shipmentId)
    .executeTakeFirst();
  if (shipment?.status !== "purchasing") return;
  const parcels = await services.db
    .selectFrom("parcels")
    .select("tracking_number")
    .where("shipment_id", "=", shipmentId)
    .execute();
  const sold = parcels.flatMap((p) => (p.tracking_number ? [p.tracking_number] : []));
  if (sold.length > 0) await (await sellingCarrierOf(services, shipment)).voidLabels(sold);
  await markFailed(
    services,
    shipmentId,
    sold.length > 0
      ? `purchase interrupted; labels ${sold.join(", ")} voided`
      : "purchase interrupted before the carrier sold a label",
  );
  await markRepaired(services, { shipmentId, kind: "labels_not_voided" }, "voided by the purchase recovery job");
}

/**
 * What an earlier run of the same request bought (undefined if it got no further than its
 * checks). That run's process is gone: a purchase it left `purchasing` is recovered now, and a
 * failed one is answered as the failure it is, never bought again.
 */
export async function resumePurchase(
  services: DomainServices,
  scope: AccountScope,
  requestKey: string,
): Promise<ShipmentRecord | undefined> {
  let shipment = await findShipmentByRequestKey(services.db, scope, requestKey);
  if (!shipment) return undefined;
  if (shipment.status === "purchasing") {
    await recoverPurchase(services, shipment.id);
    shipment = (await findShipmentByRequestKey(services.db, scope, requestKey)) ?? shipment;
  }
  if (shipment.status === "failed") {
    throw new DomainError(
      "shipment.purchase_interrupted",
      `An earlier run of this request stopped while buying shipment ${shipment.id}, which failed (${shipment.status_reason ?? "no reason recorded"}); nothing was charged. Send a new Idempotency-Key to buy again.`,
    );
  }
  const [record] = await loadShipmentRecords(services.db, [shipment]);
  return record;
}

/** The purchase failed: the shipment says why, and its price goes back on the meter (once). */
export async function markFailed(services: DomainServices, shipmentId: number, reason: string): Promise<void> {
  const stamp = services.clock.now().toISOString();
  await services.db.transaction().execute(async (trx) => {
    const failed = await moveShipment(trx, shipmentId, {
      to: "failed",
      set: { status_reason: reason.slice(0, 500), updated_at: stamp },
    });
    if (failed) await releaseLabelDebit(trx, shipmentId, reason, stamp);
  });
}
