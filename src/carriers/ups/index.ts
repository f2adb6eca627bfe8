import type { CarrierAdapter } from "../carrier.js";
import { sandboxCarrier } from "../sandbox/sandbox-carrier.js";
import { groundZone } from "../sandbox/zones.js";
import { upsSandboxPickups } from "./pickups.js";
import { rateService } from "./rates.js";
import { UPS_SERVICES } from "./services.js";
import { UPS_TRACKING } from "./tracking-events.js";
import { generateTrackingNumber } from "./tracking-number.js";

const SANDBOX_SHIPPER_ACCOUNT = "8Y6X57";
/** The two characters inside a 1Z number that name the service (01 Next Day Air, 03 Ground …). */
const SERVICE_CODE_IN_NUMBER: Record<string, string> = {
  ups_ground: "03",
  ups_3day_select: "12",
  ups_2nd_day: "02",
  ups_2nd_day_am: "59",
  ups_next_day_saver: "13",
  ups_next_day: "01",
  ups_next_day_am: "14",
  ups_express: "07",
  ups_express_plus: "54",
  ups_saver: "65",
  ups_expedited: "08",
  ups_standard: "11",
};

/** UPS has no manifest (end-of-day close-out happens at the carrier). */
export const ups: CarrierAdapter = sandboxCarrier({
  code: "ups",
  displayName: "UPS",
  services: UPS_SERVICES,
  apis: ["rate", "label", "tracking", "pickup"],
  pickups: upsSandboxPickups,
  domesticZone: groundZone,
  rateService,
  tracking: UPS_TRACKING,
  issueTrackingNumber: (serial, service) => ({
    trackingNumber: generateTrackingNumber(serial, {
      shipperAccount: SANDBOX_SHIPPER_ACCOUNT,
      serviceCode: SERVICE_CODE_IN_NUMBER[service.serviceCode] ?? "03",
    }),
  }),
});
