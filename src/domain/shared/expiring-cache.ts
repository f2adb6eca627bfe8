import { BoundedMap } from "../../bounded-map.js";

/**
 * A small in-process cache whose entries expire after `ttlMs` by the caller's clock. Several API
 * processes each keep their own, so a change made elsewhere shows here within `ttlMs`; changes
 * made in this process `forget` the entry at once.
 */
export class ExpiringCache<K extends NonNullable<unknown>, V> {
  readonly #entries: BoundedMap<K, { value: V; until: number }>;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 10_000,
  ) {
    this.#entries = new BoundedMap(maxEntries);
  }

  get(key: K, nowMs: number): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until > nowMs) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, nowMs: number): void {
    this.#entries.set(key, { value, until: nowMs + this.ttlMs });
  }

  /** The cached value, or the loaded one (then cached). */
  async getOrLoad(key: K, nowMs: number, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key, nowMs);
    if (cached !== undefined) return cached;
    const value = await load();
    this.set(key, value, nowMs);
    return value;
  }

  forget(...keys: K[]): void {
    for (const key of keys) this.#entries.delete(key);
  }

  /** Drops every entry whose value matches; for the rare change that is known by value, not key. */
  forgetWhere(matches: (value: V) => boolean): void {
    const gone = [...this.#entries].filter(([, entry]) => matches(entry.value)).map(([key]) => key);
    for (const key of gone) this.#entries.delete(key);
  }
}
