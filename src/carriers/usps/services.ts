/**
 * USPS services and packaging. Sources: USPS Domestic and International Labels API v3
 * (https://developers.usps.com/domesticlabelsv3, https://developers.usps.com/internationallabelsv3)
 * for mail classes and Flat Rate packaging; https://www.usps.com/international/ and DMM/IMM for
 * limits. ⚠ marks values that were not confirmed.
 *
 * Service ids, codes and names are eHub's (its `GET /services`): the series a real account is rated
 * under (684–692, 1172–1174; 683 First-Class Mail) answers rates, the other series are accepted as
 * other listings. Package types carry eHub's type and name where eHub lists them. Services eHub
 * lacks (Global Direct Entry) have ids of their own from 91000, never renumbered or reused.
 *
 * Every other id eHub lists for USPS is accepted too. Retired products (Standard Post, First-Class
 * Package Service and its return service) and the few Porter does not sell are listed under the
 * service USPS sells in their place, which a shipment under their id buys, with a warning naming it.
 */
import { listing, type PackageTypeDefinition, retiredListing, type ServiceDefinition } from "../catalogue.js";
import { PARCEL } from "../sandbox/eligibility.js";

const POUND = 16;
/** USPS caps length only through length plus girth, so the longest side may use the whole allowance. */
const GROUND_LENGTH_PLUS_GIRTH_IN = 130;
const PRIORITY_LENGTH_PLUS_GIRTH_IN = 108;

// Envelopes flex, so only boxes carry fixed dimensions; the Medium box comes in two shapes.
const PRIORITY_MAIL_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  { type: "softpack", name: "Priority Mail Cubic Soft Pack", listedName: "Softpack", maxWeightOz: 20 * POUND },
  {
    type: "flat_rate_envelope",
    name: "Priority Mail Flat Rate Envelope",
    listedName: "FlatRateEnvelope",
    flatRate: true,
  },
  {
    type: "flat_rate_legal_envelope",
    name: "Priority Mail Legal Flat Rate Envelope",
    listedName: "FlatRateLegalEnvelope",
    flatRate: true,
  },
  {
    type: "flat_rate_padded_envelope",
    name: "Priority Mail Padded Flat Rate Envelope",
    listedName: "FlatRatePaddedEnvelope",
    flatRate: true,
  },
  {
    type: "small_flat_rate_box",
    name: "Priority Mail Small Flat Rate Box",
    listedName: "SmallFlatRateBox",
    flatRate: true,
    dimensionsIn: { length: 8.6875, width: 5.4375, height: 1.75 },
  },
  {
    type: "medium_flat_rate_box",
    name: "Priority Mail Medium Flat Rate Box",
    listedName: "MediumFlatRateBox",
    flatRate: true,
  },
  {
    type: "large_flat_rate_box",
    name: "Priority Mail Large Flat Rate Box",
    listedName: "LargeFlatRateBox",
    flatRate: true,
    dimensionsIn: { length: 12.25, width: 12.25, height: 6 },
  },
  {
    type: "military_flat_rate_box",
    name: "Priority Mail Large Flat Rate Box APO/FPO/DPO",
    listedName: "MilitaryFlatRateBox",
    flatRate: true,
    dimensionsIn: { length: 12.25, width: 12.25, height: 6 },
  },
];

const PRIORITY_MAIL_EXPRESS_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  {
    type: "flat_rate_envelope",
    name: "Priority Mail Express Flat Rate Envelope",
    listedName: "FlatRateEnvelope",
    flatRate: true,
  },
  {
    type: "flat_rate_legal_envelope",
    name: "Priority Mail Express Legal Flat Rate Envelope",
    listedName: "FlatRateLegalEnvelope",
    flatRate: true,
  },
  {
    type: "flat_rate_padded_envelope",
    name: "Priority Mail Express Padded Flat Rate Envelope",
    listedName: "FlatRatePaddedEnvelope",
    flatRate: true,
  },
];

// First-Class Mail: letters up to 11-1/2 × 6-1/8 × 1/4 in and 3.5 oz; flats up to 15 × 12 × 3/4 in and 13 oz (DMM 101).
const FIRST_CLASS_MAIL_PACKAGE_TYPES: PackageTypeDefinition[] = [
  {
    type: "letter",
    name: "Letter",
    listedName: "Letter",
    maxWeightOz: 3.5,
    dimensionsIn: { length: 11.5, width: 6.125, height: 0.25 },
  },
  {
    type: "large_envelope",
    name: "Large Envelope",
    listedName: "LargeEnvelope",
    dimensionsIn: { length: 15, width: 12, height: 0.75 },
  },
];

