import { BoundedMap } from "../../bounded-map.js";
import {
  type CarrierAdapter,
  type CarrierApi,
  CarrierError,
  type ManifestCapability,
  type PickupCapability,
  type PurchasedParcel,
  type RateRequest,
  type ServiceRate,
} from "../carrier.js";
import type {
  CarrierCode,
  CostLine,
  RateContext,
  RatedParcel,
  RateQuote,
  RateRefusal,
  ServiceDefinition,
} from "../catalogue.js";
import { insuranceLine, insuranceRefusal } from "../insurance.js";
import { type CompactRates, compactRates, expandRates } from "./compact-rates.js";
import { isDeliveryAreaZip } from "./delivery-area.js";
import { isRefusal, rateCalcType } from "./eligibility.js";
import { quoteFromLines } from "./money.js";
import { internationalPriceGroup } from "./rate-table.js";
import { trackSandboxParcel } from "./sandbox-tracking.js";
import type { TrackingVocabulary } from "./tracking-timeline.js";
import { isUsDomestic } from "./us-domestic.js";
import { formatZone, ZoneLookupError } from "./zones.js";

export interface SandboxCarrierDefinition {
  code: CarrierCode;
  displayName: string;
  services: readonly ServiceDefinition[];
  apis: readonly CarrierApi[];
  /** The carrier's zone between two US ZIP codes (throws ZoneLookupError for unknown ones). */
  domesticZone(fromZip: string, toZip: string): number;
  rateService(service: ServiceDefinition, parcel: RatedParcel, context: RateContext): RateQuote | RateRefusal;
  /** The carrier's tracking number (and barcode data) for one parcel, from a serial. */
  issueTrackingNumber(serial: number, service: ServiceDefinition, request: RateRequest): PurchasedParcel;
  manifests?: ManifestCapability;
  pickups?: PickupCapability;
  /** The carrier's tracking codes and the facilities its parcels pass. */
  tracking: TrackingVocabulary;
  /** The tables are the carrier's published retail prices (USPS's Notice 123 retail columns). */
  retailPrices?: boolean;
}

/**
 * Integrators script a carrier failure by putting `sandbox-fault:<carrier_code>` in the
 * recipient's company or address2, so a rate response with `warnings` can be produced on purpose.
 */
export function requestedFault(request: RateRequest, code: CarrierCode): boolean {
  const marker = `sandbox-fault:${code}`;
  return [request.to.company, request.to.address2].some((field) => field?.toLowerCase().includes(marker));
}

/** Adds up per-parcel quotes line by line, so the shipment's breakdown has one line per kind. */
export function combineQuotes(quotes: readonly RateQuote[]): RateQuote {
  if (quotes.length === 1) return quotes[0] as RateQuote;
  const byKind = new Map<string, CostLine>();
  for (const line of quotes.flatMap((q) => q.lines)) {
    const seen = byKind.get(line.kind);
    byKind.set(line.kind, seen ? { ...seen, amountCents: seen.amountCents + line.amountCents } : { ...line });
  }
  return quoteFromLines(
    [...byKind.values()],
    quotes.reduce((sum, q) => sum + q.billableWeightOz, 0),
  );
}

