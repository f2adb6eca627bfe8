import type { Clock } from "../../clock.js";

/** What a call to a carrier is for: one of the carrier APIs Porter reports, or the token call. */
export type CarrierCallPurpose = "rate" | "label" | "manifest" | "tracking" | "pickup" | "address" | "auth";

const HOUR_MS = 60 * 60_000;
/** Consecutive failures (timeouts, 5xx, unanswered 429s) that open an API's breaker. */
const FAILURES_TO_OPEN = 5;
/** How long an open breaker refuses calls before one is let through to try the carrier again. */
const OPEN_MS = 60_000;

export interface CallGuardOptions {
  clock: Clock;
  /** Calls per hour each API allows this connection (USPS grants 60 by default); absent: no limit. */
  callsPerHour?: Partial<Record<CarrierCallPurpose, number>>;
}

/** Why a call was not made: the budget is spent or the breaker is open, until `retryAt`. */
export interface CallRefusal {
  reason: "budget" | "breaker";
  retryAt: Date;
}

/** One API of a connection as `GET /status` reports it. */
export interface CarrierApiHealth {
  purpose: CarrierCallPurpose;
  callsLastHour: number;
  callsPerHour: number | null;
  breaker: "closed" | "open";
  /** When an open breaker lets the next call through. */
  openUntil: Date | null;
  /** The last failure's words, while the breaker is open. */
  lastFailure: string | null;
}

interface ApiState {
  calls: number[];
  failures: number;
  openUntil: number;
  lastFailure: string | null;
}

/**
 * A connection's manners with its carrier: a sliding hourly call budget per API (the tracking job
 * plans within it), and a circuit breaker per API so a failing carrier is not hammered and shows
 * as degraded instead.
 */
export class CallGuard {
  readonly #apis = new Map<CarrierCallPurpose, ApiState>();

  constructor(private readonly options: CallGuardOptions) {}

  #state(purpose: CarrierCallPurpose): ApiState {
    let state = this.#apis.get(purpose);
    if (!state) {
      state = { calls: [], failures: 0, openUntil: 0, lastFailure: null };
      this.#apis.set(purpose, state);
    }
    const since = this.options.clock.now().getTime() - HOUR_MS;
    while (state.calls.length > 0 && (state.calls[0] as number) <= since) state.calls.shift();
    return state;
  }

  /** Takes one call from the budget, or says why the call may not be made now. */
  admit(purpose: CarrierCallPurpose): CallRefusal | undefined {
    const now = this.options.clock.now().getTime();
    const state = this.#state(purpose);
    if (state.openUntil > now) return { reason: "breaker", retryAt: new Date(state.openUntil) };
    const limit = this.options.callsPerHour?.[purpose];
    if (limit !== undefined && state.calls.length >= limit) {
      return { reason: "budget", retryAt: new Date((state.calls[0] as number) + HOUR_MS) };
    }
    state.calls.push(now);
    return undefined;
  }

  /** Calls left in this hour's budget, or null when the API has no limit. */
  remaining(purpose: CarrierCallPurpose): number | null {
    const limit = this.options.callsPerHour?.[purpose];
    return limit === undefined ? null : Math.max(0, limit - this.#state(purpose).calls.length);
  }

  succeeded(purpose: CarrierCallPurpose): void {
    const state = this.#state(purpose);
    state.failures = 0;
    state.openUntil = 0;
    state.lastFailure = null;
  }

  failed(purpose: CarrierCallPurpose, words: string): void {
    const state = this.#state(purpose);
    state.failures += 1;
    state.lastFailure = words;
    if (state.failures >= FAILURES_TO_OPEN) state.openUntil = this.options.clock.now().getTime() + OPEN_MS;
  }

  health(): CarrierApiHealth[] {
    const now = this.options.clock.now().getTime();
    const budgeted = Object.keys(this.options.callsPerHour ?? {}) as CarrierCallPurpose[];
    return [...new Set([...budgeted, ...this.#apis.keys()])].map((purpose) => {
      const state = this.#state(purpose);
      const open = state.openUntil > now;
      return {
        purpose,
        callsLastHour: state.calls.length,
        callsPerHour: this.options.callsPerHour?.[purpose] ?? null,
        breaker: open ? "open" : "closed",
        openUntil: open ? new Date(state.openUntil) : null,
        lastFailure: open ? state.lastFailure : null,
      };
    });
  }
}
