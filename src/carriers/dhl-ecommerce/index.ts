import type { CarrierAdapter } from "../carrier.js";
import { sandboxCarrier } from "../sandbox/sandbox-carrier.js";
import { uspsZone } from "../sandbox/zones.js";
import { impbRoutingBarcodeData } from "../usps/tracking-number.js";
import { dhlEcommerceManifests } from "./manifest.js";
import { rateService } from "./rates.js";
import { DHL_ECOMMERCE_SERVICES } from "./services.js";
import { DHL_ECOMMERCE_TRACKING } from "./tracking-events.js";
import { generateTrackingNumber } from "./tracking-number.js";

/** DHL eCommerce hands domestic parcels to USPS for the last mile, so it prices by USPS zones. */
export const dhlEcommerce: CarrierAdapter = sandboxCarrier({
  code: "dhl_ecommerce",
  displayName: "DHL eCommerce",
  services: DHL_ECOMMERCE_SERVICES,
  apis: ["rate", "label", "manifest", "tracking"],
  domesticZone: uspsZone,
  rateService,
  manifests: dhlEcommerceManifests,
  tracking: DHL_ECOMMERCE_TRACKING,
  // Domestic parcels travel under the USPS IMpb DHL hands them over with; abroad, the GM number.
  issueTrackingNumber(serial, service, request) {
    const { packageId, trackingId } = generateTrackingNumber(serial, { scope: service.scope });
    if (!trackingId) return { trackingNumber: packageId };
    return { trackingNumber: trackingId, barcodeData: impbRoutingBarcodeData(trackingId, request.to.postal_code) };
  },
});
