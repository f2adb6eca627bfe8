/**
 * Code 128 (ISO/IEC 15417) and GS1-128 symbols as bar and space widths. Encoding a tracking
 * number through bwip-js's PostScript interpreter took half the time of a whole thermal label;
 * this is the same symbology in a table and a shortest-path choice of code sets.
 */

/** Bar/space widths of symbol values 0–106 (106 is the stop pattern with its final bar). */
const PATTERNS = (
  "212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 " +
  "122231 113222 123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 " +
  "322112 322211 212123 212321 232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 " +
  "112133 112331 132131 113123 113321 133121 313121 211331 231131 213113 213311 213131 311123 311321 " +
  "331121 312113 312311 332111 314111 221411 431111 111224 111422 121124 121421 141122 141221 112214 " +
  "112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 111242 121142 121241 114212 " +
  "124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 114311 411113 " +
  "411311 113141 114131 311141 411131 211412 211214 211232 2331112"
)
  .split(" ")
  .map((pattern) => [...pattern].map(Number));

const FNC1 = 102;
const STOP = 106;
type CodeSet = 0 | 1 | 2; // A, B, C
const SETS: readonly CodeSet[] = [0, 1, 2];
/** Where two choices are as short: C, then B, then A. */
const PREFERRED: readonly CodeSet[] = [2, 1, 0];
const START: Record<CodeSet, number> = { 0: 103, 1: 104, 2: 105 };
/** The value that switches from one set (row) to another (column). */
const SWITCH: Record<CodeSet, Record<CodeSet, number>> = {
  0: { 0: -1, 1: 100, 2: 99 },
  1: { 0: 101, 1: -1, 2: 99 },
  2: { 0: 101, 1: 100, 2: -1 },
};

/** A character to encode, or FNC1 (`null`). */
type Token = number | null;

const isDigit = (token: Token | undefined) => token !== null && token !== undefined && token >= 48 && token <= 57;

/** The value of one character in set A or B, or undefined when the set lacks it. */
function valueIn(set: CodeSet, code: number): number | undefined {
  if (set === 0) return code < 32 ? code + 64 : code < 96 ? code - 32 : undefined;
  return code >= 32 && code < 128 ? code - 32 : undefined;
}

const SHIFT = 98;

/**
 * What encoding token i costs when in `set`, staying in it: one symbol, two for a character of
 * the other of sets A and B behind a shift, Infinity when the set cannot carry it.
 */
function stayCost(tokens: readonly Token[], cost: Float64Array, i: number, set: CodeSet): number {
  const token = tokens[i] as Token;
  const after = (k: number) => cost[k * 3 + set] as number;
  if (token === null) return 1 + after(i + 1);
  if (set === 2) return isDigit(token) && isDigit(tokens[i + 1]) ? 1 + after(i + 2) : Infinity;
  if (valueIn(set, token) !== undefined) return 1 + after(i + 1);
  return valueIn(set === 0 ? 1 : 0, token) === undefined ? Infinity : 2 + after(i + 1);
}

/** Symbol values, start to check character, with the fewest symbols (code sets chosen by shortest path). */
function symbolValues(tokens: readonly Token[]): number[] {
  const n = tokens.length;
  // cost[i * 3 + s]: symbols needed for tokens i… when in set s, switches included.
  const cost = new Float64Array((n + 1) * 3);
  const direct = [0, 0, 0];
  for (let i = n - 1; i >= 0; i--) {
    for (const set of SETS) direct[set] = stayCost(tokens, cost, i, set);
    for (const set of SETS) {
      let best = direct[set] as number;
      for (const other of SETS) if (other !== set) best = Math.min(best, 1 + (direct[other] as number));
      cost[i * 3 + set] = best;
    }
  }
  // Start in set C when it is as short, else B, else A.
  let set = PREFERRED.reduce((best, s) => ((cost[s] as number) < (cost[best] as number) ? s : best), 2 as CodeSet);
  if (!Number.isFinite(cost[set])) throw new RangeError("Code 128 cannot carry these characters");
  const values = [START[set]];
  for (let i = 0; i < n; ) {
    const needed = cost[i * 3 + set] as number;
    if (stayCost(tokens, cost, i, set) !== needed) {
      const next = PREFERRED.find((s) => s !== set && 1 + stayCost(tokens, cost, i, s) === needed) as CodeSet;
      values.push(SWITCH[set][next]);
      set = next;
    }
    const token = tokens[i] as Token;
    if (token === null) {
      values.push(FNC1);
      i += 1;
    } else if (set === 2) {
      values.push((token - 48) * 10 + ((tokens[i + 1] as number) - 48));
      i += 2;
    } else {
      const value = valueIn(set, token);
      if (value === undefined) values.push(SHIFT, valueIn(set === 0 ? 1 : 0, token) as number);
      else values.push(value);
      i += 1;
    }
  }
  const check = values.reduce((sum, value, position) => sum + value * Math.max(position, 1), 0) % 103;
  return [...values, check];
}

/** Bar and space widths in modules, from the start character's first bar to the stop's last. */
function widthsOf(tokens: readonly Token[]): number[] {
  return [...symbolValues(tokens), STOP].flatMap((value) => PATTERNS[value] as number[]);
}

export function code128Widths(data: string): number[] {
  return widthsOf([...data].map((char) => char.charCodeAt(0)));
}

/** GS1-128: FNC1 before each element string (AI and its value). */
export function gs1128Widths(elements: readonly string[]): number[] {
  return widthsOf(elements.flatMap((element) => [null, ...[...element].map((char) => char.charCodeAt(0))]));
}
