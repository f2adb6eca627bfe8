/** Time source injected wherever time matters, so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
  /** Resolves once `ms` of this clock's time have passed, or at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
    }),
};

interface Sleeper {
  at: number;
  wake: () => void;
}

/** A clock that only moves when told to; for tests and the sandbox's time controls. */
export class ManualClock implements Clock {
  #ms: number;
  #sleepers = new Set<Sleeper>();

  constructor(start: Date | string = "2026-01-15T15:00:00.000Z") {
    this.#ms = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  /** Sleeps until the clock is moved past `ms` from now. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const sleeper: Sleeper = {
        at: this.#ms + ms,
        wake: () => {
          this.#sleepers.delete(sleeper);
          signal?.removeEventListener("abort", sleeper.wake);
          resolve();
        },
      };
      this.#sleepers.add(sleeper);
      signal?.addEventListener("abort", sleeper.wake, { once: true });
    });
  }

  /** When the earliest sleeper wakes; undefined while nobody sleeps on this clock. */
  nextWake(): Date | undefined {
    const times = [...this.#sleepers].map((sleeper) => sleeper.at);
    return times.length === 0 ? undefined : new Date(Math.min(...times));
  }

  advance(ms: number): void {
    this.#ms += ms;
    this.#wakeDue();
  }

  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
    this.#wakeDue();
  }

  #wakeDue(): void {
    for (const sleeper of [...this.#sleepers]) if (sleeper.at <= this.#ms) sleeper.wake();
  }
}