// The 4-lb cap on envelopes and the Small box is USPS's; the 20-lb cap on Medium/Large boxes is ⚠.
const PRIORITY_MAIL_INTERNATIONAL_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  {
    type: "flat_rate_envelope",
    name: "Priority Mail International Flat Rate Envelope",
    listedName: "FlatRateEnvelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "flat_rate_legal_envelope",
    name: "Priority Mail International Legal Flat Rate Envelope",
    listedName: "FlatRateLegalEnvelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "flat_rate_padded_envelope",
    name: "Priority Mail International Padded Flat Rate Envelope",
    listedName: "FlatRatePaddedEnvelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "small_flat_rate_box",
    name: "Priority Mail International Small Flat Rate Box",
    listedName: "SmallFlatRateBox",
    flatRate: true,
    maxWeightOz: 4 * POUND,
    dimensionsIn: { length: 8.6875, width: 5.4375, height: 1.75 },
  },
  {
    type: "medium_flat_rate_box",
    name: "Priority Mail International Medium Flat Rate Box",
    listedName: "MediumFlatRateBox",
    flatRate: true,
    maxWeightOz: 20 * POUND,
  },
  {
    type: "large_flat_rate_box",
    name: "Priority Mail International Large Flat Rate Box",
    listedName: "LargeFlatRateBox",
    flatRate: true,
    maxWeightOz: 20 * POUND,
    dimensionsIn: { length: 12.25, width: 12.25, height: 6 },
  },
];

const PRIORITY_MAIL_EXPRESS_INTERNATIONAL_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  {
    type: "flat_rate_envelope",
    name: "Priority Mail Express International Flat Rate Envelope",
    listedName: "FlatRateEnvelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "flat_rate_legal_envelope",
    name: "Priority Mail Express International Legal Flat Rate Envelope",
    listedName: "FlatRateLegalEnvelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "flat_rate_padded_envelope",
    name: "Priority Mail Express International Padded Flat Rate Envelope",
    listedName: "FlatRatePaddedEnvelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
];

/** The warning of a listing sold as USPS Ground Advantage: why, then what the client bought. */
function soldAsGroundAdvantage(why: string): string {
  return `${why}: sold as USPS Ground Advantage (1172).`;
}

const FIRST_CLASS_INTERNATIONAL =
  "USPS First-Class Mail International letters and flats are not sold by Porter: sold as USPS First-Class Package International Service (690).";

const USPS_DEFAULTS = {
  carrierCode: "usps",
  category: "shipping",
  sortOrder: null,
  addressKind: "any",
  multiParcel: false,
} as const;

const GROUND_ADVANTAGE_LIMITS = {
  maxWeightOz: 70 * POUND,
  maxLengthIn: GROUND_LENGTH_PLUS_GIRTH_IN,
  maxLengthPlusGirthIn: GROUND_LENGTH_PLUS_GIRTH_IN,
  transitDays: { min: 2, max: 5 },
} as const;

