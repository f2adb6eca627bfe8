/**
 * Dimensional ("DIM") weight and billable weight, shared by every carrier: the carriers differ only
 * in the divisor and in the cube above which DIM weight counts.
 */
import type { RatedParcel } from "../catalogue.js";
import { cubicInches, roundedToNearestInch } from "./parcel-geometry.js";

export const OUNCES_PER_POUND = 16;

export interface DimensionalWeightRule {
  /** Cubic inches per pound: 166 for USPS, 139 for UPS and FedEx. */
  divisorCubicInPerLb: number;
  /** DIM weight counts only when the rounded cube exceeds this; 0 means always. */
  appliesAboveCubicIn: number;
}

/** Whole pounds, in ounces: any fraction of a pound is charged as the next pound, and nothing as less than 1 lb. */
export function roundUpToPoundOz(weightOz: number): number {
  return Math.max(1, Math.ceil(weightOz / OUNCES_PER_POUND)) * OUNCES_PER_POUND;
}

/** DIM weight in ounces (whole pounds), or 0 when the parcel is too small for the rule to apply. */
export function dimensionalWeightOz(parcel: RatedParcel, rule: DimensionalWeightRule): number {
  const cube = cubicInches(roundedToNearestInch(parcel));
  if (cube <= rule.appliesAboveCubicIn) return 0;
  return Math.ceil(cube / rule.divisorCubicInPerLb) * OUNCES_PER_POUND;
}

/**
 * The greater of actual and DIM weight, in ounces, before the rate table rounds it to its weight step.
 * `rule` is null for services the carrier prices on actual weight only (Media Mail, letters …).
 */
export function billableWeightOz(parcel: RatedParcel, rule: DimensionalWeightRule | null): number {
  if (rule === null) return parcel.weightOz;
  return Math.max(parcel.weightOz, dimensionalWeightOz(parcel, rule));
}
