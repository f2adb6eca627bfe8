import { describe, expect, it } from "vitest";
import type { CostLine } from "../../../src/carriers/catalogue.js";
import { ALL_SERVICES } from "../../../src/carriers/registry.js";
import { seededRandom } from "../../../src/carriers/sandbox/seeded-random.js";
import type { RatedService, RateResult } from "../../../src/domain/rates/get-rates.js";
import { dollars, encodeRateAnswer, rateResponseBody } from "../../../src/http/routes/rates/rates.presenter.js";

/** The answer as it was built before it was written as bytes: objects, then `JSON.stringify`. */
function presentedAnswer(result: RateResult): string {
  const present = (rated: RatedService) => {
    const { service, quote } = rated;
    const rate = quote ? dollars(quote.totalCents) : null;
    const details = quote
      ? quote.lines.map((line) => ({
          cost_type: line.kind === "base" ? "std" : line.kind,
          description: line.description,
          rate: dollars(line.amountCents),
        }))
      : null;
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
      shipping_cost_details: quote
        ? quote.lines.map((line) => ({
            type: line.kind,
            description: line.description,
            amount: dollars(line.amountCents),
          }))
        : [],
    };
  };
  return JSON.stringify({ service_rates: result.rates.map(present), warnings: result.warnings });
}

/** Texts as carriers and people write them: plain, quoted, accented, emoji, control characters. */
const TEXTS = [
  "Fuel Surcharge (20.50%)",
  "Residential Delivery Charge",
  'The "box" is too long',
  "Zuschlag für Übergröße",
  "back\\slash",
  "line\nbreak\ttab",
  "📦 parcel",
  "lone \ud800 surrogate",
  "",
  "x".repeat(3000),
];

function randomAnswer(seed: string): RateResult {
  const { next, between } = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const cents = () =>
    pick([between(0, 99), between(100, 99_999), between(1, 10_000_000), -between(1, 5000), 0, 1, 10, 100, 1005]);
  const rates = Array.from({ length: between(0, 40) }, (): RatedService => {
    const lines: CostLine[] = Array.from({ length: between(0, 6) }, (_, index) => ({
      kind: index === 0 ? "base" : pick(["fuel", "residential", "delivery_area", ...TEXTS]),
      description: pick(TEXTS),
      amountCents: cents(),
    }));
    const quoted = next() < 0.85;
    return {
      service: pick(ALL_SERVICES),
      zone: pick(["05", "8", null, ...TEXTS]),
      packageType: pick(["parcel", "letter", ...TEXTS]),
      priceGroup: pick(["4", "H", null]),
      rateCalcTypes: pick([["standard"], ["standard", "dimensional"], []]) as RatedService["rateCalcTypes"],
      quote: quoted
        ? {
            totalCents: cents(),
            lines,
            billableWeightOz: pick([between(1, 2400), between(1, 2400) + 0.5, 0.1 + 0.2]),
          }
        : undefined,
      retailCents: next() < 0.5 ? cents() : undefined,
      refusal: quoted ? undefined : pick(TEXTS),
      deliveryDays: between(0, 30),
      deliveryDate: `2026-12-${String(between(1, 31)).padStart(2, "0")}`,
    } as RatedService;
  });
  return { rates, warnings: Array.from({ length: between(0, 3) }, () => pick(TEXTS)) };
}

describe("the rate answer written as bytes", () => {
  it("is byte for byte the presented objects' JSON, for many random answers", () => {
    for (let i = 0; i < 300; i++) {
      const result = randomAnswer(`answer ${i}`);
      expect(encodeRateAnswer(result).toString("utf8"), `answer ${i}`).toBe(presentedAnswer(result));
    }
  });

  it("writes dollars as dividing the cents by 100 prints them", () => {
    for (let cents = -30_000; cents <= 30_000; cents += 7) {
      const line: CostLine = { kind: "base", description: "d", amountCents: cents };
      const result: RateResult = {
        rates: [
          {
            service: ALL_SERVICES[0]!,
            zone: null,
            packageType: "parcel",
            priceGroup: null,
            rateCalcTypes: [],
            quote: { totalCents: cents, lines: [line], billableWeightOz: 1 },
            deliveryDays: 1,
            deliveryDate: "2026-12-01",
          },
        ],
        warnings: [],
      };
      expect(encodeRateAnswer(result).toString("utf8")).toBe(presentedAnswer(result));
    }
  });

  it("sends an answer asked for again as the bytes kept from its second ask", () => {
    const result = randomAnswer("kept");
    const first = rateResponseBody(result);
    const second = rateResponseBody(result);
    expect(second).not.toBe(first);
    expect(rateResponseBody(result)).toBe(second);
    expect(second.toString("utf8")).toBe(presentedAnswer(result));
  });
});
