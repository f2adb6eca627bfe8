import { CarrierCallError, type CarrierHttpClient } from "../../api-client/carrier-http-client.js";
import { type CarrierAdapter, CarrierError, type RateRequest, type ServiceRate } from "../../carrier.js";
import type { CostLine, RatedParcel, RateQuote, ServiceDefinition } from "../../catalogue.js";
import { rateCalcType } from "../../sandbox/eligibility.js";
import { quoteFromLines } from "../../sandbox/money.js";
import { combineQuotes } from "../../sandbox/sandbox-carrier.js";
import { isUsDomestic } from "../../sandbox/us-domestic.js";
import { usps } from "../index.js";
import type { UspsCredentials } from "./usps-credentials.js";
import { feeKind } from "./usps-labels.js";
import { baseRatesQuery, dollarsToCents, uspsProduct } from "./usps-products.js";
import type { UspsBaseRateOption } from "./usps-wire.js";

/** What a real USPS connection cannot do through Porter yet; the sandbox never stands in for it. */
function notYet(what: string): never {
  throw new CarrierError("usps", `${what} through a real USPS connection is not supported by Porter yet.`);
}

/** One parcel's USPS answer as a quote: the base price, then each fee USPS added, in cents. */
export function quoteFromBaseRates(answer: UspsBaseRateOption, parcel: RatedParcel): RateQuote {
  const fees = answer.rates.flatMap((r) => r.fees ?? []);
  const feeLines: CostLine[] = fees.map((fee) => ({
    kind: feeKind(fee.name),
    description: fee.name,
    amountCents: dollarsToCents(fee.price),
  }));
  const feeCents = feeLines.reduce((sum, line) => sum + line.amountCents, 0);
  const first = answer.rates[0];
  const billedLb = Math.max(first?.weight ?? 0, first?.dimWeight ?? 0);
  return quoteFromLines(
    [
      {
        kind: "base",
        description: first?.description ?? "Postage",
        amountCents: dollarsToCents(answer.totalBasePrice) - feeCents,
      },
      ...feeLines,
    ],
    billedLb > 0 ? Math.round(billedLb * 16) : parcel.weightOz,
  );
}

function readableAnswer(answer: unknown): answer is UspsBaseRateOption {
  const option = answer as Partial<UspsBaseRateOption> | null;
  return (
    typeof option === "object" &&
    option !== null &&
    typeof option.totalBasePrice === "number" &&
    Number.isFinite(option.totalBasePrice) &&
    Array.isArray(option.rates)
  );
}

/**
 * USPS through its own APIs, for one connection. Rating asks Domestic Prices for each service and
 * parcel; a service USPS will not price comes back refused in its words, while an outage, a
 * refused token or an unreadable answer fails the carrier as a whole (a warning beside the other
 * carriers' rates). Labels, voids, tracking, SCAN forms and pickups are refused until they are built.
 */
export function uspsApiCarrier(client: CarrierHttpClient, credentials: UspsCredentials): CarrierAdapter {
  async function priceParcel(service: ServiceDefinition, parcel: RatedParcel, request: RateRequest) {
    const product = uspsProduct(service, parcel);
    if ("refusal" in product) return product;
    const query = baseRatesQuery(
      product,
      parcel,
      request.from.postal_code,
      request.to.postal_code,
      credentials.epsAccount ?? undefined,
    );
    let answer: unknown;
    try {
      answer = await client.json({
        method: "POST",
        path: "/prices/v3/base-rates/search",
        purpose: "rate",
        json: query,
      });
    } catch (error) {
      // USPS answers 400 when the piece is not eligible for the product: that service alone is refused.
      if (error instanceof CarrierCallError && (error.status === 400 || error.status === 404)) {
        return { refusal: error.message };
      }
      throw error;
    }
    if (!readableAnswer(answer)) throw client.error("USPS answered the price search with an unreadable price.");
    return { quote: quoteFromBaseRates(answer, parcel), zone: answer.rates[0]?.zone ?? null };
  }

  async function rateService(service: ServiceDefinition, request: RateRequest): Promise<ServiceRate> {
    const base = {
      service,
      zone: null as string | null,
      packageType: request.parcels[0]?.packageType ?? "parcel",
      priceGroup: null as string | null,
      rateCalcTypes: [...new Set(request.parcels.map((parcel) => rateCalcType(service, parcel.packageType)))],
    };
    if (request.parcels.length > 1 && !service.multiParcel) {
      return { ...base, refusal: `${service.name} takes one parcel per shipment; ship each parcel separately` };
    }
    const outcomes = await Promise.all(request.parcels.map((parcel) => priceParcel(service, parcel, request)));
    const refused = outcomes.find((o) => "refusal" in o);
    if (refused && "refusal" in refused) return { ...base, refusal: refused.refusal };
    const priced = outcomes as { quote: RateQuote; zone: string | null }[];
    const zone = priced[0]?.zone ?? null;
    const parcelQuotes = priced.map((p) => p.quote);
    return {
      ...base,
      zone,
      priceGroup: zone === null ? null : String(Number(zone)),
      quote: combineQuotes(parcelQuotes),
      parcelQuotes,
    };
  }

  return {
    code: "usps",
    displayName: "USPS",
    services: usps.services,
    apis: ["rate"],
    zone: usps.zone,
    async rate(request) {
      if (!isUsDomestic(request.to.country) || !isUsDomestic(request.from.country)) {
        notYet("International rating");
      }
      const domestic = request.services.filter((s) => s.scope === "domestic");
      return Promise.all(domestic.map((service) => rateService(service, request)));
    },
    purchase: () => notYet("Buying labels"),
    voidLabels: () => notYet("Voiding labels"),
    track: () => notYet("Tracking"),
  };
}
