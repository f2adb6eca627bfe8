import type { Clock } from "../../../clock.js";
import type { LabelFormat } from "../../../labels/label.js";
import { allEnded } from "../../all-ended.js";
import { CarrierCallError, type CarrierHttpClient } from "../../api-client/carrier-http-client.js";
import type { CarrierAdapter, RateRequest, ServiceRate } from "../../carrier.js";
import type { CostLine, RatedParcel, RateQuote, ServiceDefinition } from "../../catalogue.js";
import { rateCalcType } from "../../sandbox/eligibility.js";
import { quoteFromLines } from "../../sandbox/money.js";
import { combineQuotes } from "../../sandbox/sandbox-carrier.js";
import { isUsDomestic } from "../../sandbox/us-domestic.js";
import { usps } from "../index.js";
import { trackUspsParcel, uspsAddresses, uspsApiManifests, uspsApiPickups } from "./usps-capabilities.js";
import type { UspsCredentials } from "./usps-credentials.js";
import { internationalBaseRatesQuery, uspsInternationalProduct } from "./usps-international.js";
import { UspsLabels, uspsPaymentToken } from "./usps-label-calls.js";
import { feeKind, USPS_IMAGE_TYPES } from "./usps-labels.js";
import { baseRatesQuery, dollarsToCents, uspsProduct } from "./usps-products.js";
import type { UspsBaseRateOption } from "./usps-wire.js";

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

/** A parcel's price question to USPS: Domestic Prices at home, International Prices abroad. */
function priceQuestion(service: ServiceDefinition, parcel: RatedParcel, request: RateRequest, eps: string | undefined) {
  if (service.scope === "international") {
    const product = uspsInternationalProduct(service, parcel);
    if ("refusal" in product) return product;
    return {
      path: "/international-prices/v3/base-rates/search",
      query: internationalBaseRatesQuery(product, parcel, request.from.postal_code, request.to, eps),
    };
  }
  const product = uspsProduct(service, parcel);
  if ("refusal" in product) return product;
  return {
    path: "/prices/v3/base-rates/search",
    query: baseRatesQuery(product, parcel, request.from.postal_code, request.to.postal_code, eps),
  };
}

/**
 * USPS through its own APIs, for one connection: rating (Domestic and International Prices),
 * labels (domestic, and international with their customs form) bought with the connection's
 * payment token and voided by tracking number, tracking,
 * address validation, carrier pickups and SCAN forms. A service USPS will not price comes back
 * refused in its words, while an outage, a refused token or an unreadable answer fails the
 * carrier as a whole (a warning beside the other carriers' rates).
 */
export function uspsApiCarrier(client: CarrierHttpClient, credentials: UspsCredentials, clock: Clock): CarrierAdapter {
  const labels = new UspsLabels(client, uspsPaymentToken(client, credentials, clock));

  async function priceParcel(service: ServiceDefinition, parcel: RatedParcel, request: RateRequest) {
    const question = priceQuestion(service, parcel, request, credentials.epsAccount ?? undefined);
    if ("refusal" in question) return question;
    let answer: unknown;
    try {
      answer = await client.json({ method: "POST", path: question.path, purpose: "rate", json: question.query });
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
    const outcomes = await allEnded(request.parcels.map((parcel) => priceParcel(service, parcel, request)));
    const refused = outcomes.find((o) => "refusal" in o);
    if (refused && "refusal" in refused) return { ...base, refusal: refused.refusal };
    const priced = outcomes as { quote: RateQuote; zone: string | null }[];
    // Abroad, USPS's `zone` is the price group; at home it is the zone itself.
    const column = priced[0]?.zone ?? null;
    const parcelQuotes = priced.map((p) => p.quote);
    return {
      ...base,
      zone: service.scope === "international" ? null : column,
      priceGroup: column === null ? null : String(Number(column)),
      quote: combineQuotes(parcelQuotes),
      parcelQuotes,
    };
  }

  return {
    code: "usps",
    displayName: "USPS",
    services: usps.services,
    apis: ["rate", "label", "manifest", "tracking", "pickup"],
    zone: usps.zone,
    labelFormats: Object.keys(USPS_IMAGE_TYPES) as LabelFormat[],
    async rate(request) {
      if (!isUsDomestic(request.from.country)) return [];
      const scope = isUsDomestic(request.to.country) ? "domestic" : "international";
      const services = request.services.filter((s) => s.scope === scope);
      return allEnded(services.map((service) => rateService(service, request)));
    },
    purchase: (request) => labels.purchase(request),
    voidLabels: (trackingNumbers) => labels.voidLabels(trackingNumbers),
    track: (request) => trackUspsParcel(client, request),
    addresses: uspsAddresses(client),
    pickups: uspsApiPickups(client),
    manifests: uspsApiManifests(client),
  };
}
