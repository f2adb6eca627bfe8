const hourInChicago = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Chicago",
  hour: "numeric",
  hourCycle: "h23",
});

/**
 * The instant of `hour`:00 US Central time on `day` (YYYY-MM-DD), standard or daylight time as it
 * applies that day: postal close-out is at 02:00 Central.
 */
export function centralTimeInstant(day: string, hour: number): Date {
  for (const offsetHours of [6, 5]) {
    const candidate = new Date(`${day}T${String(hour).padStart(2, "0")}:00:00.000Z`);
    candidate.setUTCHours(candidate.getUTCHours() + offsetHours);
    if (Number(hourInChicago.format(candidate)) === hour) return candidate;
  }
  // The hour does not exist that day (spring forward); the close-out happens an hour later.
  return centralTimeInstant(day, hour + 1);
}