/** The shared simulation behind every sandbox carrier: eligibility, zones, per-parcel pricing. */
export function sandboxCarrier(definition: SandboxCarrierDefinition): CarrierAdapter {
  const { code, displayName } = definition;

  const zoneOf = (request: RateRequest): number | null => {
    if (!isUsDomestic(request.to.country) || !isUsDomestic(request.from.country)) return null;
    try {
      return definition.domesticZone(request.from.postal_code, request.to.postal_code);
    } catch (error) {
      if (error instanceof ZoneLookupError) {
        throw new CarrierError(
          code,
          `${displayName} returned error: Postal code ${error.postalCode} missing or invalid`,
        );
      }
      throw error;
    }
  };

  // Rating is a pure function of the request, and rate shoppers ask about the same boxes between
  // the same ZIP codes all day, so answers are remembered, compactly, and rebuilt when asked again.
  const answered = new BoundedMap<string, CompactRates>(5000);

  const rate = (request: RateRequest): ServiceRate[] => {
    const domestic = isUsDomestic(request.to.country) && isUsDomestic(request.from.country);
    const candidates = request.services.filter((s) => (s.scope === "domestic") === domestic);
    if (candidates.length === 0) return [];
    const zone = zoneOf(request);
    // A lane into the US (a return from abroad) is priced as the outbound lane between the same
    // two countries: the sandbox's tables are read by the country abroad.
    const inbound = !isUsDomestic(request.from.country) && isUsDomestic(request.to.country);
    const [near, far] = inbound ? [request.to, request.from] : [request.from, request.to];
    const context: RateContext = {
      zone: zone ?? 0,
      residential: request.residential,
      toCountry: far.country.toUpperCase(),
      fromCountry: near.country.toUpperCase(),
      deliveryArea: domestic && isDeliveryAreaZip(request.to.postal_code),
    };
    const priceGroup = String(zone ?? internationalPriceGroup(context.toCountry));
    return candidates.map((service): ServiceRate => {
      const base = {
        service,
        zone: zone === null ? null : formatZone(zone),
        packageType: request.parcels[0]?.packageType ?? "parcel",
        priceGroup,
        rateCalcTypes: [...new Set(request.parcels.map((parcel) => rateCalcType(service, parcel.packageType)))],
      };
      if (request.parcels.length > 1 && !service.multiParcel) {
        return { ...base, refusal: `${service.name} takes one parcel per shipment; ship each parcel separately` };
      }
      const outcomes = request.parcels.map((parcel) =>
        insured(service, parcel, definition.rateService(service, parcel, context)),
      );
      const refusal = outcomes.find(isRefusal);
      if (refusal) return { ...base, refusal: refusal.refused };
      const parcelQuotes = outcomes as RateQuote[];
      const quote = combineQuotes(parcelQuotes);
      return { ...base, quote, parcelQuotes, ...(definition.retailPrices ? { retailCents: quote.totalCents } : {}) };
    });
  };

  async function rememberedRate(request: RateRequest): Promise<ServiceRate[]> {
    if (requestedFault(request, code)) {
      throw new CarrierError(code, `${displayName} returned error: Service temporarily unavailable (sandbox fault)`);
    }
    const key = rateRequestKey(request);
    const known = answered.get(key);
    if (known) return expandRates(known);
    const rates = rate(request);
    answered.set(key, compactRates(rates));
    return rates;
  }

  return {
    code,
    displayName,
    services: definition.services,
    apis: definition.apis,
    zone: (fromZip, toZip) => formatZone(definition.domesticZone(fromZip, toZip)),
    rate: rememberedRate,
    async purchase(request) {
      const [rated] = await rememberedRate({ ...request, services: [request.service] });
      if (!rated?.quote) {
        throw new CarrierError(
          code,
          `${displayName} refused the shipment: ${rated?.refusal ?? `${request.service.name} does not go there`}`,
        );
      }
      return {
        rate: rated,
        parcels: request.parcelSerials.map((serial) =>
          definition.issueTrackingNumber(serial, request.service, request),
        ),
      };
    },
    // The sandbox charges nothing, so a void always succeeds; a real carrier calls its void API here.
    async voidLabels() {},
    ...(definition.manifests ? { manifests: definition.manifests } : {}),
    ...(definition.pickups ? { pickups: definition.pickups } : {}),
    async track(request) {
      return trackSandboxParcel(code, definition.tracking, request);
    },
  };
}

/**
 * The parcel's quote with the carrier's coverage for its value as a line of its own, after fuel:
 * carriers do not charge fuel on insurance. Value beyond the carrier's limit refuses the service.
 */
function insured(
  service: ServiceDefinition,
  parcel: RatedParcel,
  outcome: RateQuote | RateRefusal,
): RateQuote | RateRefusal {
  if (isRefusal(outcome) || !parcel.insuredCents) return outcome;
  const refused = insuranceRefusal(service, parcel.insuredCents);
  if (refused) return { refused };
  return quoteFromLines([...outcome.lines, insuranceLine(service, parcel.insuredCents)], outcome.billableWeightOz);
}

/** Everything rating depends on, and nothing else (names and phone numbers do not change a price). */
function rateRequestKey(request: RateRequest): string {
  const parcels = request.parcels.map(
    (p) => `${p.lengthIn}x${p.widthIn}x${p.heightIn}/${p.weightOz}/${p.packageType}/${p.insuredCents ?? 0}`,
  );
  return [
    request.from.country,
    request.from.postal_code,
    request.to.country,
    request.to.postal_code,
    request.residential ? "R" : "C",
    parcels.join(","),
    request.services.map((s) => s.serviceId).join(","),
  ].join("|");
}
