import type { PickupCapability } from "../carrier.js";
import { type CourierPickupRule, courierAvailability } from "../pickup-calendar.js";

/**
 * A sandbox courier's pickups: the carrier's days, a confirmation number written the carrier's
 * way from the pickup's serial, and a cancellation that always succeeds.
 */
export function sandboxCourierPickups(
  rule: CourierPickupRule,
  confirmationNumber: (serial: number) => string,
): PickupCapability {
  return {
    availability: (pickupDate, now, location) => courierAvailability(rule, pickupDate, now, location),
    async schedule(request) {
      return { confirmationNumber: confirmationNumber(request.serial) };
    },
    async cancel() {},
  };
}
