/**
 * A MaxiCode message as codewords in code sets A–E (ISO/IEC 16023 §4.3). The latches and shifts
 * are chosen as BWIPP (bwip-js) chooses them — a shortest path over the five sets, ties going the
 * way its search goes — so the symbols are the very ones bwip-js drew.
 */

const A = 0;
const B = 1;
const C = 2;
const D = 3;
const E = 4;
const SETS = 5;

/** A codeword that is no character: ECI, pad, numeric shift, shifts and latches. */
const X = -1;
const run = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);
const none = (count: number) => new Array<number>(count).fill(X);

/** Codewords 48–63 of sets C, D and E: ten characters from `first`, a latch, space, shifts. */
const upperTail = (first: number) => [...run(first, 10), X, 32, ...none(4)];

/** The byte each codeword 0–63 stands for in code sets A–E (ISO/IEC 16023 Table 1, as in BWIPP). */
const CODE_SET_BYTES: readonly (readonly number[])[] = [
  [13, ...run(65, 26), X, 28, 29, 30, X, 32, X, ...run(34, 25), ...none(5)],
  [
    ...[96, ...run(97, 26), X, 28, 29, 30, X, 123, X, 125, 126, 127, 59, 60, 61, 62, 63, 91, 92, 93, 94, 95],
    ...[32, 44, 46, 47, 58, 64, 33, 124, ...none(9)],
  ],
  [
    ...[...run(192, 27), X, 28, 29, 30, X, ...run(219, 5), 170, 172, 177, 178, 179, 181, 185, 186, 188, 189, 190],
    ...upperTail(128),
  ],
  [
    ...[...run(224, 27), X, 28, 29, 30, X, ...run(251, 5), 161, 168, 171, 175, 176, 180, 183, 184, 187, 191, 138],
    ...upperTail(139),
  ],
  [
    ...[...run(0, 27), X, X, X, 27, X, 28, 29, 30, 31, 159, 160, 162, 163, 164, 165, 166, 167, 169, 173, 174, 182],
    ...upperTail(149),
  ],
];

/** The codeword for byte b in set s at s × 256 + b, −1 where the set lacks it. */
const CODEWORD = new Int8Array(5 * 256).fill(-1);
CODE_SET_BYTES.forEach((bytes, set) => {
  bytes.forEach((byte, codeword) => {
    if (byte >= 0) CODEWORD[set * 256 + byte] = codeword;
  });
});

const codeword = (set: number, byte: number) => CODEWORD[set * 256 + byte] as number;
const inSet = (set: number, byte: number) => codeword(set, byte) >= 0;

const NUMERIC_SHIFT = 31;
const LATCH_A = 58;
const SHIFT_A_OR_B = 59;
/** Shift to A for the next 1, 2 or 3 characters (from B). */
const SHIFT_A = [0, SHIFT_A_OR_B, 56, 57];
/** Shift into C, D or E; twice is a lock (latch). */
const SHIFT_INTO = [0, 0, 60, 61, 62];
const LATCH_B = 63;
/** Pad codeword of the set the message ends in (C and D latch back to A first). */
const PAD_OF_SET = [33, 33, 0, 0, 28];

/** LATCH[to][from]: the codewords that change the current code set (a shift twice locks C, D, E). */
const LATCH: readonly (readonly (readonly number[])[])[] = [
  [[], [LATCH_B], [LATCH_A], [LATCH_A], [LATCH_A]],
  [[LATCH_B], [], [LATCH_B], [LATCH_B], [LATCH_B]],
  ...[C, D, E].map((to) => {
    const lock = SHIFT_INTO[to] as number;
    return [A, B, C, D, E].map((from) => (from === to ? [] : [lock, lock]));
  }),
];
const LATCH_COST = Uint8Array.from(LATCH.flat(), (codewords) => codewords.length);
const latchCost = (to: number, from: number) => LATCH_COST[to * SETS + from] as number;

type Kind = "numeric" | "direct" | "shiftA" | "shift";

/** One way to take characters from a code set; `from` is a bit mask of the sets it is used in. */
interface Operation {
  kind: Kind;
  /** The set whose characters it writes. */
  set: number;
  intake: number;
  /** Codewords written (a latch before it costs extra). */
  cost: number;
  from: number;
}

const ALL = 0b11111;
const only = (set: number) => 1 << set;

/** BWIPP's operations in its order, which decides between equally short encodings. */
const OPERATIONS: readonly Operation[] = [
  { kind: "numeric", set: A, intake: 9, cost: 6, from: ALL },
  ...[A, B, C, D, E].map((set): Operation => ({ kind: "direct", set, intake: 1, cost: 1, from: only(set) })),
  ...[1, 2, 3].map((intake): Operation => ({ kind: "shiftA", set: A, intake, cost: intake + 1, from: only(B) })),
  { kind: "shift", set: B, intake: 1, cost: 2, from: only(A) },
  ...[C, D, E].map((set): Operation => ({ kind: "shift", set, intake: 1, cost: 2, from: ALL & ~only(set) })),
];
/** The operations used in each set, in BWIPP's order. */
const OPERATIONS_IN = [A, B, C, D, E].map((set) => OPERATIONS.filter((operation) => operation.from & only(set)));

/** Longer than any path: a set that cannot take the character here. */
const UNREACHABLE = 0x7fffffff;

