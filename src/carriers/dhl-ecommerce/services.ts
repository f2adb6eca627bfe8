/**
 * DHL eCommerce (Americas) products. Source: DHL developer portal, product references
 * (https://developer.dhl.com/api-reference/references) for the product ids in the comments;
 * domestic delivery 2–8 business days. ⚠ Per-product weight and
 * size limits and transit times by product are not published in the stored sources: the values
 * below (25 lb / 27 × 17 × 17 in parcels, 15 lb Bound Printed Matter, 4.4 lb packets) are
 * placeholders to configure.
 *
 * Service ids, codes and names are eHub's (its `GET /services`): the 1041–1050 series answers
 * rates, the international services' 1187–1189 listings are accepted as other listings. Global
 * Direct Entry, which eHub lacks, keeps Porter's own id 94006. No service takes more than one parcel
 * per shipment, and none offers carrier packaging.
 */
import { listing, type ServiceDefinition } from "../catalogue.js";

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
    serviceId: 1043,
    serviceCode: "dhl_parcel_ground",
    listedName: "DHL Ecommerce Parcel Ground",
    name: "DHL Parcel Ground", // product GND
    otherListings: [],
    packageTypes: [],
    transitDays: { min: 2, max: 8 },
  },
  {
    ...DOMESTIC_PARCEL,
    serviceId: 1041,
    serviceCode: "dhl_parcel_expedited",
    listedName: "DHL Ecommerce Parcel Expedited",
    name: "DHL Parcel Expedited", // product EXP
    otherListings: [],
    packageTypes: [],
    transitDays: { min: 2, max: 5 },
  },
  {
    ...DOMESTIC_PARCEL,
    serviceId: 1042,
    serviceCode: "dhl_parcel_expedited_max",
    listedName: "DHL Ecommerce Parcel Expedited Max",
    name: "DHL Parcel Expedited Max", // product MAX
    otherListings: [],
    packageTypes: [],
    transitDays: { min: 2, max: 4 },
  },
  {
    ...BOUND_PRINTED_MATTER,
    serviceId: 1045,
    serviceCode: "dhl_bpm_ground",
    listedName: "DHL Ecommerce BPM Ground",
    name: "DHL BPM Ground", // product BGN
    otherListings: [],
    packageTypes: [],
    transitDays: { min: 2, max: 8 },
  },
  {
    ...BOUND_PRINTED_MATTER,
    serviceId: 1044,
    serviceCode: "dhl_bpm_expedited",
    listedName: "DHL Ecommerce BPM Expedited",
    name: "DHL BPM Expedited", // product BEX
    otherListings: [],
    packageTypes: [],
    transitDays: { min: 2, max: 5 },
  },
  {
    // Parcels from abroad that DHL consolidates and inducts into USPS for the last mile: the
    // consolidator posts its own pre-induction events (USPS Shipping Partner events 80–82).
    ...DOMESTIC_PARCEL,
    serviceId: 94006,
    serviceCode: "dhl_parcel_ground_gde",
    listedName: "DHL Parcel Ground Global Direct Entry",
    name: "DHL Parcel Ground Global Direct Entry",
    otherListings: [],
    packageTypes: [],
    transitDays: { min: 2, max: 8 },
    gde: true,
  },
  {
    ...INTERNATIONAL_PARCEL,
    serviceId: 1046,
    serviceCode: "dhl_parcel_intl_direct",
    listedName: "DHL Ecommerce International Direct",
    name: "DHL Parcel International Direct", // product PLT
    // ⚠ "Direct Priority" is taken to be the same product (PLT) under its newer name.
    otherListings: [
      listing(1187, "dhl_parcel_international_direct", "DHL Parcel International Direct"),
      listing(1049, "dhl_parcel_intl_direct_priority", "DHL Ecommerce International Direct Priority"),
      listing(1190, "dhl_parcel_international_direct_priority", "DHL Parcel International Direct Priority"),
    ],
    packageTypes: [],
    transitDays: { min: 4, max: 10 },
  },
  {
    ...INTERNATIONAL_PARCEL,
    serviceId: 1047,
    serviceCode: "dhl_parcel_intl_standard",
    listedName: "DHL Ecommerce International Standard",
    name: "DHL Parcel International Standard", // product PLY
    // ⚠ "Direct Standard" is taken to be the same product (PLY) under its newer name.
    otherListings: [
      listing(1188, "dhl_parcel_international_standard", "DHL Parcel International Standard"),
      listing(1050, "dhl_parcel_intl_direct_standard", "DHL Ecommerce Parcel International Direct Standard"),
      listing(1191, "dhl_parcel_international_direct_standard", "DHL Parcel International Direct Standard"),
    ],
    packageTypes: [],
    transitDays: { min: 6, max: 15 },
  },
  {
    // UPU small-packet rules: 2 kg, longest side 60 cm, length + width + height 90 cm (checked in
    // rates.ts), which bounds length plus girth at 60 in.
    ...DHL_ECOMMERCE_DEFAULTS,
    scope: "international",
    serviceId: 1048,
    serviceCode: "dhl_packet_intl",
    listedName: "DHL Ecommerce Packet International",
    name: "DHL Packet International", // product PKY
    otherListings: [listing(1189, "dhl_packet_international", "DHL Packet International")],
    packageTypes: [],
    maxWeightOz: 70.4,
    maxLengthIn: 24,
    maxLengthPlusGirthIn: 60,
    transitDays: { min: 8, max: 20 },
  },
];
