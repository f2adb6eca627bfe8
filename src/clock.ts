/** Time source injected wherever time matters, so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests and the sandbox's time controls. */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: Date | string = "2026-01-15T15:00:00.000Z") {
    this.#ms = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  advance(ms: number): void {
    this.#ms += ms;
  }

  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
  }
}
