import type { CarrierAdapter } from "../carrier.js";
import { sandboxCarrier } from "../sandbox/sandbox-carrier.js";
import { uspsZone } from "../sandbox/zones.js";
import { rateService } from "./rates.js";
import { DHL_ECOMMERCE_SERVICES } from "./services.js";

/** DHL eCommerce hands domestic parcels to USPS for the last mile, so it prices by USPS zones. */
export const dhlEcommerce: CarrierAdapter = sandboxCarrier({
  code: "dhl_ecommerce",
  displayName: "DHL eCommerce",
  services: DHL_ECOMMERCE_SERVICES,
  apis: ["rate", "label", "manifest", "tracking"],
  domesticZone: uspsZone,
  rateService,
});
