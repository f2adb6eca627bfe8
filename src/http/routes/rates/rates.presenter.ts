import type { CostLine } from "../../../carriers/catalogue.js";
import type { RatedService, RateResult } from "../../../domain/rates/get-rates.js";

/** Integer cents to the decimal dollars of the wire (eHub sends money as plain USD numbers). */
export const dollars = (cents: number): number => cents / 100;

function presentCostDetails(lines: readonly CostLine[]) {
  return lines.map((line) => ({ type: line.kind, description: line.description, amount: dollars(line.amountCents) }));
}

/** eHub's `rate_details`: the transportation charge is its `std` line, each surcharge a line of its own kind. */
function presentRateDetails(lines: readonly CostLine[]) {
  return lines.map((line) => ({
    cost_type: line.kind === "base" ? "std" : line.kind,
    description: line.description,
    rate: dollars(line.amountCents),
  }));
}

/**
 * One `service_rates[]` element, keys in the order real eHub answers them, then Porter's own
 * (`package_type`, `zone`, `billable_weight`, `shipping_cost_details`). The meter is charged the
 * rate, so the meter keys repeat it; `std_rates` has no counterpart in Porter.
 */
function presentServiceRate(rated: RatedService) {
  const { service, quote } = rated;
  const rate = quote ? dollars(quote.totalCents) : null;
  const details = quote ? presentRateDetails(quote.lines) : null;
  return {
    service: service.listedName,
    service_id: service.serviceId,
    service_code: service.serviceCode,
    carrier_code: service.carrierCode,
    rate,
    rate_details: details,
    meter_rate: rate,
    meter_rate_details: details,
    retail_rate: quote && rated.retailCents !== undefined ? dollars(rated.retailCents) : null,
    std_rates: null,
    errors: rated.refusal ?? null,
    delivery_days: quote ? rated.deliveryDays : null,
    min_delivery_days: quote ? service.transitDays.min : null,
    max_delivery_days: quote ? service.transitDays.max : null,
    delivery_date: quote ? rated.deliveryDate : null,
    delivery_guaranteed: service.deliveryGuaranteed,
    rate_calc_type: rated.rateCalcTypes,
    price_group: rated.priceGroup,
    package_type: rated.packageType,
    zone: rated.zone,
    billable_weight: quote ? quote.billableWeightOz : null,
    shipping_cost_details: quote ? presentCostDetails(quote.lines) : [],
  };
}

/**
 * The body of a `POST /rates` answer (`service_rates` and `warnings`). Identical questions share
 * their answer (see getRates), and an answer asked for again is kept encoded and sent as those
 * bytes from then on. The first time, it is sent as the JSON text itself, which the socket encodes
 * as it writes, and nothing of it is kept: most answers are never asked for twice, and keeping
 * each one's 25 KB, encoded or not, until it is collected cost more than writing an answer that
 * is asked for again a second time (docs/performance.md).
 */
const encodedAnswers = new WeakMap<RateResult, Buffer>();
const sentOnce = new WeakSet<RateResult>();

export function rateResponseBody(result: RateResult): string | Buffer {
  const encoded = encodedAnswers.get(result);
  if (encoded) return encoded;
  const text = JSON.stringify({ service_rates: result.rates.map(presentServiceRate), warnings: result.warnings });
  if (!sentOnce.has(result)) {
    sentOnce.add(result);
    return text;
  }
  const bytes = Buffer.from(text);
  encodedAnswers.set(result, bytes);
  return bytes;
}
