const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How often a parcel's tracking is read, by its age since the label: often while it is young and
 * events come quickly, less as it ages (a parcel still moving after a week moves slowly), never
 * after 60 days, when carriers themselves stop answering for a number.
 */
const SCHEDULE: readonly [maxAgeMs: number, everyMs: number][] = [
  [DAY, 30 * MINUTE],
  [3 * DAY, HOUR],
  [7 * DAY, 3 * HOUR],
  [14 * DAY, 6 * HOUR],
  [60 * DAY, 12 * HOUR],
];

/** Tracking is no longer read for a parcel this old. */
export const TRACKING_GIVE_UP_AFTER_MS = 60 * DAY;

/**
 * When to read a parcel's tracking next, or null to stop. A carrier that says when its next event
 * is due (the sandbox does) is read then if that is sooner; `timeScale` shortens the schedule for
 * a sandbox running faster than the clock.
 */
export function nextRefreshAt(labelCreatedAt: Date, now: Date, nextEventAt: Date | null, timeScale = 1): Date | null {
  const age = (now.getTime() - labelCreatedAt.getTime()) * timeScale;
  const step = SCHEDULE.find(([maxAge]) => age < maxAge);
  if (!step) return null;
  let at = now.getTime() + Math.max(1000, Math.round(step[1] / timeScale));
  if (nextEventAt && nextEventAt.getTime() > now.getTime()) at = Math.min(at, nextEventAt.getTime());
  return new Date(at);
}
