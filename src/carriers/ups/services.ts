/**
 * UPS services and packaging. Sources: UPS Shipping API (`Shipment.Service.Code`,
 * `Package.Packaging.Code`; https://developer.ups.com/api/reference?loc=en_US#tag/Shipping) and
 * https://www.ups.com/content/us/en/resources/ship/packaging/weight_size.html for the 150 lb /
 * 108 in / 165 in limits. Transit times abroad are ⚠.
 *
 * Service ids, codes and names are eHub's (its `GET /services`): the 666–682 series answers rates;
 * the 765–776 series and the Worldwide services' 1053–1056 listings (under `ups_ww_*` codes) are
 * accepted as other listings. Package types carry eHub's type and name.
 */
import { listing, type PackageTypeDefinition, retiredListing, type ServiceDefinition } from "../catalogue.js";
import { PARCEL } from "../sandbox/eligibility.js";

const POUND = 16;
const EXPRESS_BOX_MAX_WEIGHT_OZ = 30 * POUND;

/** UPS Express packaging travels by air only; Ground and 3 Day Select take the shipper's own boxes. */
const UPS_AIR_PACKAGE_TYPES: PackageTypeDefinition[] = [
  PARCEL,
  { type: "ups_letter", name: "UPS Letter" },
  { type: "ups_pak", name: "UPS Pak" },
  {
    type: "ups_tube",
    name: "UPS Express Tube",
    listedName: "UPS Tube",
    dimensionsIn: { length: 38, width: 6, height: 6 },
  },
  {
    type: "ups_box_small",
    name: "UPS Express Box - Small",
    listedName: "UPS Small Express Box",
    maxWeightOz: EXPRESS_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 13, width: 11, height: 2 },
  },
  {
    type: "ups_box_medium",
    name: "UPS Express Box - Medium",
    listedName: "UPS Medium Express Box",
    maxWeightOz: EXPRESS_BOX_MAX_WEIGHT_OZ,
    dimensionsIn: { length: 16, width: 11, height: 3 },
  },
  {
    type: "ups_box_large",
    name: "UPS Express Box - Large",
    listedName: "UPS Large Express Box",
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

/** The warning of a listing sold as UPS Ground: why, then what the client bought. */
function soldAsGround(why: string): string {
  return `${why}: sold as UPS Ground (666).`;
}

const UPS_DOMESTIC = { ...UPS_DEFAULTS, scope: "domestic" } as const;
const UPS_INTERNATIONAL = { ...UPS_DEFAULTS, scope: "international" } as const;

export const UPS_SERVICES: readonly ServiceDefinition[] = [
  {
    ...UPS_DOMESTIC,
    serviceId: 666,
    serviceCode: "ups_ground",
    listedName: "Ground",
    name: "UPS Ground",
    otherListings: [
      listing(767, "ups_ground", "UPS Ground"),
      // UPS retired Mail Innovations and renamed SurePost UPS Ground Saver, which Porter does not sell.
      retiredListing(
        678,
        "ups_first_class",
        "First",
        soldAsGround("UPS Mail Innovations First-Class (678) is retired"),
      ),
      retiredListing(679, "ups_priority", "Priority", soldAsGround("UPS Mail Innovations Priority (679) is retired")),
      retiredListing(
        680,
        "ups_mail_innovations_expedited",
        "ExpeditedMailInnovations",
        soldAsGround("UPS Mail Innovations Expedited (680) is retired"),
      ),
      retiredListing(
        681,
        "ups_mail_innovations_priority",
        "PriorityMailInnovations",
        soldAsGround("UPS Mail Innovations Priority (681) is retired"),
      ),
      retiredListing(
        682,
        "ups_mail_innovations_economy",
        "EconomyMailInnovations",
        soldAsGround("UPS Mail Innovations Economy (682) is retired"),
      ),
      retiredListing(
        777,
        "ups_mail_innovations_economy",
        "Domestic First Class Mail Innovations",
        soldAsGround("UPS Mail Innovations Economy (777) is retired"),
      ),
      retiredListing(
        778,
        "ups_mail_innovations_priority",
        "Domestic Priority Mail Innovations",
        soldAsGround("UPS Mail Innovations Priority (778) is retired"),
      ),
      retiredListing(
        779,
        "ups_mail_innovations_expedited",
        "Domestic Expedited Mail Innovations",
        soldAsGround("UPS Mail Innovations Expedited (779) is retired"),
      ),
      retiredListing(
        1051,
        "ups_sure_post_under_1",
        "UPS SurePost Less than 1 lb",
        soldAsGround("UPS SurePost (1051), now UPS Ground Saver, is not sold by Porter"),
      ),
      retiredListing(
        1052,
        "ups_sure_post_1_and_over",
        "UPS SurePost 1 lb or Greater",
        soldAsGround("UPS SurePost (1052), now UPS Ground Saver, is not sold by Porter"),
      ),
      retiredListing(
        806,
        "ups_sure_post_under_1",
        "UPS SurePost Under 1LB",
        soldAsGround("UPS SurePost (806), now UPS Ground Saver, is not sold by Porter"),
      ),
      retiredListing(
        807,
        "ups_sure_post_1_and_over",
        "UPS SurePost Over 1LB",
        soldAsGround("UPS SurePost (807), now UPS Ground Saver, is not sold by Porter"),
      ),
      retiredListing(
        808,
        "ups_sure_post_bpm",
        "UPS SurePost BPM",
        soldAsGround("UPS SurePost Bound Printed Matter (808), now UPS Ground Saver, is not sold by Porter"),
      ),
      retiredListing(
        809,
        "ups_sure_post_media",
        "UPS SurePost Media",
        soldAsGround("UPS SurePost Media Mail (809), now UPS Ground Saver, is not sold by Porter"),
      ),
    ],
    packageTypes: [],
    transitDays: { min: 1, max: 5 },
    deliveryGuaranteed: false,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 677,
    serviceCode: "ups_3day_select",
    listedName: "3DaySelect",
    name: "UPS 3 Day Select",
    otherListings: [listing(768, "ups_3day_select", "UPS 3 Day Select")],
    packageTypes: [],
    transitDays: { min: 3, max: 3 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 675,
    serviceCode: "ups_2nd_day",
    listedName: "2ndDayAir",
    name: "UPS 2nd Day Air",
    otherListings: [listing(766, "ups_2nd_day", "UPS 2nd Day Air")],
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 2, max: 2 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 676,
    serviceCode: "ups_2nd_day_am",
    listedName: "2ndDayAirAM",
    name: "UPS 2nd Day Air A.M.",
    otherListings: [listing(771, "ups_2nd_day_am", "UPS 2nd Day Air AM")],
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 2, max: 2 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 673,
    serviceCode: "ups_next_day_saver",
    listedName: "NextDayAirSaver",
    name: "UPS Next Day Air Saver",
    otherListings: [listing(769, "ups_next_day_saver", "UPS Next Day Air Saver")],
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 672,
    serviceCode: "ups_next_day",
    listedName: "NextDayAir",
    name: "UPS Next Day Air",
    otherListings: [listing(765, "ups_next_day", "UPS Next Day Air")],
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_DOMESTIC,
    serviceId: 674,
    serviceCode: "ups_next_day_am",
    listedName: "NextDayAirEarlyAM",
    name: "UPS Next Day Air Early",
    otherListings: [listing(770, "ups_next_day_am", "UPS Next Day Air Early AM")],
    packageTypes: UPS_AIR_PACKAGE_TYPES,
    transitDays: { min: 1, max: 1 },
    deliveryGuaranteed: true,
  },
  {
    // eHub lists Worldwide Express and Express Plus with no package types, i.e. `parcel` only.
    ...UPS_INTERNATIONAL,
    serviceId: 669,
    serviceCode: "ups_express",
    listedName: "Express",
    name: "UPS Worldwide Express",
    otherListings: [
      listing(1054, "ups_ww_express", "UPS Worldwide Express"),
      listing(772, "ups_ww_express", "UPS Worldwide Express"),
    ],
    packageTypes: [],
    transitDays: { min: 1, max: 3 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_INTERNATIONAL,
    serviceId: 670,
    serviceCode: "ups_express_plus",
    listedName: "ExpressPlus",
    name: "UPS Worldwide Express Plus",
    otherListings: [
      listing(1053, "ups_ww_express_plus", "UPS Worldwide Express Plus"),
      listing(775, "ups_ww_express_plus", "UPS Worldwide Express Plus"),
    ],
    packageTypes: [],
    transitDays: { min: 1, max: 3 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_INTERNATIONAL,
    serviceId: 668,
    serviceCode: "ups_saver",
    listedName: "UPSSaver",
    name: "UPS Worldwide Saver",
    otherListings: [
      listing(1055, "ups_ww_express_saver", "UPS Worldwide Express Saver"),
      listing(776, "ups_ww_express_saver", "UPS Worldwide Saver"),
    ],
    packageTypes: [],
    transitDays: { min: 1, max: 3 },
    deliveryGuaranteed: true,
  },
  {
    ...UPS_INTERNATIONAL,
    serviceId: 671,
    serviceCode: "ups_expedited",
    listedName: "Expedited",
    name: "UPS Worldwide Expedited",
    otherListings: [
      listing(1056, "ups_ww_expedited", "UPS Worldwide Expedited"),
      listing(773, "ups_ww_expedited", "UPS Worldwide Expedited"),
    ],
    packageTypes: [],
    transitDays: { min: 2, max: 5 },
    deliveryGuaranteed: true,
  },
  {
    // Ground service to Canada and Mexico only (rates.ts refuses other destinations).
    ...UPS_INTERNATIONAL,
    serviceId: 667,
    serviceCode: "ups_standard",
    listedName: "UPSStandard",
    name: "UPS Standard",
    otherListings: [listing(774, "ups_standard", "UPS Standard")],
    packageTypes: [],
    transitDays: { min: 1, max: 5 },
    deliveryGuaranteed: false,
  },
];
