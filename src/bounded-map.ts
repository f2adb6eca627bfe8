/**
 * A map that starts over once it holds `limit` entries. Meant for remembered answers, where
 * forgetting costs one recomputation and an unbounded map would grow with whatever callers ask.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
