import { type CarrierNetwork, type TrackingVocabulary, usFacility } from "../sandbox/tracking-timeline.js";
import type { UsRegion } from "../sandbox/us-regions.js";
import { USPS_EVENTS, USPS_NETWORK } from "../usps/tracking-events.js";

/** DHL eCommerce distribution centers the parcels are sorted in before USPS takes them. */
const CENTERS: Record<UsRegion, [string, string]> = {
  new_england: ["FRANKLIN", "MA"],
  northeast: ["SECAUCUS", "NJ"],
  mid_atlantic: ["BALTIMORE", "MD"],
  southeast: ["FOREST PARK", "GA"],
  great_lakes: ["HEBRON", "KY"],
  upper_midwest: ["MELROSE PARK", "IL"],
  central: ["MELROSE PARK", "IL"],
  south_central: ["GRAND PRAIRIE", "TX"],
  mountain: ["SALT LAKE CITY", "UT"],
  pacific: ["RANCHO DOMINGUEZ", "CA"],
  alaska: ["RANCHO DOMINGUEZ", "CA"],
  hawaii_pacific: ["RANCHO DOMINGUEZ", "CA"],
  caribbean: ["FOREST PARK", "GA"],
};

/**
 * DHL eCommerce carries domestic parcels through its own centers and hands them to USPS at the
 * destination's processing center, so the last mile is tracked with USPS codes.
 */
export const DHL_ECOMMERCE_NETWORK: CarrierNetwork = {
  stateFacility: USPS_NETWORK.stateFacility,
  regionHub: (region) => usFacility(...CENTERS[region]),
  airHub: null,
  exportGateway: (region) => usFacility(...CENTERS[region]),
  handoff: USPS_NETWORK.stateFacility,
};

/**
 * The tracking number of a domestic DHL eCommerce parcel is a USPS IMpb, so its events are
 * Publication 199's: MA when DHL sends the shipping data, the shipping-partner events 80, 81 and
 * 82 while DHL has it, then USPS's own from acceptance on.
 */
export const DHL_ECOMMERCE_EVENTS: TrackingVocabulary["events"] = {
  ...USPS_EVENTS,
  label_created: {
    code: "MA",
    secondaryCode: null,
    description: "Pre-Shipment Info Sent to USPS, USPS Awaiting Item",
    status: "pre_transit",
  },
  partner_picked_up: {
    code: "80",
    secondaryCode: null,
    description: "Picked Up by Shipping Partner, USPS Awaiting Item",
    status: "in_transit",
  },
  partner_arrived: {
    code: "81",
    secondaryCode: null,
    description: "Arrived Shipping Partner Facility, USPS Awaiting Item",
    status: "in_transit",
  },
  partner_departed: {
    code: "82",
    secondaryCode: null,
    description: "Departed Shipping Partner Facility, USPS Awaiting Item",
    status: "in_transit",
  },
};

export const DHL_ECOMMERCE_TRACKING: TrackingVocabulary = {
  events: DHL_ECOMMERCE_EVENTS,
  network: DHL_ECOMMERCE_NETWORK,
};
