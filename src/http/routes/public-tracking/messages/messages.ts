import type { TrackingStatus } from "../../../carriers/carrier.js";
import type { ShipmentStatus } from "../../../domain/shipments/shipment-status.js";

/**
 * Every word the public tracking page shows, by language: a translation is one more entry with
 * the same keys (the type makes a missing one a compile error). English is the only one so far.
 */
export const PAGE_STRINGS = {
  en: {
    title: "Tracking",
    shippedBy: "Shipped by",
    carrier: "Carrier",
    service: "Service",
    trackingNumber: "Tracking number",
    status: "Status",
    estimatedDelivery: "Estimated delivery",
    deliveredOn: "Delivered",
    unknown: "Not known yet",
    timeline: "Timeline",
    noEvents: "No tracking events yet.",
    statuses: {
      purchasing: "Label being created",
      shipped: "Label created",
      manifested: "Handed to the carrier",
      pre_transit: "Label created",
      in_transit: "In transit",
      out_for_delivery: "Out for delivery",
      available_for_pickup: "Available for pickup",
      delivered: "Delivered",
      returned: "Returned to sender",
      exception: "Delivery problem",
      cancel_pending: "Cancelled",
      cancelled: "Cancelled",
      failed: "Cancelled",
    } satisfies Record<ShipmentStatus | TrackingStatus, string>,
  },
} as const;

export type PageLanguage = keyof typeof PAGE_STRINGS;
export type PageStrings = (typeof PAGE_STRINGS)[PageLanguage];
