import type { ServiceRate } from "../carrier.js";
import type { CostLine, RateCalcType, RateQuote, ServiceDefinition } from "../catalogue.js";

/**
 * A carrier's rated services kept as two flat arrays instead of some thirty objects per answer:
 * thousands of remembered answers as object graphs were most of the heap every collection traced
 * (see "Rates with distinct questions" in docs/performance.md). `refs` holds the shared service
 * definitions and strings in order, `numbers` the counts, flags and amounts.
 */
export interface CompactRates {
  readonly refs: readonly unknown[];
  readonly numbers: Float64Array;
}

const REFUSED = 0;
const QUOTED = 1;

export function compactRates(rates: readonly ServiceRate[]): CompactRates {
  const refs: unknown[] = [];
  const numbers: number[] = [rates.length];
  const first = rates[0];
  refs.push(first?.zone ?? null, first?.packageType, first?.priceGroup ?? null);
  const pushQuote = (quote: RateQuote) => {
    numbers.push(quote.lines.length, quote.billableWeightOz, quote.totalCents);
    for (const line of quote.lines) {
      refs.push(line.kind, line.description);
      numbers.push(line.amountCents);
    }
  };
  for (const rated of rates) {
    refs.push(rated.service, ...rated.rateCalcTypes);
    numbers.push(rated.rateCalcTypes.length);
    if (!rated.quote) {
      refs.push(rated.refusal);
      numbers.push(REFUSED);
      continue;
    }
    const parcelQuotes = rated.parcelQuotes ?? [];
    const shared = parcelQuotes.length === 1 && parcelQuotes[0] === rated.quote;
    numbers.push(QUOTED, parcelQuotes.length, shared ? 1 : 0, rated.retailCents === undefined ? -1 : rated.retailCents);
    pushQuote(rated.quote);
    if (!shared) for (const quote of parcelQuotes) pushQuote(quote);
  }
  return { refs, numbers: Float64Array.from(numbers) };
}

/** The rated services again, as new objects equal to the ones compacted. */
export function expandRates({ refs, numbers }: CompactRates): ServiceRate[] {
  let r = 0;
  let n = 0;
  const zone = refs[r++] as string | null;
  const packageType = refs[r++] as string;
  const priceGroup = refs[r++] as string | null;
  const readQuote = (): RateQuote => {
    const count = numbers[n++]!;
    const billableWeightOz = numbers[n++]!;
    const totalCents = numbers[n++]!;
    const lines: CostLine[] = [];
    for (let i = 0; i < count; i++) {
      lines.push({ kind: refs[r++] as string, description: refs[r++] as string, amountCents: numbers[n++]! });
    }
    return { totalCents, lines, billableWeightOz };
  };
  const rates: ServiceRate[] = [];
  for (let count = numbers[n++]!; count > 0; count--) {
    const service = refs[r++] as ServiceDefinition;
    const rateCalcTypes = refs.slice(r, r + numbers[n]!) as RateCalcType[];
    r += numbers[n++]!;
    const base = { service, zone, packageType, priceGroup, rateCalcTypes };
    if (numbers[n++] === REFUSED) {
      rates.push({ ...base, refusal: refs[r++] as string });
      continue;
    }
    const parcelCount = numbers[n++]!;
    const shared = numbers[n++] === 1;
    const retailCents = numbers[n++]!;
    const quote = readQuote();
    const parcelQuotes: RateQuote[] = shared ? [quote] : [];
    if (!shared) for (let i = 0; i < parcelCount; i++) parcelQuotes.push(readQuote());
    rates.push({ ...base, quote, parcelQuotes, ...(retailCents === -1 ? {} : { retailCents }) });
  }
  return rates;
}
