import { COURIER_WINDOW, type CourierPickupRule } from "../pickup-calendar.js";
import { serialField } from "../sandbox/check-digits.js";
import { sandboxCourierPickups } from "../sandbox/courier-pickups.js";

/** UPS On-Call Pickup: weekdays, in the local time of the address (the Pickup API's dates and times are local). */
export const UPS_PICKUP_RULE: CourierPickupRule = { carrierName: "UPS", ...COURIER_WINDOW };

/** UPS pickup request numbers (PRN) are 11 characters. */
export const upsSandboxPickups = sandboxCourierPickups(UPS_PICKUP_RULE, (serial) => `29${serialField(serial, 9)}`);
