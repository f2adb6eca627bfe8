import { DomainError, notFound } from "../errors.js";
import { carrierToday } from "../rates/delivery-date.js";
import type { AccountScope, DomainServices } from "../services.js";
import { pickupCapability } from "./pickup-availability.js";
import { findPickup, type PickupRow } from "./pickups.repository.js";

/** Cancels a requested pickup with USPS, until its day has passed. */
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
  await pickupCapability().cancel(pickup.external_id);
  return services.db
    .updateTable("pickups")
    .set({ status: "CANCELLED", updated_at: now.toISOString() })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
