import {
  type CarrierNetwork,
  sortingFacility,
  type TrackingVocabulary,
  usFacility,
} from "../sandbox/tracking-timeline.js";
import type { UsRegion } from "../sandbox/us-regions.js";

const GATEWAYS: Record<UsRegion, [string, string]> = {
  new_england: ["NEW YORK", "NY"],
  northeast: ["NEW YORK", "NY"],
  mid_atlantic: ["NEW YORK", "NY"],
  southeast: ["MIAMI", "FL"],
  caribbean: ["MIAMI", "FL"],
  great_lakes: ["CINCINNATI", "OH"],
  upper_midwest: ["CINCINNATI", "OH"],
  central: ["CINCINNATI", "OH"],
  south_central: ["CINCINNATI", "OH"],
  mountain: ["LOS ANGELES", "CA"],
  pacific: ["LOS ANGELES", "CA"],
  alaska: ["LOS ANGELES", "CA"],
  hawaii_pacific: ["LOS ANGELES", "CA"],
};

/** DHL Express: origin service areas in the sorting cities, the Cincinnati hub, coastal gateways. */
export const DHL_EXPRESS_NETWORK: CarrierNetwork = {
  stateFacility: sortingFacility,
  regionHub: () => usFacility("CINCINNATI HUB", "OH"),
  airHub: usFacility("CINCINNATI HUB", "OH"),
  exportGateway: (region) => usFacility(...GATEWAYS[region]),
};

/**
 * DHL Express event type codes from the MyDHL API's event list (DUMMY_PU shipment information
 * received, PU picked up, AF arrived facility, DF departed facility, CR clearance release, AR
 * arrival in delivery facility, WC with delivering courier, OK delivery, NH not home, CC awaiting
 * consignee collection, MS mis-sort, RT returned to consignor), with the words of its examples.
 */
export const DHL_EXPRESS_EVENTS: TrackingVocabulary["events"] = {
  label_created: {
    code: "DUMMY_PU",
    secondaryCode: null,
    description: "Shipment information received",
    status: "pre_transit",
  },
  accepted: { code: "PU", secondaryCode: null, description: "Shipment picked up", status: "in_transit" },
  arrived_facility: {
    code: "AF",
    secondaryCode: null,
    description: "Arrived at DHL Sort Facility",
    status: "in_transit",
  },
  departed_facility: {
    code: "DF",
    secondaryCode: null,
    description: "Shipment has departed from a DHL facility",
    status: "in_transit",
  },
  customs_cleared: {
    code: "CR",
    secondaryCode: null,
    description: "Clearance processing complete",
    status: "in_transit",
  },
  arrived_delivery_unit: {
    code: "AR",
    secondaryCode: null,
    description: "Arrived at DHL Delivery Facility",
    status: "in_transit",
  },
  missort: { code: "MS", secondaryCode: null, description: "Mis-sort", status: "exception" },
  out_for_delivery: {
    code: "WC",
    secondaryCode: null,
    description: "Shipment is out with courier for delivery",
    status: "out_for_delivery",
  },
  delivery_attempted: {
    code: "NH",
    secondaryCode: null,
    description: "Not home - delivery attempted",
    status: "exception",
  },
  available_for_pickup: {
    code: "CC",
    secondaryCode: null,
    description: "Awaiting collection by the consignee at a DHL service point",
    status: "available_for_pickup",
  },
  delivered: { code: "OK", secondaryCode: null, description: "Delivered", status: "delivered" },
  picked_up: {
    code: "OK",
    secondaryCode: null,
    description: "Delivered: collected by the consignee",
    status: "delivered",
  },
  return_to_sender: { code: "RT", secondaryCode: null, description: "Returned to consignor", status: "returned" },
};

export const DHL_EXPRESS_TRACKING: TrackingVocabulary = { events: DHL_EXPRESS_EVENTS, network: DHL_EXPRESS_NETWORK };
