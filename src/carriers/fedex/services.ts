/**
 * FedEx services and packaging. Sources: FedEx Ship and Rate API enums (`serviceType`,
 * `packagingType`; https://developer.fedex.com/api/en-us/catalog/ship/docs.html), the FedEx
 * packaging guidelines for limits (Express 150 lb / 119 in / 165 in; Ground 150 lb / 108 in /
 * 165 in) and FedEx One Rate, as collected in carrier-facts §3.4 and §4.2. Commitment times and
 * the One Rate weight caps are ⚠ unconfirmed.
 *
 * Service ids: eHub's where known (393 FedEx 2Day); every other FedEx service is 93000 + n, with
 * n 1–49 for domestic and 51–99 for international services, never renumbered or reused.
 */
import type { PackageTypeDefinition, ServiceDefinition } from "../catalogue.js";
import { PARCEL } from "../sandbox/eligibility.js";

const POUND = 16;
/** FedEx boxes and the tube are rated for 20 lb; ⚠ One Rate allows 50 lb, envelopes 10 lb. */
const FEDEX_BOX_MAX_WEIGHT_OZ = 20 * POUND;

/**
 * FedEx-branded packaging on U.S. Express services ships at FedEx One Rate (eHub's OneRate guide
 * picks it through the package type). Envelopes and paks flex, so only boxes have dimensions.
 */
const ONE_RATE_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  { type: "fedex_envelope", name: "FedEx Envelope", flatRate: true, maxWeightOz: 10 * POUND },
  { type: "fedex_pak", name: "FedEx Pak", flatRate: true, maxWeightOz: 50 * POUND },
  {
    type: "fedex_small_box",
    name: "FedEx Small Box",
    flatRate: true,
    maxWeightOz: FEDEX_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 12.25, width: 10.9, height: 1.5 },
  },
  {
    type: "fedex_medium_box",
    name: "FedEx Medium Box",
    flatRate: true,
    maxWeightOz: FEDEX_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 13.25, width: 11.5, height: 2.38 },
  },
  {
    type: "fedex_large_box",
    name: "FedEx Large Box",
    flatRate: true,
    maxWeightOz: FEDEX_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 17.88, width: 12.38, height: 3 },
  },
  {
    type: "fedex_extra_large_box",
    name: "FedEx Extra Large Box",
    flatRate: true,
    maxWeightOz: FEDEX_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 11.88, width: 11, height: 10.75 },
  },
  {
    type: "fedex_tube",
    name: "FedEx Tube",
    flatRate: true,
    maxWeightOz: FEDEX_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 38, width: 6, height: 6 },
  },
];

const FEDEX_DEFAULTS = {
  carrierCode: "fed_ex",
  category: "shipping",
  sortOrder: null,
  maxWeightOz: 150 * POUND,
  maxLengthPlusGirthIn: 165,
  multiParcel: true,
} as const;

const FEDEX_GROUND = { ...FEDEX_DEFAULTS, scope: "domestic", maxLengthIn: 108, deliveryGuaranteed: false } as const;
const FEDEX_EXPRESS = {
  ...FEDEX_DEFAULTS,
  scope: "domestic",
  maxLengthIn: 119,
  addressKind: "any",
  deliveryGuaranteed: true,
} as const;
const FEDEX_INTERNATIONAL = {
  ...FEDEX_DEFAULTS,
  scope: "international",
  maxLengthIn: 108, // ⚠ international Express limits vary by lane
  addressKind: "any",
  deliveryGuaranteed: true,
} as const;

export const FEDEX_SERVICES: readonly ServiceDefinition[] = [
  {
    // FedEx Ground and FedEx Home Delivery split one network by address: business vs residence.
    ...FEDEX_GROUND,
    serviceId: 93001,
    name: "FedEx Ground",
    serviceCode: "fedex_ground",
    packageTypes: [],
    transitDays: { min: 1, max: 5 },
    addressKind: "commercial",
  },
  {
    ...FEDEX_GROUND,
    serviceId: 93002,
    name: "FedEx Home Delivery",
    serviceCode: "fedex_home_delivery",
    packageTypes: [],
    transitDays: { min: 1, max: 5 },
    addressKind: "residential",
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 93003,
    name: "FedEx Express Saver",
    serviceCode: "fedex_express_saver",
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 3, max: 3 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 393,
    name: "FedEx 2Day",
    serviceCode: "fedex_2day",
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 2, max: 2 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 93004,
    name: "FedEx 2Day A.M.",
    serviceCode: "fedex_2day_am",
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 2, max: 2 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 93005,
    name: "FedEx Standard Overnight",
    serviceCode: "fedex_standard_overnight",
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 93006,
    name: "FedEx Priority Overnight",
    serviceCode: "fedex_priority_overnight",
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 93007,
    name: "FedEx First Overnight",
    serviceCode: "fedex_first_overnight",
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
  },
  {
    ...FEDEX_INTERNATIONAL,
    serviceId: 93051,
    name: "FedEx International Priority",
    serviceCode: "fedex_international_priority",
    packageTypes: [],
    transitDays: { min: 1, max: 3 }, // ⚠
  },
  {
    ...FEDEX_INTERNATIONAL,
    serviceId: 93052,
    name: "FedEx International Economy",
    serviceCode: "fedex_international_economy",
    packageTypes: [],
    transitDays: { min: 2, max: 5 }, // ⚠
  },
];
