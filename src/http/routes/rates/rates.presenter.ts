import type { CostLine } from "../../../carriers/catalogue.js";
import type { RatedService, RateResult } from "../../../domain/rates/get-rates.js";

/** Integer cents to the decimal dollars of the wire (eHub sends money as plain USD numbers). */
export const dollars = (cents: number): number => cents / 100;

function presentCostDetails(lines: readonly CostLine[]) {
  return lines.map((line) => ({ type: line.kind, description: line.description, amount: dollars(line.amountCents) }));
}

/** One `service_rates[]` element: eHub's `shipping_service` fields plus the breakdown. */
function presentServiceRate(rated: RatedService) {
  const { service, quote } = rated;
  return {
    service_id: service.serviceId,
    service: service.listedName,
    service_code: service.serviceCode,
    carrier_code: service.carrierCode,
    package_type: rated.packageType,
    rate: quote ? dollars(quote.totalCents) : null,
    meter_rate: quote ? dollars(quote.totalCents) : null,
    delivery_days: quote ? rated.deliveryDays : null,
    delivery_date: quote ? rated.deliveryDate : null,
    delivery_guaranteed: service.deliveryGuaranteed,
    zone: rated.zone,
    billable_weight: quote ? quote.billableWeightOz : null,
    shipping_cost_details: quote ? presentCostDetails(quote.lines) : [],
    errors: rated.refusal ?? null,
  };
}

/**
 * The body of a `POST /rates` answer (`service_rates` and `warnings`), encoded once per answer:
 * identical questions share their answer (see getRates), and turning thirty priced services
 * into JSON on every request cost more than finding them.
 */
const encodedAnswers = new WeakMap<RateResult, Buffer>();

export function rateResponseBody(result: RateResult): Buffer {
  let body = encodedAnswers.get(result);
  if (!body) {
    body = Buffer.from(
      JSON.stringify({ service_rates: result.rates.map(presentServiceRate), warnings: result.warnings }),
    );
    encodedAnswers.set(result, body);
  }
  return body;
}
