import { ownedBy } from "../../storage/owned-by.js";
import { storableIds } from "../batches/batches.repository.js";
import { callingCarrier } from "../carriers/carrier-failure.js";
import { DomainError, notFound } from "../errors.js";
import { carrierToday } from "../rates/delivery-date.js";
import type { AccountScope, DomainServices } from "../services.js";
import { pickupCarrierOf, sellersPickupCarrier } from "./pickup-availability.js";
import { findPickup, type PickupRow } from "./pickups.repository.js";

/** Cancels a requested pickup with the carrier that booked it, until its day has passed. */
export async function cancelPickup(services: DomainServices, scope: AccountScope, id: number): Promise<PickupRow> {
  const pickup = await findPickup(services.db, scope, id);
  if (!pickup) throw notFound("pickup", id);
  if (pickup.status === "CANCELLED")
    throw new DomainError("pickup.already_cancelled", `Pickup ${id} is already cancelled.`);
  const now = services.clock.now();
  if (pickup.pickup_date < carrierToday(now)) {
    throw new DomainError(
      "pickup.cancel_window_closed",
      `Pickup ${id} was on ${pickup.pickup_date}; that day has passed.`,
    );
  }
  const shipment = await firstShipmentOf(services, scope, pickup);
  const carrier = shipment
    ? await sellersPickupCarrier(services, shipment)
    : await pickupCarrierOf(services, scope, pickup.carrier_code);
  await callingCarrier(services.clock, () =>
    carrier.pickups.cancel({
      confirmationNumber: pickup.external_id,
      pickupDate: pickup.pickup_date,
      ...(pickup.carrier_details ? { details: JSON.parse(pickup.carrier_details) as Record<string, string> } : {}),
    }),
  );
  return services.db
    .updateTable("pickups")
    .set({ status: "CANCELLED", updated_at: now.toISOString() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A shipment the pickup was booked for, named or on one of its batches: its seller booked the pickup. */
async function firstShipmentOf(services: DomainServices, scope: AccountScope, pickup: PickupRow) {
  const ids = storableIds(JSON.parse(pickup.shipment_ids) as number[]);
  const batchIds = storableIds(JSON.parse(pickup.shipment_batch_ids) as number[]);
  if (ids.length === 0 && batchIds.length === 0) return undefined;
  let query = services.db
    .selectFrom("shipments")
    .select(["id", "carrier_code", "carrier_account_id"])
    .where(ownedBy(scope));
  query =
    ids.length > 0 ? query.where("id", "in", ids.slice(0, 1)) : query.where("batch_id", "in", batchIds.slice(0, 1));
  return query.orderBy("id").limit(1).executeTakeFirst();
}
