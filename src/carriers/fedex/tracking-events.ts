import { hubNetwork, type TrackingVocabulary } from "../sandbox/tracking-timeline.js";
import type { UsRegion } from "../sandbox/us-regions.js";

/** FedEx Ground regional hubs; FedEx Express flies through the Memphis World Hub. */
const HUBS: Record<UsRegion, [string, string]> = {
  new_england: ["NORTHBOROUGH", "MA"],
  northeast: ["EDISON", "NJ"],
  mid_atlantic: ["HAGERSTOWN", "MD"],
  southeast: ["ELLENWOOD", "GA"],
  great_lakes: ["GROVE CITY", "OH"],
  upper_midwest: ["ROGERS", "MN"],
  central: ["NORTHLAKE", "IL"],
  south_central: ["FORT WORTH", "TX"],
  mountain: ["SALT LAKE CITY", "UT"],
  pacific: ["BLOOMINGTON", "CA"],
  alaska: ["ANCHORAGE", "AK"],
  hawaii_pacific: ["HONOLULU", "HI"],
  caribbean: ["SAN JUAN", "PR"],
};

export const FEDEX_NETWORK = hubNetwork(HUBS, ["MEMPHIS", "TN"], ["OAKLAND", "CA"]);

/**
 * FedEx scan event types as `code` (OC, PU, AR, DP, IT, AF, CC, OD, DE, SE, HP, DL, RS) and the
 * derived status codes of FedEx's Track API as `secondary_code`.
 */
export const FEDEX_EVENTS: TrackingVocabulary["events"] = {
  label_created: {
    code: "OC",
    secondaryCode: "IN",
    description: "Shipment information sent to FedEx",
    status: "pre_transit",
  },
  accepted: { code: "PU", secondaryCode: "PU", description: "Picked up", status: "in_transit" },
  arrived_facility: { code: "AR", secondaryCode: "IT", description: "Arrived at FedEx location", status: "in_transit" },
  departed_facility: { code: "DP", secondaryCode: "IT", description: "Departed FedEx location", status: "in_transit" },
  in_transit: { code: "IT", secondaryCode: "IT", description: "In transit", status: "in_transit" },
  customs_cleared: {
    code: "CC",
    secondaryCode: "IT",
    description: "International shipment release - Import",
    status: "in_transit",
  },
  arrived_delivery_unit: {
    code: "AF",
    secondaryCode: "IT",
    description: "At local FedEx facility",
    status: "in_transit",
  },
  missort: { code: "SE", secondaryCode: "SE", description: "Shipment exception", status: "exception" },
  out_for_delivery: {
    code: "OD",
    secondaryCode: "OD",
    description: "On FedEx vehicle for delivery",
    status: "out_for_delivery",
  },
  delivery_attempted: {
    code: "DE",
    secondaryCode: "DE",
    description: "Delivery exception: customer not available or business closed",
    status: "exception",
  },
  available_for_pickup: {
    code: "HP",
    secondaryCode: "HP",
    description: "Ready for recipient pickup",
    status: "available_for_pickup",
  },
  delivered: { code: "DL", secondaryCode: "DL", description: "Delivered", status: "delivered" },
  picked_up: {
    code: "DL",
    secondaryCode: "DL",
    description: "Delivered: picked up at FedEx location",
    status: "delivered",
  },
  return_to_sender: { code: "RS", secondaryCode: "RS", description: "Return to shipper", status: "returned" },
};

export const FEDEX_TRACKING: TrackingVocabulary = { events: FEDEX_EVENTS, network: FEDEX_NETWORK };
