import type { TrackingStatus } from "../../../../carriers/carrier.js";
import type { ShipmentStatus } from "../../../../domain/shipments/shipment-status.js";

/**
 * Every word the public tracking page shows in one language: a catalogue per language in this
 * folder, each checked against this shape (a missing or misspelt key is a compile error).
 */
export interface Messages {
  /** The language's BCP 47 tag, the `<html lang>` and the locale dates are written in. */
  language: string;
  title: string;
  shippedBy: string;
  carrier: string;
  service: string;
  trackingNumber: string;
  status: string;
  estimatedDelivery: string;
  deliveredOn: string;
  unknown: string;
  timeline: string;
  noEvents: string;
  statuses: Record<ShipmentStatus | TrackingStatus, string>;
}
