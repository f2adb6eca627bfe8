import { LRUCache } from "lru-cache";

/**
 * The one bounded cache of the process (remembered rate questions and answers, connections,
 * delivery calendars, prepared statements, decoded images, glyph atlases, stamps): once it holds
 * `limit` entries it forgets the least recently used, where forgetting costs one recomputation and
 * an unbounded map would grow with whatever callers ask. It is lru-cache's: our own map (emptied
 * when full, or forgetting its oldest entry) was less than twice as fast on hits and, forgetting
 * its oldest, many times slower once full, where V8 steps over every deleted entry to find the
 * oldest (docs/performance.md).
 * Values cannot be undefined (a miss); keep `false` for a remembered "none".
 */
export class BoundedMap<K extends NonNullable<unknown>, V extends NonNullable<unknown>> extends LRUCache<K, V> {
  constructor(limit: number) {
    super({ max: limit });
  }
}
