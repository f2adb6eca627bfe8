/**
 * USPS services and packaging. Sources: USPS Domestic and International Labels API v3
 * (https://developers.usps.com/domesticlabelsv3, https://developers.usps.com/internationallabelsv3)
 * for mail classes and Flat Rate packaging; https://www.usps.com/international/ and DMM/IMM for
 * limits, as collected in carrier-facts §3.1, §3.2 and §4.1. ⚠ marks values that were not confirmed.
 *
 * Service ids: eHub's where known (1172, 686, 683); every other USPS service is 91000 + n, with
 * n 1–49 for domestic and 51–99 for international services, never renumbered or reused.
 */
import type { PackageTypeDefinition, ServiceDefinition } from "../catalogue.js";
import { PARCEL } from "../sandbox/eligibility.js";

const POUND = 16;
/** USPS caps length only through length plus girth, so the longest side may use the whole allowance. */
const GROUND_LENGTH_PLUS_GIRTH_IN = 130;
const PRIORITY_LENGTH_PLUS_GIRTH_IN = 108;

// Envelopes flex, so only boxes carry fixed dimensions; the Medium box comes in two shapes.
const PRIORITY_MAIL_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  { type: "softpack", name: "Priority Mail Cubic Soft Pack", maxWeightOz: 20 * POUND },
  { type: "flat_rate_envelope", name: "Priority Mail Flat Rate Envelope", flatRate: true },
  { type: "legal_flat_rate_envelope", name: "Priority Mail Legal Flat Rate Envelope", flatRate: true },
  { type: "padded_flat_rate_envelope", name: "Priority Mail Padded Flat Rate Envelope", flatRate: true },
  {
    type: "small_flat_rate_box",
    name: "Priority Mail Small Flat Rate Box",
    flatRate: true,
    dimensionsIn: { length: 8.6875, width: 5.4375, height: 1.75 },
  },
  { type: "medium_flat_rate_box", name: "Priority Mail Medium Flat Rate Box", flatRate: true },
  {
    type: "large_flat_rate_box",
    name: "Priority Mail Large Flat Rate Box",
    flatRate: true,
    dimensionsIn: { length: 12.25, width: 12.25, height: 6 },
  },
  {
    type: "large_flat_rate_box_apo_fpo",
    name: "Priority Mail Large Flat Rate Box APO/FPO/DPO",
    flatRate: true,
    dimensionsIn: { length: 12.25, width: 12.25, height: 6 },
  },
];

const PRIORITY_MAIL_EXPRESS_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  { type: "flat_rate_envelope", name: "Priority Mail Express Flat Rate Envelope", flatRate: true },
  { type: "legal_flat_rate_envelope", name: "Priority Mail Express Legal Flat Rate Envelope", flatRate: true },
  { type: "padded_flat_rate_envelope", name: "Priority Mail Express Padded Flat Rate Envelope", flatRate: true },
];

// First-Class Mail: letters up to 11-1/2 × 6-1/8 × 1/4 in and 3.5 oz; flats up to 15 × 12 × 3/4 in and 13 oz (DMM 101).
const FIRST_CLASS_MAIL_PACKAGE_TYPES: PackageTypeDefinition[] = [
  { type: "letter", name: "Letter", maxWeightOz: 3.5, dimensionsIn: { length: 11.5, width: 6.125, height: 0.25 } },
  { type: "large_envelope", name: "Large Envelope", dimensionsIn: { length: 15, width: 12, height: 0.75 } },
];

// The 4-lb cap on envelopes and the Small box is USPS's; the 20-lb cap on Medium/Large boxes is ⚠.
const PRIORITY_MAIL_INTERNATIONAL_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  {
    type: "flat_rate_envelope",
    name: "Priority Mail International Flat Rate Envelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "legal_flat_rate_envelope",
    name: "Priority Mail International Legal Flat Rate Envelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "padded_flat_rate_envelope",
    name: "Priority Mail International Padded Flat Rate Envelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "small_flat_rate_box",
    name: "Priority Mail International Small Flat Rate Box",
    flatRate: true,
    maxWeightOz: 4 * POUND,
    dimensionsIn: { length: 8.6875, width: 5.4375, height: 1.75 },
  },
  {
    type: "medium_flat_rate_box",
    name: "Priority Mail International Medium Flat Rate Box",
    flatRate: true,
    maxWeightOz: 20 * POUND,
  },
  {
    type: "large_flat_rate_box",
    name: "Priority Mail International Large Flat Rate Box",
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
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "legal_flat_rate_envelope",
    name: "Priority Mail Express International Legal Flat Rate Envelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
  {
    type: "padded_flat_rate_envelope",
    name: "Priority Mail Express International Padded Flat Rate Envelope",
    flatRate: true,
    maxWeightOz: 4 * POUND,
  },
];

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
    name: "USPS Ground Advantage",
    serviceCode: "usps_ground_advantage",
    scope: "domestic",
    packageTypes: [],
    deliveryGuaranteed: false,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 91001,
    name: "USPS Priority Mail",
    serviceCode: "usps_priority",
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
    serviceId: 91002,
    name: "USPS Priority Mail Express",
    serviceCode: "usps_priority_express",
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
    name: "USPS Parcel Select",
    serviceCode: "usps_parcel_select",
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
    name: "USPS First-Class Mail",
    serviceCode: "usps_first_class",
    scope: "domestic",
    packageTypes: FIRST_CLASS_MAIL_PACKAGE_TYPES,
    maxWeightOz: 13,
    maxLengthIn: 15,
    maxLengthPlusGirthIn: 40.5, // the largest flat, 15 × 12 × 3/4 in
    transitDays: { min: 1, max: 5 },
    deliveryGuaranteed: false,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 91003,
    name: "USPS Media Mail",
    serviceCode: "usps_media_mail",
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
    serviceId: 91004,
    name: "USPS Library Mail",
    serviceCode: "usps_library_mail",
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
    name: "USPS Ground Advantage Global Direct Entry",
    serviceCode: "usps_ground_advantage_gde",
    scope: "domestic",
    packageTypes: [],
    deliveryGuaranteed: false,
    gde: true,
  },
  {
    ...USPS_DEFAULTS,
    serviceId: 91051,
    name: "USPS First-Class Package International Service",
    serviceCode: "usps_first_class_international",
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
    serviceId: 91052,
    name: "USPS Priority Mail International",
    serviceCode: "usps_priority_international",
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
    serviceId: 91053,
    name: "USPS Priority Mail Express International",
    serviceCode: "usps_priority_express_international",
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
