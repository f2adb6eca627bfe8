/**
 * Cents arithmetic for rate calculations. Every amount is an integer number of cents; percentages
 * are integer basis points (1 % = 100 bp), so no price ever passes through a binary fraction.
 */
import type { CostLine, RateQuote } from "../catalogue.js";

const BASIS_POINTS_PER_WHOLE = 10_000;

/** `basisPoints` of `cents`, rounded half-up once (2,050 bp of 1,001 ¢ = 205.205 ¢ → 205 ¢). */
export function percentOfCents(cents: number, basisPoints: number): number {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(basisPoints) || cents < 0 || basisPoints < 0) {
    throw new RangeError(`percentOfCents needs non-negative integers, got ${cents} ¢ and ${basisPoints} bp`);
  }
  return Math.floor((cents * basisPoints + BASIS_POINTS_PER_WHOLE / 2) / BASIS_POINTS_PER_WHOLE);
}

/** Sum of integer cent amounts. */
export function sumCents(amounts: readonly number[]): number {
  return amounts.reduce((total, amount) => total + amount, 0);
}

/** Basis points as a carrier prints a percentage, e.g. 2050 → "20.50%". */
export function formatBasisPoints(basisPoints: number): string {
  const whole = Math.floor(basisPoints / 100);
  const hundredths = String(basisPoints % 100).padStart(2, "0");
  return `${whole}.${hundredths}%`;
}

/** A quote whose total is, by construction, the sum of its lines. */
export function quoteFromLines(lines: CostLine[], billableWeightOz: number): RateQuote {
  return { totalCents: sumCents(lines.map((line) => line.amountCents)), lines, billableWeightOz };
}
