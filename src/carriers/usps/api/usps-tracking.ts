import type { CarrierTrackingEvent, TrackingReport, TrackingStatus } from "../../carrier.js";
import { USPS_EVENTS } from "../tracking-events.js";
import type { UspsTrackingDetails, UspsTrackingEvent } from "./usps-wire.js";

const ALL_OF = (status: TrackingStatus, codes: string[]) => codes.map((code) => [code, status] as const);

/**
 * USPS Publication 199 scan event codes (Appendix G-4) → Porter's statuses. The codes the sandbox
 * speaks come from its vocabulary, so a real USPS parcel and a sandbox one read the same; the
 * rest are the other G-4 codes of the carrier facts. A code not listed is `in_transit`: USPS has
 * the parcel and said something Porter does not know.
 */
const STATUS_OF_CODE: ReadonlyMap<string, TrackingStatus> = new Map([
  ...Object.values(USPS_EVENTS).map((event) => [event.code, event.status] as const),
  ...ALL_OF("pre_transit", ["GX", "MA", "80", "81", "82"]),
  ...ALL_OF("in_transit", ["03", "TM", "PA", "43", "42", "SF", "10", "EF", "PC", "19", "06", "41", "71"]),
  ...ALL_OF("exception", ["08", "15", "02", "52", "53", "54", "55", "56", "30", "51", "11", "44", "DX"]),
  ...ALL_OF("available_for_pickup", ["14", "16"]),
  ...ALL_OF("delivered", ["01", "17"]),
  ...ALL_OF("returned", ["04", "05", "09", "21", "22", "23", "24", "25", "26", "27", "28", "29", "31"]),
]);

export function trackingStatusOf(eventCode: string | undefined): TrackingStatus {
  return (eventCode && STATUS_OF_CODE.get(eventCode.toUpperCase())) || "in_transit";
}

/**
 * When the event happened: USPS's GMT time when it gives one, else the local time moved by its
 * GMT offset ("-7:00"), else the local time read as UTC. Undefined when none is readable.
 */
export function eventInstant(event: UspsTrackingEvent): Date | undefined {
  if (event.GMTTimestamp) {
    const gmt = Date.parse(
      /[zZ]|[+-]\d\d:?\d\d$/.test(event.GMTTimestamp) ? event.GMTTimestamp : `${event.GMTTimestamp}Z`,
    );
    if (!Number.isNaN(gmt)) return new Date(gmt);
  }
  if (!event.eventTimestamp) return undefined;
  const local = event.eventTimestamp.replace(/([zZ]|[+-]\d\d:?\d\d)$/, "");
  const offset = /^([+-])(\d{1,2}):?(\d{2})$/.exec(event.GMTOffset ?? "");
  const at = Date.parse(`${local}Z`);
  if (Number.isNaN(at)) return undefined;
  if (!offset) return new Date(at);
  const minutes = (Number(offset[2]) * 60 + Number(offset[3])) * (offset[1] === "-" ? -1 : 1);
  return new Date(at - minutes * 60_000);
}

const text = (value: string | null | undefined) => (value && value.trim() !== "" ? value.trim() : null);

/**
 * A USPS tracking answer as Porter's report: events oldest first (USPS lists them newest first),
 * numbered by their place in the history so a re-read stores nothing twice, each with USPS's code
 * and words and Porter's status. Events without a readable time are left out.
 */
export function trackingReport(details: UspsTrackingDetails): TrackingReport {
  // Reversed first, so events of the same instant keep USPS's order once sorted.
  const dated = [...(details.trackingEvents ?? [])]
    .reverse()
    .map((event) => ({ event, at: eventInstant(event) }))
    .filter((e): e is { event: UspsTrackingEvent; at: Date } => e.at !== undefined)
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const events: CarrierTrackingEvent[] = dated.map(({ event, at }, index) => ({
    sequence: index + 1,
    occurredAt: at,
    code: event.eventCode ?? "",
    secondaryCode: text(event.reasonCode),
    description: text(event.eventType) ?? "USPS tracking event",
    status: trackingStatusOf(event.eventCode),
    city: text(event.eventCity),
    state: text(event.eventState),
    postalCode: text(event.eventZIP),
    country: text(event.eventCountry) ?? (event.eventState ? "US" : null),
  }));
  const expected = details.expectedDeliveryTimeStamp ?? details.predictedDeliveryDate;
  return {
    events,
    estimatedDeliveryDate: expected && /^\d{4}-\d{2}-\d{2}/.test(expected) ? expected.slice(0, 10) : null,
    nextEventAt: null,
  };
}
