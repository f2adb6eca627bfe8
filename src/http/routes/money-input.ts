import { Type } from "typebox";
import { DomainError } from "../../domain/errors.js";

/** Digits with an optional fraction ("12.50", "3", "0.5"): no sign, exponent, hex or spaces. */
const DECIMAL = /^(\d{1,9})(?:\.(\d{1,20}))?$/;

interface MoneyBounds {
  minimum: number;
  maximum: number;
  description: string;
}

/**
 * Dollars in a request: a JSON number or a decimal string, nothing else. Text is listed first:
 * the validator coerces a value of no listed type (true, false) to the first type it can, and as
 * text the pattern refuses it; a string stays a string, so "0x10", "1e2" or " 16" are refused too
 * instead of becoming numbers. The bounds hold numbers here and text in `centsOfMoney`.
 */
export const MoneyIn = (bounds: MoneyBounds) =>
  Type.Unsafe<number | string>({ type: ["string", "number"], pattern: DECIMAL.source, ...bounds });

/** `MoneyIn` or null, which is not coerced: null is a listed type. */
export const NullableMoneyIn = (bounds: MoneyBounds) =>
  Type.Unsafe<number | string | null>({ type: ["string", "number", "null"], pattern: DECIMAL.source, ...bounds });

const fractionOfCent = () =>
  new DomainError("meter.invalid_amount", "amounts must be in whole cents (at most two decimals).");

/**
 * Money the schema let through to whole cents; a fraction of a cent is refused rather than
 * rounded away, and text is held to the bounds the schema holds numbers to.
 */
export function centsOfMoney(field: string, amount: number | string, bounds: Omit<MoneyBounds, "description">): number {
  if (typeof amount === "number") return centsOfNumber(amount);
  const [, whole = "", fraction = ""] = DECIMAL.exec(amount) ?? [];
  const dollars = Number(amount);
  if (whole === "" || dollars < bounds.minimum || dollars > bounds.maximum) {
    throw new DomainError("request.invalid", `${field} must be from ${bounds.minimum} to ${bounds.maximum} dollars.`);
  }
  if (/[1-9]/.test(fraction.slice(2))) throw fractionOfCent();
  return Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, "0"));
}

function centsOfNumber(amount: number): number {
  const cents = Math.round(amount * 100);
  if (Math.abs(amount * 100 - cents) > 1e-6) throw fractionOfCent();
  return cents;
}

/** What the schema lets through as an automatic refill setting; the settings' own rules answer 422. */
export const REFILL_SETTING = { minimum: 0, maximum: 1_000_000 };

/** A refill setting as sent (meter settings, a child's template) in whole cents, or null. */
export const settingCents = (field: string, dollars: number | string | null | undefined) =>
  dollars == null ? null : centsOfMoney(field, dollars, REFILL_SETTING);
