import { BoundedMap } from "../../bounded-map.js";
import { type CarrierAdapter, type CarrierAddress, CarrierError, type ServiceRate } from "../../carriers/carrier.js";
import type { ServiceDefinition } from "../../carriers/catalogue.js";
import { findListedService, soldService } from "../../carriers/registry.js";
import { classifyAddress } from "../addresses/classify-address.js";
import type { CarrierAccountRow, CarrierServiceStatusRow } from "../carriers/carrier-accounts.repository.js";
import { carrierOf, carrierServiceStatuses, connectedCarrierAccounts } from "../carriers/carrier-connections.js";
import { carrierFailure } from "../carriers/carrier-failure.js";
import { enabledServiceIdsOf } from "../carriers/connect-carrier.js";
import type { AccountScope, DomainServices } from "../services.js";
import { carrierToday, deliveryDate } from "./delivery-date.js";

/** Without all three sides a parcel is rated by its weight alone. */
export interface ParcelToRate {
  length?: number;
  width?: number;
  height?: number;
  weight: number;
  package_type: string;
  /** Value to insure with the carrier, in cents. */
  insured_cents?: number;
}

export interface RateShipment {
  to_location: CarrierAddress;
  from_location: CarrierAddress;
  parcels: readonly ParcelToRate[];
  include_services?: readonly number[];
  include_carriers?: readonly string[];
  exclude_carriers?: readonly string[];
  ship_date?: string;
}

export interface RatedService extends ServiceRate {
  deliveryDays: number;
  deliveryDate: string;
}

/** A rate answer; shared between identical questions, so never changed once made. */
export interface RateResult {
  readonly rates: readonly RatedService[];
  readonly warnings: readonly string[];
}

/**
 * The services named by eHub ids, whichever of a service's listings each id is; a retired product's
 * id (or parcels its carrier now sells under another service) names the service sold in its place,
 * and the warnings say so.
 */
function askedServices(shipment: RateShipment): { ids: Set<number>; warnings: string[] } {
  const parcels = shipment.parcels.map((p) => ({ packageType: p.package_type, weightOz: p.weight }));
  const ids = new Set<number>();
  const warnings = new Set<string>();
  for (const id of shipment.include_services ?? []) {
    const named = findListedService(id);
    if (!named) {
      ids.add(id);
      continue;
    }
    const sold = soldService(named, parcels);
    ids.add(sold.service.serviceId);
    for (const warning of sold.warnings) warnings.add(warning);
  }
  return { ids, warnings: [...warnings] };
}

interface CarrierPlan {
  carrier: CarrierAdapter;
  services: ServiceDefinition[];
}

/** Which connected carriers to ask, and for which services, after the shipment's filters. */
function planCarriers(
  services: DomainServices,
  accounts: readonly CarrierAccountRow[],
  shipment: RateShipment,
): CarrierPlan[] {
  const include = shipment.include_carriers?.map((c) => c.toLowerCase());
  const exclude = new Set(shipment.exclude_carriers?.map((c) => c.toLowerCase()) ?? []);
  const wanted = shipment.include_services ? askedServices(shipment).ids : undefined;
  const plans: CarrierPlan[] = [];
  for (const account of accounts) {
    const carrier = carrierOf(services, account);
    if (!carrier || exclude.has(carrier.code) || (include && !include.includes(carrier.code))) continue;
    const enabled = enabledServiceIdsOf(account);
    const asked = carrier.services.filter(
      (s) => (!enabled || enabled.has(s.serviceId)) && (!wanted || wanted.has(s.serviceId)),
    );
    if (asked.length > 0) plans.push({ carrier, services: asked });
  }
  return plans;
}

/**
 * Whole answers to repeated questions (a checkout re-rating the same cart). They are kept with
 * the connection rows and operator statuses they were worked out from, so they go when those
 * do: within a second, and at once when this process changes a connection. An answer is for
 * one ship date; without one that is today, so the next day's first question is answered anew.
 * A question's first ask leaves only its text and date; the answer is kept from its second ask
 * on, so a spread of questions each asked once does not fill the heap with answers never reused
 * (see "Rates with distinct questions" in docs/performance.md).
 */
const answersByConnections = new WeakMap<
  readonly CarrierAccountRow[],
  {
    statuses: readonly CarrierServiceStatusRow[];
    byQuestion: BoundedMap<string, { shipDate: string; result?: RateResult }>;
  }
>();

/** A shipment's question, as text; a caller asking again with the same object reuses it. */
const questionTexts = new WeakMap<RateShipment, string>();

function questionOf(shipment: RateShipment): string {
  let text = questionTexts.get(shipment);
  if (text === undefined) {
    text = JSON.stringify(shipment);
    questionTexts.set(shipment, text);
  }
  return text;
}

