/**
 * DHL Express products and packaging. Sources: MyDHL API global product codes (in the comments)
 * and DHL packaging presets as mirrored by karrio's `dhl_express/units.py`
 * (https://github.com/karrioapi/karrio), time-definite products per
 * https://www.dhl.com/us-en/home/express/shipping-and-stuff/services.html. ⚠ The limits (70 kg,
 * 120 × 80 × 80 cm per piece) are karrio's
 * configuration, not confirmed from DHL.
 *
 * DHL Express carries no U.S. domestic shipments, so every service is international. Service ids,
 * codes and names are eHub's (its `GET /services`): the 281–312 series answers rates; each
 * product's non-document listing and its 924–927 listing are accepted as other listings.
 */
import { listing, type PackageTypeDefinition, type ServiceDefinition } from "../catalogue.js";
import { PARCEL } from "../sandbox/eligibility.js";

const POUND = 16;

/** Envelopes and flyers flex, so they carry weight caps (0.5, 2 and 3 kg, in ounces) but no fixed dimensions. */
const DHL_EXPRESS_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  { type: "envelope", name: "DHL Express Envelope", listedName: "Envelope", maxWeightOz: 17.6 },
  { type: "flyer", name: "DHL Standard Flyer", listedName: "DHLFlyer", maxWeightOz: 70.5 },
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
    serviceId: 300,
    serviceCode: "express_worldwide",
    listedName: "ExpressWorldwide",
    name: "DHL Express Worldwide", // product P
    otherListings: [
      listing(304, "express_worldwide_non_doc", "ExpressWorldwideNonDoc"),
      listing(924, "dhl_express", "DHL Worldwide Priority Express"),
    ],
    packageTypes: DHL_EXPRESS_PACKAGE_TYPES,
    transitDays: { min: 1, max: 4 }, // ⚠ end of the business day, by lane
  },
  {
    ...DHL_EXPRESS_DEFAULTS,
    serviceId: 294,
    serviceCode: "express1200",
    listedName: "Express1200",
    name: "DHL Express 12:00", // product Y
    otherListings: [
      listing(293, "express1200_non_doc", "Express1200NonDoc"),
      listing(926, "express1200", "DHL Express 12:00"),
    ],
    packageTypes: DHL_EXPRESS_PACKAGE_TYPES,
    transitDays: { min: 1, max: 3 }, // ⚠
  },
  {
    ...DHL_EXPRESS_DEFAULTS,
    serviceId: 295,
    serviceCode: "express900",
    listedName: "Express900",
    name: "DHL Express 9:00", // product E
    otherListings: [
      listing(296, "express900_non_doc", "Express900NonDoc"),
      listing(925, "express900", "DHL Express 9:00"),
    ],
    packageTypes: DHL_EXPRESS_PACKAGE_TYPES,
    transitDays: { min: 1, max: 3 }, // ⚠
  },
];
