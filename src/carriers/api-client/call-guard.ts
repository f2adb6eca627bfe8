import type { Clock } from "../../clock.js";

/** What a call to a carrier is for: one of the carrier APIs Porter reports, or the token call. */
export type CarrierCallPurpose = "rate" | "label" | "manifest" | "tracking" | "pickup" | "address" | "auth";

const HOUR_MS = 60 * 60_000;
/** Consecutive failures (timeouts, 5xx, unanswered 429s) that open an API's breaker. */
const FAILURES_TO_OPEN = 5;
/** How long an open breaker refuses calls before one is let through to try the carrier again. */
const OPEN_MS = 60_000;

/** What taking one call from an hourly budget answered: the calls counted now, and when to retry if refused. */
export interface CallTaken {
  callsLastHour: number;
  /** Set when the budget was spent: the call was not counted. */
  refusedUntil?: Date;
}

/**
 * Where budgeted calls are counted. The database's counter is shared by every Porter process on
 * one database, so a carrier's hourly allowance holds for the deployment; the in-memory one is
 * for a guard alone (tests, a connection opened only to be verified).
 */
export interface CallCounter {
  /** Counts one call of `budget`'s `purpose` if fewer than `limit` were counted in the hour before `now`. */
  take(budget: string, purpose: CarrierCallPurpose, limit: number, now: Date): Promise<CallTaken>;
}

/** Exact call times kept in this process. */
export class MemoryCallCounter implements CallCounter {
  readonly #calls = new Map<string, number[]>();

  async take(budget: string, purpose: CarrierCallPurpose, limit: number, now: Date): Promise<CallTaken> {
    const key = `${budget}\u0000${purpose}`;
    const since = now.getTime() - HOUR_MS;
    const calls = (this.#calls.get(key) ?? []).filter((at) => at > since);
    this.#calls.set(key, calls);
    if (calls.length >= limit) {
      return { callsLastHour: calls.length, refusedUntil: new Date((calls[0] as number) + HOUR_MS) };
    }
    calls.push(now.getTime());
    return { callsLastHour: calls.length };
  }
}

export interface CallGuardOptions {
  clock: Clock;
  /** Calls per hour each API allows this connection (USPS grants 60 by default); absent: no limit. */
  callsPerHour?: Partial<Record<CarrierCallPurpose, number>>;
  /** Where budgeted calls are counted; a counter of this guard's own by default. */
  counter?: CallCounter;
  /** Whose allowance the budget is (the carrier's app and mode): guards with the same one share it. */
  budget?: string;
}

/** Why a call was not made: the budget is spent or the breaker is open, until `retryAt`. */
export interface CallRefusal {
  reason: "budget" | "breaker";
  retryAt: Date;
}

/** One API of a connection as `GET /status` reports it. */
export interface CarrierApiHealth {
  purpose: CarrierCallPurpose;
  /** As the counter answered this process's last call to the API. */
  callsLastHour: number;
  callsPerHour: number | null;
  breaker: "closed" | "open";
  /** When an open breaker lets the next call through. */
  openUntil: Date | null;
  /** The last failure's words, while the breaker is open. */
  lastFailure: string | null;
}

interface ApiState {
  /** Budgeted calls in the last hour as the counter last answered. */
  calls: number;
  failures: number;
  openUntil: number;
  lastFailure: string | null;
}

/**
 * A connection's manners with its carrier: a sliding hourly call budget per API (the tracking job
 * plans within it), and a circuit breaker per API so a failing carrier is not hammered and shows
 * as degraded instead. Budgets are counted by the counter given (across processes, on the
 * database); an API without a limit never touches it. The breaker stays in this process: it
 * reacts to the failures this process sees, and a process whose network to the carrier is
 * broken should not stop the others.
 */
export class CallGuard {
  readonly #apis = new Map<CarrierCallPurpose, ApiState>();
  readonly #counter: CallCounter;

  constructor(private readonly options: CallGuardOptions) {
    this.#counter = options.counter ?? new MemoryCallCounter();
  }

  #state(purpose: CarrierCallPurpose): ApiState {
    let state = this.#apis.get(purpose);
    if (!state) {
      state = { calls: 0, failures: 0, openUntil: 0, lastFailure: null };
      this.#apis.set(purpose, state);
    }
    return state;
  }

  /** Takes one call from the budget, or says why the call may not be made now. */
  async admit(purpose: CarrierCallPurpose): Promise<CallRefusal | undefined> {
    const now = this.options.clock.now();
    const state = this.#state(purpose);
    if (state.openUntil > now.getTime()) return { reason: "breaker", retryAt: new Date(state.openUntil) };
    const limit = this.options.callsPerHour?.[purpose];
    if (limit === undefined) return undefined;
    const taken = await this.#counter.take(this.options.budget ?? "", purpose, limit, now);
    state.calls = taken.callsLastHour;
    return taken.refusedUntil ? { reason: "budget", retryAt: taken.refusedUntil } : undefined;
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
        callsLastHour: state.calls,
        callsPerHour: this.options.callsPerHour?.[purpose] ?? null,
        breaker: open ? "open" : "closed",
        openUntil: open ? new Date(state.openUntil) : null,
        lastFailure: open ? state.lastFailure : null,
      };
    });
  }
}
