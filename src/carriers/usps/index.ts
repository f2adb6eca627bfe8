import type { CarrierAdapter } from "../carrier.js";
import { sandboxCarrier } from "../sandbox/sandbox-carrier.js";
import { uspsZone } from "../sandbox/zones.js";
import { rateService } from "./rates.js";
import { USPS_SERVICES } from "./services.js";

/** USPS: every API, including SCAN-form manifests and carrier pickups. */
export const usps: CarrierAdapter = sandboxCarrier({
  code: "usps",
  displayName: "USPS",
  services: USPS_SERVICES,
  apis: ["rate", "label", "manifest", "tracking", "pickup"],
  domesticZone: uspsZone,
  rateService,
});
