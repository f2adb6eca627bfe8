import { COURIER_WINDOW, type CourierPickupRule } from "../pickup-calendar.js";
import { serialField } from "../sandbox/check-digits.js";
import { sandboxCourierPickups } from "../sandbox/courier-pickups.js";

/**
 * DHL Express pickups: weekdays in the shipper's local time, not in the past and at most 10 days
 * ahead (MyDHL API's `plannedPickupDateAndTime`).
 */
export const DHL_EXPRESS_PICKUP_RULE: CourierPickupRule = {
  carrierName: "DHL Express",
  ...COURIER_WINDOW,
  maxDaysAhead: 10,
};

/** Dispatch confirmation numbers read like `PRG` and twelve digits (MyDHL API's example PRG999126012345). */
export const dhlExpressSandboxPickups = sandboxCourierPickups(
  DHL_EXPRESS_PICKUP_RULE,
  (serial) => `PRG${serialField(serial, 12)}`,
);
