/**
 * FedEx services and packaging. Sources: FedEx Ship and Rate API enums (`serviceType`,
 * `packagingType`; https://developer.fedex.com/api/en-us/catalog/ship/docs.html), the FedEx
 * packaging guidelines for limits (Express 150 lb / 119 in / 165 in; Ground 150 lb / 108 in /
 * 165 in) and FedEx One Rate. Commitment times and
 * the One Rate weight caps are ⚠ unconfirmed.
 *
 * Service ids, codes and names are eHub's (its `GET /services`): the 392–402 series answers rates,
 * the 744–756 series is accepted as other listings (Home Delivery's under the code `fedex_home`).
 * Package types carry eHub's type and name.
 */
import { listing, type PackageTypeDefinition, retiredListing, type ServiceDefinition } from "../catalogue.js";
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
    type: "fedex_box_small",
    name: "FedEx Small Box",
    flatRate: true,
    maxWeightOz: FEDEX_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 12.25, width: 10.9, height: 1.5 },
  },
  {
    type: "fedex_box_medium",
    name: "FedEx Medium Box",
    flatRate: true,
    maxWeightOz: FEDEX_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 13.25, width: 11.5, height: 2.38 },
  },
  {
    type: "fedex_box_large",
    name: "FedEx Large Box",
    flatRate: true,
    maxWeightOz: FEDEX_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 17.88, width: 12.38, height: 3 },
  },
  {
    type: "fedex_box_extra_large",
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

/**
 * The warning of a listing of a FedEx product Porter does not sell (freight, International First,
 * International Ground and Connect Plus): sold as the nearest parcel service, up to its 150 lb.
 */
function notSold(product: string, soldAs: string): string {
  return `${product} is not sold by Porter: sold as ${soldAs}.`;
}

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
    serviceId: 392,
    serviceCode: "fedex_ground",
    listedName: "FEDEX_GROUND",
    name: "FedEx Ground",
    otherListings: [listing(754, "fedex_ground", "FedEx Ground")],
    packageTypes: [],
    transitDays: { min: 1, max: 5 },
    addressKind: "commercial",
  },
  {
    ...FEDEX_GROUND,
    serviceId: 402,
    serviceCode: "fedex_ground_home",
    listedName: "GROUND_HOME_DELIVERY",
    name: "FedEx Home Delivery",
    otherListings: [listing(753, "fedex_home", "FedEx Home Delivery")],
    packageTypes: [],
    transitDays: { min: 1, max: 5 },
    addressKind: "residential",
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 395,
    serviceCode: "fedex_express_saver",
    listedName: "FEDEX_EXPRESS_SAVER",
    name: "FedEx Express Saver",
    otherListings: [
      listing(748, "fedex_express_saver", "FedEx Express Saver"),
      retiredListing(
        752,
        "fedex_freight_3day",
        "FedEx 3Day Freight",
        notSold("FedEx 3Day Freight (752)", "FedEx Express Saver (395)"),
      ),
    ],
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 3, max: 3 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 393,
    serviceCode: "fedex_2day",
    listedName: "FEDEX_2_DAY",
    name: "FedEx 2Day",
    otherListings: [
      listing(745, "fedex_2day", "FedEx 2Day"),
      retiredListing(
        751,
        "fedex_freight_2day",
        "FedEx 2Day Freight",
        notSold("FedEx 2Day Freight (751)", "FedEx 2Day (393)"),
      ),
    ],
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 2, max: 2 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 394,
    serviceCode: "fedex_2day_am",
    listedName: "FEDEX_2_DAY_AM",
    name: "FedEx 2Day A.M.",
    otherListings: [listing(749, "fedex_2day_am", "FedEx 2Day A.M.")],
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 2, max: 2 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 396,
    serviceCode: "fedex_overnight_standard",
    listedName: "STANDARD_OVERNIGHT",
    name: "FedEx Standard Overnight",
    otherListings: [listing(746, "fedex_overnight_standard", "FedEx Standard Overnight")],
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 398,
    serviceCode: "fedex_overnight_priority",
    listedName: "PRIORITY_OVERNIGHT",
    name: "FedEx Priority Overnight",
    otherListings: [
      listing(744, "fedex_overnight_priority", "FedEx Priority Overnight"),
      retiredListing(
        750,
        "fedex_freight_1day",
        "FedEx 1Day Freight",
        notSold("FedEx 1Day Freight (750)", "FedEx Priority Overnight (398)"),
      ),
    ],
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
  },
  {
    ...FEDEX_EXPRESS,
    serviceId: 397,
    serviceCode: "fedex_overnight_1st",
    listedName: "FIRST_OVERNIGHT",
    name: "FedEx First Overnight",
    otherListings: [listing(747, "fedex_overnight_1st", "FedEx First Overnight")],
    packageTypes: ONE_RATE_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
  },
  {
    ...FEDEX_INTERNATIONAL,
    serviceId: 401,
    serviceCode: "fedex_intl_priority",
    listedName: "INTERNATIONAL_PRIORITY",
    name: "FedEx International Priority",
    otherListings: [
      listing(755, "fedex_intl_priority", "FedEx International Priority"),
      retiredListing(
        400,
        "fedex_intl_first",
        "INTERNATIONAL_FIRST",
        notSold("FedEx International First (400)", "FedEx International Priority (401)"),
      ),
      retiredListing(
        757,
        "fedex_intl_first",
        "FedEx International First",
        notSold("FedEx International First (757)", "FedEx International Priority (401)"),
      ),
    ],
    packageTypes: [],
    transitDays: { min: 1, max: 3 }, // ⚠
  },
  {
    ...FEDEX_INTERNATIONAL,
    serviceId: 399,
    serviceCode: "fedex_intl_economy",
    listedName: "INTERNATIONAL_ECONOMY",
    name: "FedEx International Economy",
    otherListings: [
      listing(756, "fedex_intl_economy", "FedEx International Economy"),
      retiredListing(
        758,
        "fedex_intl_home",
        "FedEx Intl Home Delivery",
        notSold("FedEx International Home Delivery (758)", "FedEx International Economy (399)"),
      ),
      retiredListing(
        759,
        "fedex_intl_ground",
        "FedEx Intl Ground",
        notSold("FedEx International Ground (759)", "FedEx International Economy (399)"),
      ),
      retiredListing(
        1192,
        "fedex_int_connect_plus",
        "FeDex International Connect Plus",
        notSold("FedEx International Connect Plus (1192)", "FedEx International Economy (399)"),
      ),
    ],
    packageTypes: [],
    transitDays: { min: 2, max: 5 }, // ⚠
  },
];
