import { BoundedMap } from "../../bounded-map.js";
import type { CarrierCode } from "../../carriers/catalogue.js";
import { countDeliveryDays } from "../../carriers/sandbox/local-time.js";

/** Carriers' dates run on US Central time (postal close-out and cut-offs are Central). */
const CARRIER_TIME_ZONE = "America/Chicago";
const dayFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: CARRIER_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

// Formatting a date in a time zone is slow next to a rate; within one minute the answer is the same.
let lastMinute = Number.NaN;
let lastDay = "";

/** Today's date (YYYY-MM-DD) where the carriers are. */
export function carrierToday(now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== lastMinute) {
    lastDay = dayFormat.format(now);
    lastMinute = minute;
  }
  return lastDay;
}

/** Delivery dates by transit days, per ship date and carrier: asked again by every rate of the day. */
const calendars = new BoundedMap<string, string[]>(1000);

/**
 * The date a parcel shipped on `shipDate` arrives after `transitDays` delivery days. USPS delivers
 * Monday to Saturday; the others Monday to Friday. Holidays are not modelled.
 */
export function deliveryDate(shipDate: string, transitDays: number, carrier: CarrierCode): string {
  const key = `${shipDate}|${carrier}`;
  let calendar = calendars.get(key);
  if (!calendar) {
    calendar = [];
    calendars.set(key, calendar);
  }
  let date = calendar[transitDays];
  if (date === undefined) {
    date = countDeliveryDays(shipDate, transitDays, carrier);
    calendar[transitDays] = date;
  }
  return date;
}