export interface EncodedText {
  codewords: number[];
  /** The codeword that fills the rest of the symbol. */
  pad: number;
}

/**
 * The sets BWIPP searches: A, then B, E, C, D when the message has a character of theirs (FS,
 * GS, RS and space, which A has, do not count). Encodings through other sets are never considered.
 */
function searchedSets(bytes: readonly number[]): number[] {
  const seen = [false, false, false, false, false];
  for (const byte of bytes) {
    if ((byte >= 28 && byte <= 30) || byte === 32) continue;
    for (let set = B; set < SETS; set++) if (inSet(set, byte)) seen[set] = true;
  }
  return [A, B, E, C, D].filter((set) => set === A || seen[set]);
}

/** Whether `operation` can take the bytes ending with `byte` (after `digits` digits, `runA` set A bytes). */
function applies(operation: Operation, byte: number, digits: number, runA: number): boolean {
  switch (operation.kind) {
    case "numeric":
      return digits >= 9;
    case "shiftA":
      return runA >= operation.intake;
    default:
      return inSet(operation.set, byte);
  }
}

/** Appends the codewords of `operation` taking the bytes from `at`. */
function write(operation: Operation, bytes: readonly number[], at: number, out: number[]): void {
  const byte = bytes[at] as number;
  switch (operation.kind) {
    case "numeric": {
      let value = 0;
      for (let i = at; i < at + 9; i++) value = value * 10 + (bytes[i] as number) - 48;
      out.push(NUMERIC_SHIFT, value >>> 24, (value >>> 18) & 63, (value >>> 12) & 63, (value >>> 6) & 63, value & 63);
      return;
    }
    case "direct":
      out.push(codeword(operation.set, byte));
      return;
    case "shiftA":
      out.push(SHIFT_A[operation.intake] as number);
      for (let i = at; i < at + operation.intake; i++) out.push(codeword(A, bytes[i] as number));
      return;
    case "shift":
      out.push(
        operation.set === B ? SHIFT_A_OR_B : (SHIFT_INTO[operation.set] as number),
        codeword(operation.set, byte),
      );
  }
}

interface Step {
  operation: Operation;
  at: number;
  from: number;
  to: number;
}

/**
 * The shortest encoding, starting in set A, as BWIPP finds it: length[n][s] is the fewest
 * codewords that leave the first n bytes encoded in set s, origin[n][s] the set to latch from
 * into s after n bytes.
 */
function shortestPath(bytes: readonly number[]): { steps: Step[]; end: number } {
  const sets = searchedSets(bytes);
  const searched = sets.reduce((mask, set) => mask | only(set), 0);
  const operationsIn = OPERATIONS_IN.map((operations) => operations.filter(({ set }) => searched & only(set)));
  const cells = (bytes.length + 1) * SETS;
  // Plain arrays: a few hundred cells allocate faster than typed arrays.
  const length = new Array<number>(cells).fill(0);
  const origin = new Array<number>(cells).fill(A);
  const from = new Array<number>(cells).fill(A);
  const via = new Array<Operation>(cells);
  let digits = 0;
  let runA = 0;
  for (let n = 1; n <= bytes.length; n++) {
    const byte = bytes[n - 1] as number;
    digits = byte >= 48 && byte <= 57 ? digits + 1 : 0;
    runA = inSet(A, byte) ? runA + 1 : 0;
    for (const set of sets) {
      let best = UNREACHABLE;
      for (const operation of operationsIn[set] as Operation[]) {
        if (!applies(operation, byte, digits, runA)) continue;
        const start = n - operation.intake;
        const prior = origin[start * SETS + set] as number;
        const total = (length[start * SETS + prior] as number) + latchCost(set, prior) + operation.cost;
        if (total < best) {
          best = total;
          via[n * SETS + set] = operation;
          from[n * SETS + set] = prior;
        }
      }
      length[n * SETS + set] = best;
    }
    for (const set of sets) {
      let bestOrigin = A;
      let bestLength = Number.POSITIVE_INFINITY;
      for (const prior of sets) {
        const total = (length[n * SETS + prior] as number) + latchCost(set, prior);
        if (total < bestLength) {
          bestLength = total;
          bestOrigin = prior;
        }
      }
      origin[n * SETS + set] = bestOrigin;
    }
  }

  const last = bytes.length * SETS;
  let end = A;
  for (const set of sets) if ((length[last + set] as number) < (length[last + end] as number)) end = set;
  const steps: Step[] = [];
  for (let n = bytes.length, to = end; n > 0; ) {
    const operation = via[n * SETS + to] as Operation;
    const prior = from[n * SETS + to] as number;
    n -= operation.intake;
    steps.push({ operation, at: n, from: prior, to });
    to = prior;
  }
  return { steps: steps.reverse(), end };
}

/** Codewords for `bytes`; C and D latch back to A at the end when there is room, to pad in A. */
export function encodeText(bytes: readonly number[], capacity: number): EncodedText {
  const { steps, end } = shortestPath(bytes);
  const codewords: number[] = [];
  for (const { operation, at, from, to } of steps) {
    codewords.push(...(LATCH[to]?.[from] ?? []));
    write(operation, bytes, at, codewords);
  }
  const pad = PAD_OF_SET[end] as number;
  if (pad !== 0) return { codewords, pad };
  if (codewords.length < capacity) codewords.push(LATCH_A);
  return { codewords, pad: PAD_OF_SET[A] as number };
}
