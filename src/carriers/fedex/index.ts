import type { CarrierAdapter } from "../carrier.js";
import { sandboxCarrier } from "../sandbox/sandbox-carrier.js";
import { groundZone } from "../sandbox/zones.js";
import { fedexSandboxPickups } from "./pickups.js";
import { rateService } from "./rates.js";
import { FEDEX_SERVICES } from "./services.js";
import { FEDEX_TRACKING } from "./tracking-events.js";
import { generateTrackingNumber } from "./tracking-number.js";

/** FedEx has no manifest concept in the API (the spec). */
export const fedex: CarrierAdapter = sandboxCarrier({
  code: "fed_ex",
  displayName: "FedEx",
  services: FEDEX_SERVICES,
  apis: ["rate", "label", "tracking", "pickup"],
  pickups: fedexSandboxPickups,
  domesticZone: groundZone,
  rateService,
  tracking: FEDEX_TRACKING,
  issueTrackingNumber: (serial) => ({ trackingNumber: generateTrackingNumber(serial) }),
});
