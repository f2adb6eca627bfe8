import type { CarrierTrackingEvent, TrackingReport, TrackingStatus } from "../../carrier.js";
import { UPS_EVENTS } from "../tracking-events.js";
import { upsDate } from "./ups-rating.js";
import type { UpsTrackActivity, UpsTrackResponse } from "./ups-wire.js";

/**
 * UPS status codes (the three-digit `statusCode` of its tracking reference) whose meaning is
 * narrower than their activity type's: the sandbox twin's vocabulary first, then the rest of the
 * codes Porter tells apart.
 */
const STATUS_BY_CODE: ReadonlyMap<string, TrackingStatus> = new Map([
  ...Object.values(UPS_EVENTS).map((event) => [event.secondaryCode ?? "", event.status] as const),
  ["006", "out_for_delivery"],
  ["072", "out_for_delivery"],
  ["040", "available_for_pickup"],
  ["034", "returned"],
  ["007", "pre_transit"],
  ["079", "pre_transit"],
  ["080", "pre_transit"],
]);

/** UPS activity status types: M label data received, MV voided, I in transit, O out for delivery, D delivered, X exception, RS returned. */
const STATUS_BY_TYPE: Readonly<Record<string, TrackingStatus>> = {
  M: "pre_transit",
  MV: "pre_transit",
  P: "in_transit",
  I: "in_transit",
  O: "out_for_delivery",
  D: "delivered",
  X: "exception",
  RS: "returned",
};

/** "5" and "005" alike. */
function statusCode(code: string | undefined): string | null {
  const trimmed = (code ?? "").trim();
  if (trimmed === "") return null;
  return /^\d+$/.test(trimmed) ? trimmed.padStart(3, "0") : trimmed;
}

/** Porter's status for a UPS activity: its status code where Porter knows it, else its type. */
export function trackingStatus(type: string | undefined, code: string | undefined): TrackingStatus {
  const upsType = (type ?? "").trim().toUpperCase();
  const byCode = STATUS_BY_CODE.get(statusCode(code) ?? "");
  // A delivered type outranks a code shared with the way there.
  if (upsType === "D") return "delivered";
  return byCode ?? STATUS_BY_TYPE[upsType] ?? "in_transit";
}

/** "20260301" + "143005" (+ "-05:00") → the instant; the GMT fields win where UPS gives them. */
export function activityInstant(activity: UpsTrackActivity): Date | undefined {
  const gmt = stamp(activity.gmtDate, activity.gmtTime, "+00:00");
  if (gmt) return gmt;
  const offset = /^[+-]\d{2}:\d{2}$/.test(activity.gmtOffset ?? "") ? activity.gmtOffset! : "+00:00";
  return stamp(activity.date, activity.time, offset);
}

function stamp(date: string | undefined, time: string | undefined, offset: string): Date | undefined {
  const day = upsDate(date);
  if (!day) return undefined;
  const digits = (time ?? "").replace(/:/g, "").trim().padEnd(6, "0");
  if (!/^\d{6}$/.test(digits)) return undefined;
  const instant = new Date(`${day}T${digits.slice(0, 2)}:${digits.slice(2, 4)}:${digits.slice(4, 6)}${offset}`);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/**
 * The Track answer for one package as Porter's report: every activity oldest first (UPS lists the
 * newest first), with UPS's type as `code` and its status code as `secondaryCode`, and the
 * rescheduled, else scheduled, delivery date. Throws when it is not a Track answer.
 */
export function trackingReport(answer: unknown, trackingNumber: string): TrackingReport {
  const shipments = (answer as Partial<UpsTrackResponse> | null)?.trackResponse?.shipment;
  if (!Array.isArray(shipments)) throw new TypeError("no trackResponse.shipment in the Track answer");
  const packages = shipments.flatMap((s) => s.package ?? []);
  const pkg = packages.find((p) => p.trackingNumber === trackingNumber) ?? packages[0];
  const activities = (pkg?.activity ?? [])
    .map((activity) => ({ activity, at: activityInstant(activity) }))
    .filter((entry): entry is { activity: UpsTrackActivity; at: Date } => entry.at !== undefined)
    .reverse()
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const events: CarrierTrackingEvent[] = activities.map(({ activity, at }, index) => {
    const address = activity.location?.address;
    const status = activity.status ?? {};
    return {
      // Porter counts positions from 1.
      sequence: index + 1,
      occurredAt: at,
      code: (status.type ?? "").trim().toUpperCase() || "I",
      secondaryCode: statusCode(status.statusCode),
      description: status.description?.trim() || status.type || "UPS activity",
      status: trackingStatus(status.type, status.statusCode),
      city: address?.city?.trim() || null,
      state: address?.stateProvince?.trim() || null,
      postalCode: address?.postalCode?.trim() || null,
      country: address?.countryCode?.trim() || address?.country?.trim() || null,
    };
  });
  const dates = pkg?.deliveryDate ?? [];
  const estimate = dates.find((d) => d.type === "RDD") ?? dates.find((d) => d.type === "SDD");
  return { events, estimatedDeliveryDate: upsDate(estimate?.date), nextEventAt: null };
}
