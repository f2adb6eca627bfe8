/**
 * DHL Express products and packaging. Sources: MyDHL API global product codes (in the comments)
 * and DHL packaging presets as mirrored by karrio's `dhl_express/units.py`
 * (https://github.com/karrioapi/karrio), time-definite products per
 * https://www.dhl.com/us-en/home/express/shipping-and-stuff/services.html, as collected in
 * carrier-facts §3.6 and §4.4. ⚠ The limits (70 kg, 120 × 80 × 80 cm per piece) are karrio's
 * configuration, not confirmed from DHL.
 *
 * DHL Express carries no U.S. domestic shipments, so every service is international. Service ids:
 * every DHL Express service is 95000 + n, with n 1–49 for domestic and 51–99 for international
 * services, never renumbered or reused.
 */
import type { PackageTypeDefinition, ServiceDefinition } from "../catalogue.js";
import { PARCEL } from "../sandbox/eligibility.js";

const POUND = 16;

/** Envelopes and flyers flex, so they carry weight caps (0.5, 2 and 3 kg, in ounces) but no fixed dimensions. */
const DHL_EXPRESS_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  { type: "dhl_express_envelope", name: "DHL Express Envelope", maxWeightOz: 17.6 },
  { type: "dhl_flyer", name: "DHL Standard Flyer", maxWeightOz: 70.5 },
  { type: "dhl_large_flyer", name: "DHL Large Flyer", maxWeightOz: 105.8 },
];

const DHL_EXPRESS_DEFAULTS = {
  carrierCode: "dhl_express",
  category: "shipping",
  scope: "international",
  sortOrder: null,
  // 70 kg, 120 cm and a 120 × 80 × 80 cm piece, rounded down to U.S. units.
  maxWeightOz: 154 * POUND,
  maxLengthIn: 47,
  maxLengthPlusGirthIn: 173,
  addressKind: "any",
  deliveryGuaranteed: true,
  multiParcel: true,
} as const;

export const DHL_EXPRESS_SERVICES: readonly ServiceDefinition[] = [
  {
    ...DHL_EXPRESS_DEFAULTS,
    serviceId: 95051,
    name: "DHL Express Worldwide", // product P
    serviceCode: "dhl_express_worldwide",
    packageTypes: DHL_EXPRESS_PACKAGE_TYPES,
    transitDays: { min: 1, max: 4 }, // ⚠ end of the business day, by lane
  },
  {
    ...DHL_EXPRESS_DEFAULTS,
    serviceId: 95052,
    name: "DHL Express 12:00", // product Y
    serviceCode: "dhl_express_1200",
    packageTypes: DHL_EXPRESS_PACKAGE_TYPES,
    transitDays: { min: 1, max: 3 }, // ⚠
  },
  {
    ...DHL_EXPRESS_DEFAULTS,
    serviceId: 95053,
    name: "DHL Express 9:00", // product E
    serviceCode: "dhl_express_900",
    packageTypes: DHL_EXPRESS_PACKAGE_TYPES,
    transitDays: { min: 1, max: 3 }, // ⚠
  },
];
