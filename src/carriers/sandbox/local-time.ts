import { addDays } from "./carrier-calendar.js";

/** Local calendar arithmetic for carriers, whose days, cut-offs and scans run on local time. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall-clock reading of an instant in a zone, as if it were UTC (for offset arithmetic). */
function wallClockMs(instant: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    partsFormat(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
  );
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone. */
export function localDay(instant: Date, timeZone: string): string {
  return new Date(wallClockMs(instant, timeZone)).toISOString().slice(0, 10);
}

/**
 * The instant a zone's clocks read `minuteOfDay` (minutes after midnight) on `day`. A reading that
 * does not exist that day (spring forward) is taken an hour later, as carriers' schedules do.
 */
export function localInstant(day: string, minuteOfDay: number, timeZone: string): Date {
  const wanted = Date.parse(`${day}T00:00:00.000Z`) + minuteOfDay * 60_000;
  for (const guessOffset of [0, 1, -1]) {
    let candidate = new Date(wanted);
    for (let i = 0; i < 2; i++) {
      candidate = new Date(wanted - (wallClockMs(candidate, timeZone) - candidate.getTime()) + guessOffset * 3_600_000);
      if (wallClockMs(candidate, timeZone) === wanted) return candidate;
    }
  }
  return localInstant(day, minuteOfDay + 60, timeZone);
}

/** Whether the carrier works that day: USPS Monday to Saturday, the others Monday to Friday. */
export function isCarrierWorkday(day: string, carrier: string): boolean {
  const weekday = new Date(`${day}T12:00:00.000Z`).getUTCDay();
  return weekday !== 0 && (weekday !== 6 || carrier === "usps");
}

/** The date after `deliveryDays` of the carrier's delivery days from `day`. Holidays are not modelled. */
export function countDeliveryDays(day: string, deliveryDays: number, carrier: string): string {
  let date = day;
  let left = deliveryDays;
  while (left > 0) {
    date = addDays(date, 1);
    if (isCarrierWorkday(date, carrier)) left -= 1;
  }
  return date;
}
