/**
 * The shape of a published price list, shared by every sandbox carrier so that a carrier's real
 * tables can replace the synthetic ones without touching the rating code: weight steps down the
 * side, zones (domestic) or price groups (international) across the top.
 */
import type { CostLine, PackageTypeDefinition, RateContext, ServiceDefinition } from "../catalogue.js";
import { OUNCES_PER_POUND, roundUpToPoundOz } from "./billable-weight.js";
import { PARCEL } from "./eligibility.js";

/** Prices, per column, of a piece weighing up to `upToOz`. */
export interface WeightStep {
  upToOz: number;
  cents: readonly number[];
}

/**
 * A weight × zone grid. `cents[0]` of each step is the price in zone `firstColumn`. A table with a
 * single column is zone-less (Media Mail, First-Class Mail): every zone reads that column. Past the
 * last step (which must be a whole pound), each further pound adds `eachAdditionalPoundCents`,
 * the way published tables end with an "each additional lb" row.
 */
export interface WeightZoneTable {
  firstColumn: number;
  steps: readonly WeightStep[];
  eachAdditionalPoundCents?: readonly number[];
}

/** Prices by packaging (Flat Rate, One Rate, letters …), each a row of prices per column. */
export interface PackagePriceTable {
  firstColumn: number;
  prices: Readonly<Record<string, readonly number[]>>;
}

/** A price and the weight step it was read from (the weight the carrier bills). */
export interface WeightStepPrice {
  cents: number;
  weightOz: number;
}

/**
 * The price in `column` of a row whose first price is for `firstColumn`. Zones outside the row read
 * its nearest column: UPS/FedEx grids start at zone 2, so USPS's "local" zone 1 prices as 2, and
 * zone 9 (Pacific territories) as 8.
 */
export function priceInColumn(row: readonly number[], firstColumn: number, column: number): number {
  const index = Math.min(Math.max(column - firstColumn, 0), row.length - 1);
  const cents = row[index];
  if (cents === undefined) throw new RangeError("rate table row has no prices");
  return cents;
}

/** Price of `weightOz` (already billable) in `column`: the first step that covers it, else the per-pound tail. */
export function priceByWeight(table: WeightZoneTable, weightOz: number, column: number): WeightStepPrice {
  const step = table.steps.find((candidate) => weightOz <= candidate.upToOz);
  if (step) return { cents: priceInColumn(step.cents, table.firstColumn, column), weightOz: step.upToOz };

  const last = table.steps.at(-1);
  if (!last || !table.eachAdditionalPoundCents) {
    throw new RangeError(`rate table ends before ${weightOz} oz`);
  }
  const pricedOz = roundUpToPoundOz(weightOz);
  const extraPounds = (pricedOz - last.upToOz) / OUNCES_PER_POUND;
  const cents =
    priceInColumn(last.cents, table.firstColumn, column) +
    extraPounds * priceInColumn(table.eachAdditionalPoundCents, table.firstColumn, column);
  return { cents, weightOz: pricedOz };
}

/** Price of a packaging in `column`; throws when the table lacks it, which is a data error. */
export function priceByPackage(table: PackagePriceTable, key: string, column: number): number {
  const row = table.prices[key];
  if (!row) throw new RangeError(`no price for packaging "${key}"`);
  return priceInColumn(row, table.firstColumn, column);
}

/**
 * ⚠ Synthetic international price groups shared by the sandbox carriers (each real carrier has its
 * own country-to-zone chart): 1 Canada, 2 Mexico, 3 Europe, 4 Asia-Pacific, 5 rest of the world.
 */
const EUROPE = "AT BE CH CZ DE DK ES FI FR GB GR HU IE IS IT LU NL NO PL PT RO SE".split(" ");
const ASIA_PACIFIC = "AU CN HK ID IN JP KR MY NZ PH SG TH TW VN".split(" ");
const PRICE_GROUP_BY_COUNTRY: ReadonlyMap<string, number> = new Map([
  ["CA", 1],
  ["MX", 2],
  ...EUROPE.map((country): [string, number] => [country, 3]),
  ...ASIA_PACIFIC.map((country): [string, number] => [country, 4]),
]);
const REST_OF_WORLD_GROUP = 5;

export function internationalPriceGroup(countryCode: string): number {
  return PRICE_GROUP_BY_COUNTRY.get(countryCode.toUpperCase()) ?? REST_OF_WORLD_GROUP;
}

/** The column a service's tables are read in: the zone at home, the destination's price group abroad. */
export function priceColumn(service: ServiceDefinition, context: RateContext): number {
  return service.scope === "international" ? internationalPriceGroup(context.toCountry) : context.zone;
}

/** The transportation charge read from the tables, named after the service and any carrier packaging. */
export function baseRateLine(service: ServiceDefinition, packaging: PackageTypeDefinition, cents: number): CostLine {
  const description = packaging.type === PARCEL.type ? service.name : `${service.name}, ${packaging.name}`;
  return { kind: "base", description, amountCents: cents };
}

/** A service's tariff from its carrier's table; a service without one is a catalogue bug. */
export function tariffFor<T>(tariffs: Readonly<Record<string, T>>, service: ServiceDefinition): T {
  const tariff = tariffs[service.serviceCode];
  if (!tariff) throw new RangeError(`no tariff for ${service.serviceCode}`);
  return tariff;
}
