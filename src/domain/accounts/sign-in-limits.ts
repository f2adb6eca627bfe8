import { BoundedMap } from "../../bounded-map.js";
import { DomainError } from "../errors.js";

interface Window {
  startedMs: number;
  failures: number;
}

/** Failed sign-ins allowed in a window, per email address and per client address. */
export const SIGN_IN_LIMITS = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 };

/**
 * Counts failed sign-ins (passwords and links) per email and per client address in fixed windows,
 * so guessing a password costs a window per five tries. Held by the process: each process of a
 * deployment counts its own tries.
 */
export class SignInLimiter {
  readonly #windows = new BoundedMap<string, Window>(100_000);

  /** Refuses (429) when any of `keys` has used up its window. */
  check(keys: readonly { key: string; limit: number }[], nowMs: number): void {
    for (const { key, limit } of keys) {
      const window = this.#current(key, nowMs);
      if (window && window.failures >= limit) {
        const seconds = Math.max(1, Math.ceil((window.startedMs + SIGN_IN_LIMITS.windowMs - nowMs) / 1000));
        throw new DomainError(
          "session.too_many_attempts",
          `Too many failed sign-ins; try again in ${seconds} seconds.`,
          seconds,
        );
      }
    }
  }

  fail(keys: readonly { key: string }[], nowMs: number): void {
    for (const { key } of keys) {
      const window = this.#current(key, nowMs) ?? { startedMs: nowMs, failures: 0 };
      window.failures += 1;
      this.#windows.set(key, window);
    }
  }

  #current(key: string, nowMs: number): Window | undefined {
    const window = this.#windows.get(key);
    return window && nowMs - window.startedMs < SIGN_IN_LIMITS.windowMs ? window : undefined;
  }
}
