import { COURIER_WINDOW, type CourierPickupRule } from "../pickup-calendar.js";
import { serialField } from "../sandbox/check-digits.js";
import { sandboxCourierPickups } from "../sandbox/courier-pickups.js";

/** FedEx pickups: weekdays, in the local time of the pickup postal code (as the Pickup API reads times). */
export const FEDEX_PICKUP_RULE: CourierPickupRule = { carrierName: "FedEx", ...COURIER_WINDOW };

/** FedEx confirmation codes read like `CPU` and digits (the Pickup API's examples). */
export const fedexSandboxPickups = sandboxCourierPickups(FEDEX_PICKUP_RULE, (serial) => `CPU${serialField(serial, 9)}`);
