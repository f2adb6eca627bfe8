/**
 * MaxiCode's Reed–Solomon error correction (ISO/IEC 16023 §4.9): GF(64) with the prime
 * polynomial x⁶ + x + 1, generator roots α¹ … αⁿ, check codewords highest power first.
 */

const FIELD_POLYNOMIAL = 0b1000011;

/** EXP[i] = αⁱ, twice over so that a sum of two logarithms needs no modulo; LOG its inverse. */
const EXP = new Uint8Array(126);
const LOG = new Uint8Array(64);
for (let i = 0, value = 1; i < 63; i++) {
  EXP[i] = value;
  EXP[i + 63] = value;
  LOG[value] = i;
  value <<= 1;
  if (value >= 64) value ^= FIELD_POLYNOMIAL;
}

function multiply(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : (EXP[(LOG[a] as number) + (LOG[b] as number)] as number);
}

/** Coefficients of (x − α¹) … (x − αⁿ) below the leading 1, highest power first. */
function generator(checkCount: number): number[] {
  const coefficients = new Array<number>(checkCount + 1).fill(0);
  coefficients[0] = 1;
  for (let root = 1; root <= checkCount; root++) {
    const alpha = EXP[root] as number;
    coefficients[root] = coefficients[root - 1] as number;
    for (let k = root - 1; k >= 1; k--) {
      coefficients[k] = multiply(coefficients[k] as number, alpha) ^ (coefficients[k - 1] as number);
    }
    coefficients[0] = multiply(coefficients[0] as number, alpha);
  }
  return coefficients.slice(0, checkCount).reverse();
}

/** The symbol uses 10 check codewords (primary) and 20 (each half of the secondary, SEC). */
const GENERATORS = new Map<number, number[]>([10, 20].map((count) => [count, generator(count)]));

/** The check codewords of `data`: the remainder of data · xⁿ divided by the generator. */
export function checkCodewords(data: readonly number[], checkCount: number): number[] {
  const coefficients = GENERATORS.get(checkCount) ?? generator(checkCount);
  const remainder = new Array<number>(checkCount + 1).fill(0);
  for (const codeword of data) {
    const feedback = codeword ^ (remainder[0] as number);
    for (let k = 0; k < checkCount; k++) {
      remainder[k] = (remainder[k + 1] as number) ^ multiply(coefficients[k] as number, feedback);
    }
  }
  return remainder.slice(0, checkCount);
}
