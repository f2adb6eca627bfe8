import { localInstant } from "../../carriers/sandbox/local-time.js";

/**
 * The instant of `hour`:00 US Central time on `day` (YYYY-MM-DD), standard or daylight time as it
 * applies that day: postal close-out is at 02:00 Central. An hour that does not exist that day
 * (spring forward) is taken an hour later.
 */
export function centralTimeInstant(day: string, hour: number): Date {
  return localInstant(day, hour * 60, "America/Chicago");
}
