/**
 * DHL eCommerce (Americas) products. Source: DHL developer portal, product references
 * (https://developer.dhl.com/api-reference/references) for the product ids in the comments, as
 * collected in carrier-facts §3.5; domestic delivery 2–8 business days. ⚠ Per-product weight and
 * size limits and transit times by product are not published in the stored sources: the values
 * below (25 lb / 27 × 17 × 17 in parcels, 15 lb Bound Printed Matter, 4.4 lb packets) are
 * placeholders to configure.
 *
 * Service ids: every DHL eCommerce service is 94000 + n, with n 1–49 for domestic and 51–99 for
 * international services, never renumbered or reused. No service takes more than one parcel per
 * shipment, and none offers carrier packaging.
 */
import type { ServiceDefinition } from "../catalogue.js";

const POUND = 16;

const DHL_ECOMMERCE_DEFAULTS = {
  carrierCode: "dhl_ecommerce",
  category: "shipping",
  sortOrder: null,
  addressKind: "any",
  deliveryGuaranteed: false,
  multiParcel: false,
} as const;

/** A 27 × 17 × 17 in box: the longest side and the length plus girth it implies. */
const DOMESTIC_SIZE = { maxLengthIn: 27, maxLengthPlusGirthIn: 95 } as const;
const DOMESTIC_PARCEL = {
  ...DHL_ECOMMERCE_DEFAULTS,
  ...DOMESTIC_SIZE,
  scope: "domestic",
  maxWeightOz: 25 * POUND,
} as const;
const BOUND_PRINTED_MATTER = {
  ...DHL_ECOMMERCE_DEFAULTS,
  ...DOMESTIC_SIZE,
  scope: "domestic",
  maxWeightOz: 15 * POUND,
} as const;
const INTERNATIONAL_PARCEL = {
  ...DHL_ECOMMERCE_DEFAULTS,
  scope: "international",
  maxWeightOz: 44 * POUND,
  maxLengthIn: 60,
  maxLengthPlusGirthIn: 108,
} as const;

export const DHL_ECOMMERCE_SERVICES: readonly ServiceDefinition[] = [
  {
    ...DOMESTIC_PARCEL,
    serviceId: 94001,
    name: "DHL Parcel Ground", // product GND
    serviceCode: "dhl_ecommerce_parcel_ground",
    packageTypes: [],
    transitDays: { min: 2, max: 8 },
  },
  {
    ...DOMESTIC_PARCEL,
    serviceId: 94002,
    name: "DHL Parcel Expedited", // product EXP
    serviceCode: "dhl_ecommerce_parcel_expedited",
    packageTypes: [],
    transitDays: { min: 2, max: 5 },
  },
  {
    ...DOMESTIC_PARCEL,
    serviceId: 94003,
    name: "DHL Parcel Expedited Max", // product MAX
    serviceCode: "dhl_ecommerce_parcel_expedited_max",
    packageTypes: [],
    transitDays: { min: 2, max: 4 },
  },
  {
    ...BOUND_PRINTED_MATTER,
    serviceId: 94004,
    name: "DHL BPM Ground", // product BGN
    serviceCode: "dhl_ecommerce_bpm_ground",
    packageTypes: [],
    transitDays: { min: 2, max: 8 },
  },
  {
    ...BOUND_PRINTED_MATTER,
    serviceId: 94005,
    name: "DHL BPM Expedited", // product BEX
    serviceCode: "dhl_ecommerce_bpm_expedited",
    packageTypes: [],
    transitDays: { min: 2, max: 5 },
  },
  {
    // Parcels from abroad that DHL consolidates and inducts into USPS for the last mile: the
    // consolidator posts its own pre-induction events (USPS Shipping Partner events 80–82).
    ...DOMESTIC_PARCEL,
    serviceId: 94006,
    name: "DHL Parcel Ground Global Direct Entry",
    serviceCode: "dhl_ecommerce_parcel_ground_gde",
    packageTypes: [],
    transitDays: { min: 2, max: 8 },
    gde: true,
  },
  {
    ...INTERNATIONAL_PARCEL,
    serviceId: 94051,
    name: "DHL Parcel International Direct", // product PLT
    serviceCode: "dhl_ecommerce_parcel_international_direct",
    packageTypes: [],
    transitDays: { min: 4, max: 10 },
  },
  {
    ...INTERNATIONAL_PARCEL,
    serviceId: 94052,
    name: "DHL Parcel International Standard", // product PLY
    serviceCode: "dhl_ecommerce_parcel_international_standard",
    packageTypes: [],
    transitDays: { min: 6, max: 15 },
  },
  {
    // UPU small-packet rules: 2 kg, longest side 60 cm, length + width + height 90 cm (checked in
    // rates.ts), which bounds length plus girth at 60 in.
    ...DHL_ECOMMERCE_DEFAULTS,
    scope: "international",
    serviceId: 94053,
    name: "DHL Packet International", // product PKY
    serviceCode: "dhl_ecommerce_packet_international",
    packageTypes: [],
    maxWeightOz: 70.4,
    maxLengthIn: 24,
    maxLengthPlusGirthIn: 60,
    transitDays: { min: 8, max: 20 },
  },
];
