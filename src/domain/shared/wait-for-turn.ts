import type { DomainServices } from "../services.js";

/** The fallback between looks when no signal comes: from 25 ms, doubling, to 2 s at most. */
const FIRST_PAUSE_MS = 25;
const LONGEST_PAUSE_MS = 2_000;

/**
 * Looks with `look` until it finds a value, waiting between looks for a signal on `topic` (sent by
 * whoever finishes what is waited for) or, when none comes (another process on SQLite, a lost
 * PostgreSQL connection), for a pause that grows to two seconds; undefined once `limitMs` of the
 * service clock have passed. A request waiting
 * 30 s without a signal so looks some twenty times.
 */
export async function waitForTurn<T>(
  services: Pick<DomainServices, "clock" | "wakeUps">,
  topic: string,
  limitMs: number,
  look: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const { clock } = services;
  // Listening starts before the first look, so a signal sent between a look and the wait counts.
  const watch = await services.wakeUps.watch(topic);
  try {
    const deadline = clock.now().getTime() + limitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      const found = await look();
      if (found !== undefined) return found;
      const left = deadline - clock.now().getTime();
      if (left <= 0) return undefined;
      await watch.next(clock, Math.min(pause, left));
    }
  } finally {
    watch.stop();
  }
}
