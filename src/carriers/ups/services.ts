/**
 * UPS services and packaging. Sources: UPS Shipping API (`Shipment.Service.Code`,
 * `Package.Packaging.Code`; https://developer.ups.com/api/reference?loc=en_US#tag/Shipping) and
 * https://www.ups.com/content/us/en/resources/ship/packaging/weight_size.html for the 150 lb /
 * 108 in / 165 in limits, as collected in carrier-facts §3.3 and §4.3. Transit times abroad are ⚠.
 *
 * Service ids: eHub's where known (669 Worldwide Express, 670 Worldwide Express Plus); every other
 * UPS service is 92000 + n, with n 1–49 for domestic and 51–99 for international services, never
 * renumbered or reused.
 */
import type { PackageTypeDefinition, ServiceDefinition } from "../catalogue.js";
import { PARCEL } from "../sandbox/eligibility.js";

const POUND = 16;
const EXPRESS_BOX_MAX_WEIGHT_OZ = 30 * POUND;

/** UPS Express packaging travels by air only; Ground and 3 Day Select take the shipper's own boxes. */
const UPS_AIR_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  { type: "ups_letter", name: "UPS Letter" },
  { type: "ups_pak", name: "UPS Pak" },
  { type: "ups_tube", name: "UPS Express Tube", dimensionsIn: { length: 38, width: 6, height: 6 } },
  {
    type: "ups_express_box_small",
    name: "UPS Express Box - Small",
    maxWeightOz: EXPRESS_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 13, width: 11, height: 2 },
  },
  {
    type: "ups_express_box_medium",
    name: "UPS Express Box - Medium",
    maxWeightOz: EXPRESS_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 16, width: 11, height: 3 },
  },
  {
    type: "ups_express_box_large",
    name: "UPS Express Box - Large",
    maxWeightOz: EXPRESS_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 18, width: 13, height: 3 },
  },
];

const UPS_DEFAULTS = {
  carrierCode: "ups",
  category: "shipping",
  sortOrder: null,
  maxWeightOz: 150 * POUND,
  maxLengthIn: 108,
  maxLengthPlusGirthIn: 165,
  addressKind: "any",
  multiParcel: true,
} as const;

const UPS_DOMESTIC = { ...UPS_DEFAULTS, scope: "domestic" } as const;
const UPS_INTERNATIONAL = { ...UPS_DEFAULTS, scope: "international" } as const;

export const UPS_SERVICES: readonly ServiceDefinition[] = [
  {
    ...UPS_DOMESTIC,
    serviceId: 92001,
    name: "UPS Ground",
    serviceCode: "ups_ground",
    packageTypes: [],
    transitDays: { min: 1, max: 5 },
    deliveryGuaranteed: false,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 92002,
    name: "UPS 3 Day Select",
    serviceCode: "ups_3_day_select",
    packageTypes: [],
    transitDays: { min: 3, max: 3 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 92003,
    name: "UPS 2nd Day Air",
    serviceCode: "ups_2nd_day_air",
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 2, max: 2 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 92004,
    name: "UPS 2nd Day Air A.M.",
    serviceCode: "ups_2nd_day_air_am",
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 2, max: 2 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 92005,
    name: "UPS Next Day Air Saver",
    serviceCode: "ups_next_day_air_saver",
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 92006,
    name: "UPS Next Day Air",
    serviceCode: "ups_next_day_air",
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 92007,
    name: "UPS Next Day Air Early",
    serviceCode: "ups_next_day_air_early",
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
    deliveryGuaranteed: true,
  },
  {
    // eHub lists Worldwide Express and Express Plus with no package types, i.e. `parcel` only.
    ...UPS_INTERNATIONAL,
    serviceId: 669,
    name: "UPS Worldwide Express",
    serviceCode: "ups_express",
    packageTypes: [],
    transitDays: { min: 1, max: 3 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_INTERNATIONAL,
    serviceId: 670,
    name: "UPS Worldwide Express Plus",
    serviceCode: "ups_express_plus",
    packageTypes: [],
    transitDays: { min: 1, max: 3 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_INTERNATIONAL,
    serviceId: 92051,
    name: "UPS Worldwide Saver",
    serviceCode: "ups_worldwide_saver",
    packageTypes: [],
    transitDays: { min: 1, max: 3 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_INTERNATIONAL,
    serviceId: 92052,
    name: "UPS Worldwide Expedited",
    serviceCode: "ups_worldwide_expedited",
    packageTypes: [],
    transitDays: { min: 2, max: 5 },
    deliveryGuaranteed: true,
  },
  {
    // Ground service to Canada and Mexico only (rates.ts refuses other destinations).
    ...UPS_INTERNATIONAL,
    serviceId: 92053,
    name: "UPS Standard",
    serviceCode: "ups_standard",
    packageTypes: [],
    transitDays: { min: 1, max: 5 },
    deliveryGuaranteed: false,
  },
];
