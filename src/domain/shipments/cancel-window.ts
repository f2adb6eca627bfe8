import type { CarrierCode } from "../../carriers/catalogue.js";
import { carrierToday } from "../rates/delivery-date.js";
import { centralTimeInstant } from "../shared/central-time.js";

/** How long a test postal label can be cancelled (eHub: about a minute). */
export const TEST_POSTAL_CANCEL_MS = 60_000;

export interface CancellableShipment {
  carrierCode: CarrierCode | string;
  mode: "test" | "production";
  createdAt: string;
  /** YYYY-MM-DD */
  shipDate: string;
  status: string;
  /** The manifest batch that took it, if any. */
  batchId: number | null;
  /** When a manifest or the daily close-out took it, if either did. */
  manifestedAt: string | null;
}

/**
 * Whether the carrier still accepts a void, and if not why: USPS production labels
 * until 02:00 Central on the manifest day (the ship date, or the next day for a label bought for
 * today or earlier), USPS test labels within a minute, other carriers while not manifested.
 */
export function cancelRefusal(shipment: CancellableShipment, now: Date): string | undefined {
  if (shipment.status === "manifested" || shipment.manifestedAt !== null) {
    return shipment.batchId === null
      ? "USPS closed it out at 02:00 Central Time on its manifest day; contact the carrier"
      : "the carrier has manifested it; contact the carrier";
  }
  if (shipment.batchId !== null) return `it is on manifest batch ${shipment.batchId}`;
  if (shipment.carrierCode !== "usps") return undefined;
  if (shipment.mode === "test") {
    const age = now.getTime() - new Date(shipment.createdAt).getTime();
    return age > TEST_POSTAL_CANCEL_MS
      ? "USPS accepts cancelling a test label only within a minute of creation"
      : undefined;
  }
  const deadline = postalCancelDeadline(shipment.shipDate, carrierToday(new Date(shipment.createdAt)));
  return now.getTime() >= deadline.getTime()
    ? "USPS closed it out at 02:00 Central Time on its manifest day; it can no longer be cancelled"
    : undefined;
}

/** 02:00 Central on the manifest day: the ship date, or the day after it if that was the day of purchase or earlier. */
export function postalCancelDeadline(shipDate: string, purchaseDay: string): Date {
  const manifestDay = shipDate > purchaseDay ? shipDate : nextDay(shipDate);
  return centralTimeInstant(manifestDay, 2);
}

function nextDay(day: string): string {
  const date = new Date(`${day}T12:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}
