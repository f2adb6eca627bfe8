/**
 * The carriers' own coverage for a parcel's value: USPS insurance (an extra service), UPS and FedEx
 * declared value, DHL Express shipment insurance. The sandbox carriers price it from these tables;
 * a real connection sends the amount and the carrier prices it. The limits are the carriers'
 * published maximums; the prices are a sandbox table in the carriers' shape (a first step, then a
 * price per 100.00 of value or part of it, or a percentage with a minimum), documented in
 * docs/shipments.md, not a carrier's current tariff.
 */
import type { CarrierCode, CostLine, ServiceDefinition } from "./catalogue.js";

const CENTS_PER_HUNDRED_DOLLARS = 10_000;

interface InsuranceTable {
  /** The product's name on the carrier's invoice. */
  product: string;
  /** Most value the carrier covers per parcel. */
  limitCents: number;
  /** Coverage the services named here include at no charge (USPS Priority Mail: 100.00). */
  included: { cents: number; serviceCodes: readonly string[] };
  /** Price of coverage beyond what is included: a first step, then each 100.00 or part of it. */
  firstStepCents: number;
  perHundredCents: number;
}

const INSURANCE: Partial<Record<CarrierCode, InsuranceTable>> = {
  usps: {
    product: "USPS Insurance",
    limitCents: 500_000,
    included: {
      cents: 10_000,
      serviceCodes: ["usps_priority", "usps_express", "usps_ground_advantage", "usps_ground_advantage_gde"],
    },
    firstStepCents: 275,
    perHundredCents: 160,
  },
  ups: {
    product: "UPS Declared Value",
    limitCents: 5_000_000,
    included: { cents: 10_000, serviceCodes: ["*"] },
    firstStepCents: 465,
    perHundredCents: 155,
  },
  fed_ex: {
    product: "FedEx Declared Value",
    limitCents: 5_000_000,
    included: { cents: 10_000, serviceCodes: ["*"] },
    firstStepCents: 450,
    perHundredCents: 150,
  },
  dhl_express: {
    product: "DHL Express Shipment Insurance",
    limitCents: 5_000_000,
    included: { cents: 0, serviceCodes: [] },
    firstStepCents: 2_500,
    perHundredCents: 100,
  },
};

/** How a carrier names its coverage, or undefined when it sells none (DHL eCommerce). */
export function insuranceProduct(code: CarrierCode): string | undefined {
  return INSURANCE[code]?.product;
}

const dollarsText = (cents: number): string =>
  (cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Why the carrier cannot cover `amountCents` on this service, in words; undefined when it can. */
export function insuranceRefusal(service: ServiceDefinition, amountCents: number): string | undefined {
  const table = INSURANCE[service.carrierCode];
  if (!table) return `${service.name} carries no insurance or declared value`;
  if (amountCents > table.limitCents) {
    return `${table.product} covers at most ${dollarsText(table.limitCents)} per parcel; asked ${dollarsText(amountCents)}`;
  }
  return undefined;
}

function includedCents(table: InsuranceTable, service: ServiceDefinition): number {
  const { serviceCodes, cents } = table.included;
  return serviceCodes.includes("*") || serviceCodes.includes(service.serviceCode) ? cents : 0;
}

/**
 * The coverage's own cost line for a parcel insured for `amountCents` (within the limit): nothing
 * is charged for value the service already includes, then the first step, then each further
 * 100.00 or part of it.
 */
export function insuranceLine(service: ServiceDefinition, amountCents: number): CostLine {
  const table = INSURANCE[service.carrierCode];
  if (!table) throw new RangeError(`${service.carrierCode} sells no insurance`);
  const included = includedCents(table, service);
  const beyond = amountCents - Math.max(included, CENTS_PER_HUNDRED_DOLLARS);
  const cents =
    amountCents <= included
      ? 0
      : table.firstStepCents + table.perHundredCents * Math.max(0, Math.ceil(beyond / CENTS_PER_HUNDRED_DOLLARS));
  return { kind: "insurance", description: table.product, amountCents: cents };
}
