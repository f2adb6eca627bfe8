import type { CarrierTrackingEvent, TrackingReport, TrackingStatus } from "../../carrier.js";
import type { DhlTrackingEvent, DhlTrackingResponse } from "./dhl-express-wire.js";

/**
 * DHL Express event type codes (MyDHL API reference data `trackingEventCode`) as Porter's statuses.
 * The sandbox twin speaks the same codes (../tracking-events.ts). A code not listed is in transit:
 * DHL adds codes, and most of its events are movements or paperwork.
 */
const STATUS_BY_CODE: Record<string, TrackingStatus> = {
  DUMMY_PU: "pre_transit",
  SA: "in_transit",
  PU: "in_transit",
  PL: "in_transit",
  AF: "in_transit",
  DF: "in_transit",
  AR: "in_transit",
  CR: "in_transit",
  TR: "in_transit",
  WC: "out_for_delivery",
  CC: "available_for_pickup",
  OK: "delivered",
  DD: "delivered",
  PD: "delivered",
  RT: "returned",
  // Something went wrong, or the shipment waits on someone before it can move on.
  BA: "exception",
  CA: "exception",
  CD: "exception",
  CM: "exception",
  DM: "exception",
  DP: "exception",
  DS: "exception",
  HP: "exception",
  IR: "exception",
  MC: "exception",
  MD: "exception",
  MS: "exception",
  NA: "exception",
  ND: "exception",
  NH: "exception",
  OH: "exception",
  RD: "exception",
  SS: "exception",
  TD: "exception",
  UD: "exception",
};

export function trackingStatusOf(code: string): TrackingStatus {
  return STATUS_BY_CODE[code] ?? "in_transit";
}

/** "+09:00" as written, "Z" when DHL gave no offset (its times are then read as UTC). */
function offsetOf(gmtOffset: string | undefined): string {
  return gmtOffset && /^[+-]\d{2}:\d{2}$/.test(gmtOffset) ? gmtOffset : "Z";
}

/** "Brisbane-AU" → the place and its country; a description without a country is the city alone. */
export function placeOf(serviceAreaDescription: string | undefined): { city: string | null; country: string | null } {
  if (!serviceAreaDescription) return { city: null, country: null };
  const match = /^(.*)-([A-Z]{2})$/.exec(serviceAreaDescription.trim());
  if (!match) return { city: serviceAreaDescription.trim().toUpperCase() || null, country: null };
  return { city: match[1]?.trim().toUpperCase() || null, country: match[2] ?? null };
}

function eventOf(event: DhlTrackingEvent): Omit<CarrierTrackingEvent, "sequence"> | undefined {
  if (!event.date || !event.typeCode) return undefined;
  const occurredAt = new Date(`${event.date}T${event.time ?? "00:00:00"}${offsetOf(event.GMTOffset)}`);
  if (Number.isNaN(occurredAt.getTime())) return undefined;
  const place = placeOf(event.serviceArea?.[0]?.description);
  return {
    occurredAt,
    code: event.typeCode,
    secondaryCode: null,
    description: event.description ?? event.typeCode,
    status: trackingStatusOf(event.typeCode),
    city: place.city,
    state: null,
    postalCode: null,
    country: place.country,
  };
}

/**
 * A MyDHL API tracking answer as Porter's report: the shipment's events oldest first, numbered
 * from 1 in that order (DHL only adds later events, so a re-read numbers the known ones the same),
 * and DHL's estimated delivery date. Undefined when the answer holds no shipment.
 */
export function trackingReportOf(answer: DhlTrackingResponse): TrackingReport | undefined {
  const shipment = answer.shipments?.[0];
  if (!shipment || !Array.isArray(shipment.events)) return undefined;
  const events = shipment.events
    .map((event, index) => ({ event: eventOf(event), index }))
    .filter(
      (read): read is { event: Omit<CarrierTrackingEvent, "sequence">; index: number } => read.event !== undefined,
    )
    .sort((a, b) => a.event.occurredAt.getTime() - b.event.occurredAt.getTime() || a.index - b.index)
    .map(({ event }, position): CarrierTrackingEvent => ({ ...event, sequence: position + 1 }));
  return {
    events,
    estimatedDeliveryDate: shipment.estimatedDeliveryDate?.slice(0, 10) ?? null,
    nextEventAt: null,
  };
}