export const USPS_SERVICES: readonly ServiceDefinition[] = [
  {
    ...USPS_DEFAULTS,
    ...GROUND_ADVANTAGE_LIMITS,
    serviceId: 1172,
    serviceCode: "usps_ground_advantage",
    listedName: "USPS Ground Advantage",
    name: "USPS Ground Advantage",
    otherListings: [
      listing(1175, "usps_ground_advantage", "Ground Advantage"),
      // eHub splits Ground Advantage by weight; USPS sells one product.
      listing(1173, "usps_ground_advantage_under_1lb", "USPS Ground Advantage Under 1LB"),
      listing(1174, "usps_ground_advantage_over_1lb", "USPS Ground Advantage Over 1LB"),
      listing(1176, "usps_ground_advantage_under_1lb", "Ground Advantage Under 1LB"),
      listing(1177, "usps_ground_advantage_over_1lb", "Ground Advantage Over 1LB"),
      retiredListing(
        160,
        "usps_standard_post",
        "Standard Post",
        soldAsGroundAdvantage("USPS Standard Post (160) is retired"),
      ),
      retiredListing(
        1039,
        "usps_first_class_return",
        "USPS First Class Return",
        soldAsGroundAdvantage("USPS First-Class Package Return Service (1039) is retired"),
      ),
      retiredListing(
        788,
        "usps_bound_print_matter",
        "BPM",
        soldAsGroundAdvantage("USPS Bound Printed Matter (788) is not sold by Porter"),
      ),
    ],
    scope: "domestic",
    packageTypes: [],
    deliveryGuaranteed: false,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 684,
    serviceCode: "usps_priority",
    listedName: "Priority Mail",
    name: "USPS Priority Mail",
    otherListings: [
      listing(158, "usps_priority", "Priority Mail"),
      listing(984, "usps_priority", "Priority Mail"),
      retiredListing(
        1038,
        "usps_priority_return",
        "USPS Priority Mail Return",
        "USPS Priority Mail Return Service (1038) is not sold by Porter: sold as an ordinary USPS Priority Mail label (684) between the addresses given.",
      ),
    ],
    scope: "domestic",
    packageTypes: PRIORITY_MAIL_PACKAGE_TYPES,
    maxWeightOz: 70 * POUND,
    maxLengthIn: PRIORITY_LENGTH_PLUS_GIRTH_IN,
    maxLengthPlusGirthIn: PRIORITY_LENGTH_PLUS_GIRTH_IN,
    transitDays: { min: 1, max: 3 },
    deliveryGuaranteed: false,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 685,
    serviceCode: "usps_express",
    listedName: "Priority Mail Express",
    name: "USPS Priority Mail Express",
    otherListings: [
      listing(161, "usps_express", "Priority Mail Express"),
      listing(985, "usps_express", "Priority Mail Express"),
    ],
    scope: "domestic",
    packageTypes: PRIORITY_MAIL_EXPRESS_PACKAGE_TYPES,
    maxWeightOz: 70 * POUND,
    maxLengthIn: PRIORITY_LENGTH_PLUS_GIRTH_IN,
    maxLengthPlusGirthIn: PRIORITY_LENGTH_PLUS_GIRTH_IN,
    transitDays: { min: 1, max: 2 },
    deliveryGuaranteed: true,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 686,
    serviceCode: "usps_parcel_select",
    listedName: "Parcel Select",
    name: "USPS Parcel Select",
    otherListings: [
      listing(166, "usps_parcel_select", "Parcel Select"),
      listing(787, "usps_parcel_select", "Parcel Select Ground"),
      listing(986, "usps_parcel_select", "Parcel Select"),
      retiredListing(
        1040,
        "usps_parcel_select_return",
        "USPS Parcel Select Return",
        "USPS Parcel Select Return Service (1040) is not sold by Porter: sold as an ordinary USPS Parcel Select label (686) between the addresses given.",
      ),
    ],
    scope: "domestic",
    packageTypes: [],
    maxWeightOz: 70 * POUND,
    maxLengthIn: GROUND_LENGTH_PLUS_GIRTH_IN,
    maxLengthPlusGirthIn: GROUND_LENGTH_PLUS_GIRTH_IN,
    transitDays: { min: 2, max: 8 }, // ⚠ depends on the destination entry facility
    deliveryGuaranteed: false,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 683,
    serviceCode: "usps_first_class",
    listedName: "First Class Mail",
    name: "USPS First-Class Mail",
    otherListings: [
      listing(157, "usps_first_class", "First Class Mail"),
      listing(784, "usps_first_class", "First Class Mail"),
      listing(983, "usps_first_class", "First Class Mail"),
    ],
    scope: "domestic",
    packageTypes: FIRST_CLASS_MAIL_PACKAGE_TYPES,
    maxWeightOz: 13,
    maxLengthIn: 15,
    // First-Class Package Service parcels went to Ground Advantage in July 2023; eHub kept selling them under 683.
    parcelsSoldAs: {
      serviceId: 1172,
      packageTypes: ["parcel"],
      maxWeightOz: 15.99,
      warning: soldAsGroundAdvantage("USPS First-Class Package Service is retired"),
    },
    maxLengthPlusGirthIn: 40.5, // the largest flat, 15 × 12 × 3/4 in
    transitDays: { min: 1, max: 5 },
    deliveryGuaranteed: false,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 688,
    serviceCode: "usps_media_mail",
    listedName: "Media Mail",
    name: "USPS Media Mail",
    otherListings: [
      listing(159, "usps_media_mail", "Media Mail"),
      listing(786, "usps_media_mail", "Media"),
      listing(987, "usps_media_mail", "Media Mail"),
    ],
    scope: "domestic",
    packageTypes: [],
    maxWeightOz: 70 * POUND,
    maxLengthIn: PRIORITY_LENGTH_PLUS_GIRTH_IN,
    maxLengthPlusGirthIn: PRIORITY_LENGTH_PLUS_GIRTH_IN,
    transitDays: { min: 2, max: 8 },
    deliveryGuaranteed: false,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 687,
    serviceCode: "usps_library_mail",
    listedName: "Library Mail",
    name: "USPS Library Mail",
    otherListings: [
      listing(162, "usps_library_mail", "Library Mail"),
      listing(785, "usps_library_mail", "Library"),
      listing(988, "usps_library_mail", "Library Mail"),
    ],
    scope: "domestic",
    packageTypes: [],
    maxWeightOz: 70 * POUND,
    maxLengthIn: PRIORITY_LENGTH_PLUS_GIRTH_IN,
    maxLengthPlusGirthIn: PRIORITY_LENGTH_PLUS_GIRTH_IN,
    transitDays: { min: 2, max: 8 }, // ⚠
    deliveryGuaranteed: false,
  },
  {
    // Parcels a foreign partner inducts into USPS for delivery in the US (Labels API extra service
    // 365 "Global Direct Entry"); the partner may post its own pre-induction events (80–82).
    ...USPS_DEFAULTS,
    ...GROUND_ADVANTAGE_LIMITS,
    serviceId: 91005,
    serviceCode: "usps_ground_advantage_gde",
    listedName: "USPS Ground Advantage Global Direct Entry",
    name: "USPS Ground Advantage Global Direct Entry",
    otherListings: [],
    scope: "domestic",
    packageTypes: [],
    deliveryGuaranteed: false,
    gde: true,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 690,
    serviceCode: "usps_intl_first_class_package",
    listedName: "First Class Package International Service",
    name: "USPS First-Class Package International Service",
    otherListings: [
      listing(167, "usps_intl_first_class_package", "First Class Package International Service"),
      listing(791, "usps_intl_first_class_package", "First Class Mail International"),
      listing(991, "usps_intl_first_class_package", "First Class Package International Service"),
      retiredListing(165, "usps_intl_first_class", "First Class International", FIRST_CLASS_INTERNATIONAL),
      retiredListing(689, "usps_intl_first_class", "First Class International", FIRST_CLASS_INTERNATIONAL),
    ],
    scope: "international",
    packageTypes: [],
    maxWeightOz: 4 * POUND,
    maxLengthIn: 24,
    // USPS limits length + width + height to 36 in (checked in rates.ts); that bounds length plus girth at 60 in.
    maxLengthPlusGirthIn: 60,
    transitDays: { min: 7, max: 21 }, // ⚠ "varies" by country
    deliveryGuaranteed: false,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 691,
    serviceCode: "usps_intl_priority",
    listedName: "Priority Mail International",
    name: "USPS Priority Mail International",
    otherListings: [
      listing(164, "usps_intl_priority", "Priority Mail International"),
      listing(790, "usps_intl_priority", "Priority Mail International"),
      listing(990, "usps_intl_priority", "Priority Mail International"),
    ],
    scope: "international",
    packageTypes: PRIORITY_MAIL_INTERNATIONAL_PACKAGE_TYPES,
    maxWeightOz: 70 * POUND, // country limits may be lower
    maxLengthIn: 79, // ⚠ most countries
    maxLengthPlusGirthIn: 108,
    transitDays: { min: 6, max: 10 },
    deliveryGuaranteed: false,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 692,
    serviceCode: "usps_intl_express",
    listedName: "Express Mail International",
    name: "USPS Priority Mail Express International",
    otherListings: [
      listing(163, "usps_intl_express", "Express Mail International"),
      listing(789, "usps_intl_express", "Priority Mail Express International"),
      listing(989, "usps_intl_express", "Express Mail International"),
    ],
    scope: "international",
    packageTypes: PRIORITY_MAIL_EXPRESS_INTERNATIONAL_PACKAGE_TYPES,
    maxWeightOz: 70 * POUND, // country limits may be lower
    maxLengthIn: 60, // ⚠ most countries
    maxLengthPlusGirthIn: 108,
    transitDays: { min: 3, max: 5 },
    // The money-back guarantee covers only some destination countries, so it is not promised here.
    deliveryGuaranteed: false,
  },
];
