import { findCarrier } from "../../carriers/registry.js";
import type { DomainServices } from "../services.js";
import { markFailed } from "./purchase-shipment.js";

/**
 * A purchase still `purchasing` long after it began died between the carrier's sale and our
 * record of it: void whatever the carrier sold and mark it failed, so nothing stays charged.
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
  if (sold.length > 0) await findCarrier(shipment.carrier_code)?.voidLabels(sold);
  await markFailed(
    services,
    shipmentId,
    sold.length > 0
      ? `purchase interrupted; labels ${sold.join(", ")} voided`
      : "purchase interrupted before the carrier sold a label",
  );
}
