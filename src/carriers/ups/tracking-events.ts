import { hubNetwork, type TrackingVocabulary } from "../sandbox/tracking-timeline.js";
import type { UsRegion } from "../sandbox/us-regions.js";

/** UPS regional hubs (Hodgkins is Chicago Area Consolidation Hub; Worldport in Louisville is the air hub). */
const HUBS: Record<UsRegion, [string, string]> = {
  new_england: ["SHREWSBURY", "MA"],
  northeast: ["SECAUCUS", "NJ"],
  mid_atlantic: ["CHARLOTTE", "NC"],
  southeast: ["ATLANTA", "GA"],
  great_lakes: ["COLUMBUS", "OH"],
  upper_midwest: ["MAPLE GROVE", "MN"],
  central: ["HODGKINS", "IL"],
  south_central: ["MESQUITE", "TX"],
  mountain: ["COMMERCE CITY", "CO"],
  pacific: ["ONTARIO", "CA"],
  alaska: ["ANCHORAGE", "AK"],
  hawaii_pacific: ["HONOLULU", "HI"],
  caribbean: ["SAN JUAN", "PR"],
};

export const UPS_NETWORK = hubNetwork(HUBS, ["LOUISVILLE", "KY"], ["ONTARIO", "CA"]);

/**
 * UPS activity status types as `code` (M label created, I in transit, X exception, D delivered)
 * and the status codes of UPS's tracking reference as `secondary_code` (003 label created,
 * 038 picked up, 005 on the way, 014 clearance completed, 021 out for delivery, 022 first
 * attempt, 017 held for pickup, 011 delivered, 013 exception, 033 return to sender).
 */
export const UPS_EVENTS: TrackingVocabulary["events"] = {
  label_created: {
    code: "M",
    secondaryCode: "003",
    description: "Shipper created a label, UPS has not received the package yet.",
    status: "pre_transit",
  },
  accepted: { code: "I", secondaryCode: "038", description: "Pickup Scan", status: "in_transit" },
  arrived_facility: { code: "I", secondaryCode: "005", description: "Arrived at Facility", status: "in_transit" },
  departed_facility: { code: "I", secondaryCode: "005", description: "Departed from Facility", status: "in_transit" },
  in_transit: { code: "I", secondaryCode: "005", description: "On the Way", status: "in_transit" },
  customs_cleared: {
    code: "I",
    secondaryCode: "014",
    description: "Your package has been released by the government agency.",
    status: "in_transit",
  },
  arrived_delivery_unit: {
    code: "I",
    secondaryCode: "005",
    description: "Processing at UPS Facility",
    status: "in_transit",
  },
  missort: {
    code: "X",
    secondaryCode: "013",
    description: "The package was missorted at a UPS facility. We're rerouting it.",
    status: "exception",
  },
  out_for_delivery: {
    code: "I",
    secondaryCode: "021",
    description: "Out For Delivery Today",
    status: "out_for_delivery",
  },
  delivery_attempted: {
    code: "X",
    secondaryCode: "022",
    description: "The receiver was not available for delivery. We'll make a second attempt the next business day.",
    status: "exception",
  },
  available_for_pickup: {
    code: "X",
    secondaryCode: "017",
    description: "Held for customer pickup at a UPS Access Point location.",
    status: "available_for_pickup",
  },
  delivered: { code: "D", secondaryCode: "011", description: "Delivered", status: "delivered" },
  picked_up: {
    code: "D",
    secondaryCode: "011",
    description: "Delivered: picked up at a UPS Access Point location.",
    status: "delivered",
  },
  return_to_sender: {
    code: "X",
    secondaryCode: "033",
    description: "The package was not picked up and is being returned to the sender.",
    status: "returned",
  },
};

export const UPS_TRACKING: TrackingVocabulary = { events: UPS_EVENTS, network: UPS_NETWORK };
