/**
 * A small deterministic random source (mulberry32 seeded with an FNV-1a hash of a text), so a
 * sandbox parcel's journey is the same every time it is computed, on every process.
 */
export interface SeededRandom {
  /** A number in [0, 1). */
  next(): number;
  /** A whole number in [min, max]. */
  between(min: number, max: number): number;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function seededRandom(seed: string): SeededRandom {
  let state = fnv1a(seed);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, between: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}
