import type { CarrierAdapter } from "../carrier.js";
import { sandboxCarrier } from "../sandbox/sandbox-carrier.js";
import { groundZone } from "../sandbox/zones.js";
import { dhlExpressSandboxPickups } from "./pickups.js";
import { rateService } from "./rates.js";
import { DHL_EXPRESS_SERVICES } from "./services.js";
import { DHL_EXPRESS_TRACKING } from "./tracking-events.js";
import { generateTrackingNumber } from "./tracking-number.js";

export const dhlExpress: CarrierAdapter = sandboxCarrier({
  code: "dhl_express",
  displayName: "DHL Express",
  services: DHL_EXPRESS_SERVICES,
  apis: ["rate", "label", "tracking", "pickup"],
  pickups: dhlExpressSandboxPickups,
  domesticZone: groundZone,
  rateService,
  tracking: DHL_EXPRESS_TRACKING,
  issueTrackingNumber: (serial) => ({ trackingNumber: generateTrackingNumber(serial) }),
});
