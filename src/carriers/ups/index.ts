import type { CarrierAdapter } from "../carrier.js";
import { sandboxCarrier } from "../sandbox/sandbox-carrier.js";
import { groundZone } from "../sandbox/zones.js";
import { rateService } from "./rates.js";
import { UPS_SERVICES } from "./services.js";

/** UPS has no manifest (end-of-day close-out happens at the carrier). */
export const ups: CarrierAdapter = sandboxCarrier({
  code: "ups",
  displayName: "UPS",
  services: UPS_SERVICES,
  apis: ["rate", "label", "tracking", "pickup"],
  domesticZone: groundZone,
  rateService,
});
