import { expect } from "vitest";
import type {
  CostLine,
  RateContext,
  RatedParcel,
  RateQuote,
  RateRefusal,
  ServiceDefinition,
} from "../../../src/carriers/catalogue.js";
import { isRefusal } from "../../../src/carriers/sandbox/eligibility.js";

/** A 1 lb shoebox-sized parcel in the shipper's own packaging; override what a test is about. */
export function parcel(overrides: Partial<RatedParcel> = {}): RatedParcel {
  return { lengthIn: 10, widthIn: 6, heightIn: 4, weightOz: 16, packageType: "parcel", ...overrides };
}

/** A business address in the US, zone 5, outside any delivery-area list. */
export function domestic(overrides: Partial<RateContext> = {}): RateContext {
  return { zone: 5, residential: false, toCountry: "US", deliveryArea: false, ...overrides };
}

export function abroad(toCountry: string, overrides: Partial<RateContext> = {}): RateContext {
  return { zone: 0, residential: false, toCountry, deliveryArea: false, ...overrides };
}

export function serviceByCode(services: readonly ServiceDefinition[], serviceCode: string): ServiceDefinition {
  const service = services.find((candidate) => candidate.serviceCode === serviceCode);
  if (!service) throw new Error(`no service ${serviceCode}`);
  return service;
}

/** The quote, after checking that its total is exactly the sum of its lines. */
export function quoted(outcome: RateQuote | RateRefusal): RateQuote {
  if (isRefusal(outcome)) throw new Error(`expected a quote, got refusal: ${outcome.refused}`);
  expect(outcome.totalCents).toBe(outcome.lines.reduce((sum, line) => sum + line.amountCents, 0));
  for (const line of outcome.lines) expect(Number.isInteger(line.amountCents)).toBe(true);
  return outcome;
}

export function refusal(outcome: RateQuote | RateRefusal): string {
  if (!isRefusal(outcome)) throw new Error(`expected a refusal, got a quote of ${outcome.totalCents} cents`);
  return outcome.refused;
}

export function kindsOf(quote: RateQuote): string[] {
  return quote.lines.map((line) => line.kind);
}

export function lineOf(quote: RateQuote, kind: string): CostLine {
  const line = quote.lines.find((candidate) => candidate.kind === kind);
  if (!line) throw new Error(`no ${kind} line in ${kindsOf(quote).join(", ")}`);
  return line;
}

export function baseCents(quote: RateQuote): number {
  return lineOf(quote, "base").amountCents;
}