/**
 * Rates a shipment with every connected, enabled carrier at once. A carrier that fails (or that
 * the operator marked offline) leaves a warning; the others still answer. Services the shipment
 * does not fit are left out, unless the caller asked for them by id: then they come back with
 * the reason in `errors`. The shipment is only read, never changed.
 */
export async function getRates(
  services: DomainServices,
  scope: AccountScope,
  shipment: RateShipment,
): Promise<RateResult> {
  const [accounts, statuses] = await Promise.all([
    connectedCarrierAccounts(services, scope),
    carrierServiceStatuses(services),
  ]);
  const shipDate = shipment.ship_date ?? carrierToday(services.clock.now());
  let answers = answersByConnections.get(accounts);
  if (answers?.statuses !== statuses) {
    answers = { statuses, byQuestion: new BoundedMap(1000) };
    answersByConnections.set(accounts, answers);
  }
  const question = questionOf(shipment);
  const known = answers.byQuestion.get(question);
  const askedBefore = known?.shipDate === shipDate;
  if (askedBefore && known.result) return known.result;
  const result = await rateWithCarriers(services, accounts, statuses, shipment, shipDate);
  answers.byQuestion.set(question, askedBefore ? { shipDate, result } : { shipDate });
  return result;
}

function hasAllSides(
  parcel: ParcelToRate,
): parcel is ParcelToRate & Required<Pick<ParcelToRate, "length" | "width" | "height">> {
  return parcel.length !== undefined && parcel.width !== undefined && parcel.height !== undefined;
}

async function rateWithCarriers(
  services: DomainServices,
  accounts: readonly CarrierAccountRow[],
  statuses: readonly CarrierServiceStatusRow[],
  shipment: RateShipment,
  shipDate: string,
): Promise<RateResult> {
  const asked = askedServices(shipment);
  const warnings: string[] = [...asked.warnings];
  const plans = planCarriers(services, accounts, shipment).filter(({ carrier }) => {
    const status = statuses.find((s) => s.carrier_code === carrier.code && s.api_service === "rate");
    if (!status || status.status === "online") return true;
    warnings.push(
      `${carrier.displayName} rate service is ${status.status}${status.message ? `: ${status.message}` : ""}`,
    );
    return status.status === "degraded";
  });

  const residential = classifyAddress(shipment.to_location) === "residential";
  const parcels = shipment.parcels.map((p, index) => {
    if (hasAllSides(p)) {
      return {
        lengthIn: p.length,
        widthIn: p.width,
        heightIn: p.height,
        weightOz: p.weight,
        packageType: p.package_type,
        insuredCents: p.insured_cents,
      };
    }
    warnings.push(
      `Parcel ${index + 1} has no length, width and height: rated by weight only (no dimensional weight or size surcharges).`,
    );
    // Zero sides: no dimensional weight, no size limit or surcharge; prices by size alone refuse it.
    return {
      lengthIn: 0,
      widthIn: 0,
      heightIn: 0,
      weightOz: p.weight,
      packageType: p.package_type,
      insuredCents: p.insured_cents,
    };
  });
  const answers = await Promise.allSettled(
    plans.map(({ carrier, services: asked }) =>
      carrier.rate({
        from: shipment.from_location,
        to: shipment.to_location,
        parcels,
        residential,
        services: asked,
        shipDate,
      }),
    ),
  );

  const askedById = asked.ids;
  const rates: RatedService[] = [];
  answers.forEach((answer, index) => {
    if (answer.status === "rejected") {
      if (!(answer.reason instanceof CarrierError)) throw answer.reason;
      warnings.push(carrierFailure(answer.reason, services.clock).message);
      return;
    }
    for (const rated of answer.value) {
      if (rated.refusal && !askedById.has(rated.service.serviceId)) continue;
      const days = rated.transitDays ?? rated.service.transitDays.max;
      // Spelled out rather than spread: this runs for every service of every rate request.
      rates.push({
        service: rated.service,
        zone: rated.zone,
        packageType: rated.packageType,
        priceGroup: rated.priceGroup,
        rateCalcTypes: rated.rateCalcTypes,
        quote: rated.quote,
        retailCents: rated.retailCents,
        refusal: rated.refusal,
        deliveryDays: days,
        deliveryDate: rated.deliveryDate ?? deliveryDate(shipDate, days, plans[index]!.carrier.code),
      });
    }
  });
  rates.sort(
    (a, b) =>
      (a.quote?.totalCents ?? Number.MAX_SAFE_INTEGER) - (b.quote?.totalCents ?? Number.MAX_SAFE_INTEGER) ||
      a.service.serviceId - b.service.serviceId,
  );
  return { rates, warnings };
}
