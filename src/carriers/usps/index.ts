import type { CarrierAdapter } from "../carrier.js";
import { sandboxCarrier } from "../sandbox/sandbox-carrier.js";
import { uspsZone } from "../sandbox/zones.js";
import { uspsManifests } from "./manifest.js";
import { uspsPickups } from "./pickups.js";
import { rateService } from "./rates.js";
import { USPS_SERVICES } from "./services.js";
import { USPS_TRACKING } from "./tracking-events.js";
import { generateTrackingNumber, impbRoutingBarcodeData } from "./tracking-number.js";

/**
 * IMpb service type codes (Pub 199 Appendix: 055 Priority Mail, 701 Priority Mail Express,
 * 612 Parcel Select, 001 Ground Advantage in this sandbox) and S10 service indicators
 * (EZ/EA Priority Mail Express International, CP Priority Mail International, LX First-Class).
 */
const SERVICE_TYPE_CODE: Record<string, string> = {
  usps_priority: "055",
  usps_express: "701",
  usps_parcel_select: "612",
  usps_media_mail: "022",
  usps_library_mail: "023",
  usps_first_class: "001",
};
const S10_INDICATOR: Record<string, string> = {
  usps_intl_express: "EZ",
  usps_intl_priority: "CP",
  usps_intl_first_class_package: "LX",
};

/** USPS: every API, including SCAN-form manifests and carrier pickups. */
export const usps: CarrierAdapter = sandboxCarrier({
  code: "usps",
  displayName: "USPS",
  services: USPS_SERVICES,
  apis: ["rate", "label", "manifest", "tracking", "pickup"],
  domesticZone: uspsZone,
  retailPrices: true,
  rateService,
  manifests: uspsManifests,
  pickups: uspsPickups,
  tracking: USPS_TRACKING,
  issueTrackingNumber(serial, service, request) {
    if (service.scope === "international") {
      return {
        trackingNumber: generateTrackingNumber(serial, {
          scope: "international",
          serviceIndicator: S10_INDICATOR[service.serviceCode] ?? "LX",
        }),
      };
    }
    const trackingNumber = generateTrackingNumber(serial, {
      scope: "domestic",
      serviceTypeCode: SERVICE_TYPE_CODE[service.serviceCode] ?? "001",
    });
    return { trackingNumber, barcodeData: impbRoutingBarcodeData(trackingNumber, request.to.postal_code) };
  },
});
