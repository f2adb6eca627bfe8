import type { CarrierAddress, PickupAvailability } from "./carrier.js";
import { addDays } from "./sandbox/carrier-calendar.js";
import { localDay, localInstant } from "./sandbox/local-time.js";
import { isUsDomestic } from "./sandbox/us-domestic.js";
import { stateTimeZone } from "./sandbox/us-regions.js";

/**
 * A courier's pickup days (UPS On-Call, FedEx, DHL Express): Monday to Friday in the local time of
 * the pickup address, as their APIs read pickup dates and times. Porter books a window from
 * `readyAt` to `closeAt`; a same-day pickup can be booked until `sameDayCutoff`, which leaves the
 * courier the lead time its APIs ask between the booking and the close of the window.
 */
export interface CourierPickupRule {
  /** How the carrier is named in reasons ("UPS"). */
  carrierName: string;
  /** Minutes after local midnight. */
  readyAt: number;
  closeAt: number;
  sameDayCutoff: number;
  /** The most days ahead a pickup can be booked, where the carrier's API says (DHL Express: 10). */
  maxDaysAhead?: number;
}

const HOUR = 60;

/** The window couriers are booked for: ready from 09:00, closing at 17:00, same day until 15:00. */
export const COURIER_WINDOW = { readyAt: 9 * HOUR, closeAt: 17 * HOUR, sameDayCutoff: 15 * HOUR } as const;

/** The pickup window Porter books, in the local time of the address. */
export interface PickupWindow {
  /** HH:MM, local. */
  readyTime: string;
  closeTime: string;
  /** The local offset from UTC at the ready time, as "+HH:MM" / "-HH:MM". */
  utcOffset: string;
  timeZone: string;
}

/**
 * The zone a pickup address keeps time in: its state's in the US and its territories. Elsewhere
 * Porter has no zone data and judges the day in UTC.
 */
export function pickupTimeZone(location: Pick<CarrierAddress, "country" | "state"> | undefined): string {
  if (!location) return "America/Chicago";
  return isUsDomestic(location.country.trim().toUpperCase()) ? stateTimeZone(location.state.trim()) : "UTC";
}

const weekday = (day: string) => new Date(`${day}T12:00:00.000Z`).getUTCDay();
const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

function refusal(rule: CourierPickupRule, day: string, now: Date, zone: string): string | undefined {
  const today = localDay(now, zone);
  if (day < today) return `${day} is in the past`;
  if (day === today && now.getTime() >= localInstant(day, rule.sameDayCutoff, zone).getTime()) {
    return `same-day pickups can be booked until ${clock(rule.sameDayCutoff)} local time`;
  }
  if (rule.maxDaysAhead !== undefined && day > addDays(today, rule.maxDaysAhead)) {
    return `pickups can be booked up to ${rule.maxDaysAhead} days ahead`;
  }
  if (weekday(day) === 0 || weekday(day) === 6) return `${rule.carrierName} picks up Monday to Friday`;
  return undefined;
}

/** Whether the courier comes on `pickupDate`; when not, why, and the next day it does. */
export function courierAvailability(
  rule: CourierPickupRule,
  pickupDate: string,
  now: Date,
  location?: Pick<CarrierAddress, "country" | "state">,
): PickupAvailability {
  const zone = pickupTimeZone(location);
  const reason = refusal(rule, pickupDate, now, zone);
  if (!reason) return { available: true, reason: null, pickupDate };
  const today = localDay(now, zone);
  const beyond = rule.maxDaysAhead !== undefined && pickupDate > addDays(today, rule.maxDaysAhead);
  // Days are YYYY-MM-DD text: the later of the two, compared as text. Within a week a weekday comes.
  let next = beyond ? today : ([pickupDate, today].sort()[1] as string);
  while (refusal(rule, next, now, zone)) next = addDays(next, 1);
  return {
    available: false,
    reason: `${rule.carrierName} cannot pick up on ${pickupDate}: ${reason}`,
    pickupDate: next,
  };
}

/** The local offset from UTC of a zone at an instant on `day` (minutes after midnight). */
function utcOffset(day: string, minuteOfDay: number, zone: string): string {
  const wall = Date.parse(`${day}T00:00:00.000Z`) + minuteOfDay * 60_000;
  const minutes = Math.round((wall - localInstant(day, minuteOfDay, zone).getTime()) / 60_000);
  const sign = minutes < 0 ? "-" : "+";
  return `${sign}${clock(Math.abs(minutes))}`;
}

/**
 * The window to book on `pickupDate`: from the rule's ready time, or from now (to the next quarter
 * hour) on a same-day pickup booked later than that; closing at the rule's close time.
 */
export function pickupWindow(
  rule: Pick<CourierPickupRule, "readyAt" | "closeAt">,
  pickupDate: string,
  now: Date,
  location: Pick<CarrierAddress, "country" | "state">,
): PickupWindow {
  const zone = pickupTimeZone(location);
  let ready = rule.readyAt;
  if (localDay(now, zone) === pickupDate) {
    const midnight = localInstant(pickupDate, 0, zone).getTime();
    const minutesNow = Math.ceil((now.getTime() - midnight) / 60_000 / 15) * 15;
    ready = Math.min(Math.max(ready, minutesNow), rule.closeAt - HOUR);
  }
  return {
    readyTime: clock(ready),
    closeTime: clock(rule.closeAt),
    utcOffset: utcOffset(pickupDate, ready, zone),
    timeZone: zone,
  };
}
