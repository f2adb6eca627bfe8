import federalHolidays from "@18f/us-federal-holidays";

/** Carriers count days on US Central time (postal cut-offs and close-out are Central). */
const centralParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Chicago",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "numeric",
  hourCycle: "h23",
});

/** The date (YYYY-MM-DD) and hour on US Central time at an instant. */
export function centralDateAndHour(now: Date): { date: string; hour: number } {
  const parts = Object.fromEntries(centralParts.formatToParts(now).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function isSunday(day: string): boolean {
  return new Date(`${day}T12:00:00.000Z`).getUTCDay() === 0;
}

const holidaysByYear = new Map<number, Map<string, string>>();

/** The federal holiday observed on `day` (a weekend holiday moves to the Friday or Monday), if any. */
export function federalHoliday(day: string): string | undefined {
  const year = Number(day.slice(0, 4));
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    holidays = new Map();
    // A holiday observed on 31 December belongs to the next year's list (New Year's Day on a Saturday).
    for (const holiday of [...federalHolidays.allForYear(year), ...federalHolidays.allForYear(year + 1)]) {
      holidays.set(holiday.date.toISOString().slice(0, 10), holiday.name);
    }
    holidaysByYear.set(year, holidays);
  }
  return holidays.get(day);
}
