import type { PickupAvailability, PickupCapability } from "../carrier.js";
import { addDays, centralDateAndHour, federalHoliday, isSunday } from "../sandbox/carrier-calendar.js";
import { serialField } from "../sandbox/check-digits.js";

/** Same-day pickups can be booked until 02:00 Central on the day (USPS Carrier Pickup API). */
const SAME_DAY_CUTOFF_HOUR = 2;
const MAX_DAYS_AHEAD = 365;

/** Why USPS does not come on `day`, judged from `today` and the Central hour now; undefined when it does. */
function refusal(day: string, today: string, hour: number): string | undefined {
  if (day < today) return `${day} is in the past`;
  if (day === today && hour >= SAME_DAY_CUTOFF_HOUR) {
    return "same-day pickups can be booked until 2:00 AM Central Time on the day";
  }
  if (day > addDays(today, MAX_DAYS_AHEAD)) return "pickups can be booked up to one year ahead";
  if (isSunday(day)) return "USPS does not pick up on Sundays";
  const holiday = federalHoliday(day);
  if (holiday) return `USPS does not pick up on ${holiday}, a federal holiday`;
  return undefined;
}

/** USPS Package Pickup, Monday to Saturday outside federal holidays. */
export const uspsPickups: PickupCapability = {
  availability(pickupDate, now): PickupAvailability {
    const { date: today, hour } = centralDateAndHour(now);
    const reason = refusal(pickupDate, today, hour);
    if (!reason) return { available: true, reason: null, pickupDate };
    // Days are YYYY-MM-DD text: the later of the two, compared as text.
    let next = [pickupDate, today].sort()[1] as string;
    while (refusal(next, today, hour) && next <= addDays(today, MAX_DAYS_AHEAD)) next = addDays(next, 1);
    return { available: false, reason: `USPS cannot pick up on ${pickupDate}: ${reason}`, pickupDate: next };
  },
  // USPS confirmation numbers read like `WTC` and digits.
  async schedule(request) {
    return { confirmationNumber: `WTC${serialField(request.serial, 9)}` };
  },
  async cancel() {},
};
