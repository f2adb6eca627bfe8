import { type CarrierNetwork, type TrackingVocabulary, usFacility } from "../sandbox/tracking-timeline.js";
import { sortingCity, type UsRegion } from "../sandbox/us-regions.js";

/** The Network Distribution Center linking each region to the national network. */
const NDC: Record<UsRegion, [string, string]> = {
  new_england: ["SPRINGFIELD", "MA"],
  northeast: ["JERSEY CITY", "NJ"],
  mid_atlantic: ["GREENSBORO", "NC"],
  southeast: ["ATLANTA", "GA"],
  great_lakes: ["CINCINNATI", "OH"],
  upper_midwest: ["MINNEAPOLIS", "MN"],
  central: ["CHICAGO", "IL"],
  south_central: ["DALLAS", "TX"],
  mountain: ["DENVER", "CO"],
  pacific: ["LOS ANGELES", "CA"],
  alaska: ["ANCHORAGE", "AK"],
  hawaii_pacific: ["HONOLULU", "HI"],
  caribbean: ["SAN JUAN", "PR"],
};

/** The International Distribution Center (formerly ISC) a region's mail leaves the US through. */
const INTERNATIONAL: Record<UsRegion, [string, string]> = {
  new_england: ["NEW YORK", "NY"],
  northeast: ["NEW YORK", "NY"],
  mid_atlantic: ["NEW YORK", "NY"],
  southeast: ["MIAMI", "FL"],
  caribbean: ["MIAMI", "FL"],
  great_lakes: ["CHICAGO", "IL"],
  upper_midwest: ["CHICAGO", "IL"],
  central: ["CHICAGO", "IL"],
  south_central: ["CHICAGO", "IL"],
  mountain: ["LOS ANGELES", "CA"],
  pacific: ["LOS ANGELES", "CA"],
  alaska: ["LOS ANGELES", "CA"],
  hawaii_pacific: ["LOS ANGELES", "CA"],
};

/** USPS writes a facility as its name in the city field ("SALT LAKE CITY UT DISTRIBUTION CENTER"). */
const named = ([city, state]: readonly [string, string], kind: string) => usFacility(`${city} ${state} ${kind}`, state);

/** USPS P&DCs by state, NDCs by region, IDCs for abroad. */
export const USPS_NETWORK: CarrierNetwork = {
  stateFacility: (state, postalCode) => {
    const { city, state: st } = sortingCity(state, postalCode);
    return named([city, st], "DISTRIBUTION CENTER");
  },
  regionHub: (region) => named(NDC[region], "NETWORK DISTRIBUTION CENTER"),
  airHub: null,
  exportGateway: (region) => named(INTERNATIONAL[region], "INTERNATIONAL DISTRIBUTION CENTER"),
};

/**
 * USPS Publication 199 event codes (Appendix G-4) with the Tracking API's wording, as listed in
 * the carrier facts: GX label created, 03 accepted, SF departed post office, A1/T1 regional
 * facility, TL in transit, 07 arrived at post office, OF, 01 delivered, 02 notice left,
 * 16 available for pickup, 09 return to sender (secondary 27: unclaimed), 08 missent.
 */
export const USPS_EVENTS: TrackingVocabulary["events"] = {
  label_created: {
    code: "GX",
    secondaryCode: null,
    description: "Shipping Label Created, USPS Awaiting Item",
    status: "pre_transit",
  },
  accepted: { code: "03", secondaryCode: null, description: "USPS in possession of item", status: "in_transit" },
  departed_origin: { code: "SF", secondaryCode: null, description: "Departed Post Office", status: "in_transit" },
  arrived_facility: {
    code: "A1",
    secondaryCode: null,
    description: "Arrived at USPS Regional Facility",
    status: "in_transit",
  },
  departed_facility: {
    code: "T1",
    secondaryCode: null,
    description: "Departed USPS Regional Facility",
    status: "in_transit",
  },
  in_transit: { code: "TL", secondaryCode: null, description: "In Transit to Next Facility", status: "in_transit" },
  arrived_delivery_unit: {
    code: "07",
    secondaryCode: null,
    description: "Arrived at Post Office",
    status: "in_transit",
  },
  missort: { code: "08", secondaryCode: null, description: "Missent", status: "exception" },
  out_for_delivery: { code: "OF", secondaryCode: null, description: "Out for Delivery", status: "out_for_delivery" },
  delivery_attempted: {
    code: "02",
    secondaryCode: null,
    description: "Notice Left (No Authorized Recipient Available)",
    status: "exception",
  },
  available_for_pickup: {
    code: "16",
    secondaryCode: null,
    description: "Available for Pickup",
    status: "available_for_pickup",
  },
  delivered: { code: "01", secondaryCode: null, description: "Delivered, Front Door/Porch", status: "delivered" },
  picked_up: {
    code: "01",
    secondaryCode: null,
    description: "Delivered, Individual Picked Up at Postal Facility",
    status: "delivered",
  },
  return_to_sender: { code: "09", secondaryCode: "27", description: "Return to Sender", status: "returned" },
};

export const USPS_TRACKING: TrackingVocabulary = { events: USPS_EVENTS, network: USPS_NETWORK };
