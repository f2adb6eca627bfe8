/**
 * DHL Express rates: prices by weight and destination price group 1–5, billed on the greater of
 * actual and dimensional weight, plus remote-area, oversize-piece and fuel surcharges. The DHL
 * Express Envelope has its own price per group, whatever it weighs up to its 0.5 kg cap.
 *
 * ⚠ SYNTHETIC: DHL Express U.S. export rates were not retrieved. These tables, the surcharge amounts and the
 * fuel percentage are plausible
 * published-style values, to be replaced by DHL's rate guide
 * (https://mydhl.express.dhl/us/en/ship/surcharges.html for surcharges). DHL Express has no U.S.
 * residential surcharge, so none is added.
 */
import type {
  CostLine,
  PackageTypeDefinition,
  RateContext,
  RatedParcel,
  RateQuote,
  RateRefusal,
  ServiceDefinition,
} from "../catalogue.js";
import { billableWeightOz, type DimensionalWeightRule } from "../sandbox/billable-weight.js";
import { eligiblePackaging, isRefusal } from "../sandbox/eligibility.js";
import { quoteFromLines } from "../sandbox/money.js";
import { longestSideIn } from "../sandbox/parcel-geometry.js";
import { fuelSurchargeLine } from "../sandbox/parcel-surcharges.js";
import {
  baseRateLine,
  priceByWeight,
  priceColumn,
  priceInColumn,
  tariffFor,
  type WeightZoneTable,
} from "../sandbox/rate-table.js";

/** Fuel surcharge on transportation charges, in basis points; DHL sets it monthly, so it is configuration. */
export const DHL_EXPRESS_FUEL_SURCHARGE_BASIS_POINTS = 2750;

/** ⚠ 5,000 cm³/kg is DHL's usual divisor; 139 in³/lb is its U.S.-unit equivalent. Applies to every piece. */
const DHL_EXPRESS_DIMENSIONAL_WEIGHT: DimensionalWeightRule = { divisorCubicInPerLb: 139, appliesAboveCubicIn: 0 };

const EXPRESS_ENVELOPE = "envelope";
const INTERNATIONAL_FIRST_GROUP = 1;

/** Surcharge amounts (⚠ synthetic); an oversize piece has a side over 100 cm. */
export const DHL_EXPRESS_SURCHARGES = {
  remoteAreaDelivery: { description: "Remote Area Delivery", cents: 3500 },
  oversizePiece: { description: "Oversize Piece", cents: 10000, longestSideOverIn: 100 / 2.54 },
} as const;

// Weight × price-group tables, groups 1–5 (see rate-table.ts).

const EXPRESS_WORLDWIDE: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [6150, 6790, 8190, 8890, 10150] },
    { upToOz: 32, cents: [6970, 7740, 9380, 10230, 11720] },
    { upToOz: 48, cents: [7790, 8690, 10570, 11570, 13290] },
    { upToOz: 64, cents: [8610, 9640, 11760, 12910, 14860] },
    { upToOz: 80, cents: [9430, 10590, 12950, 14250, 16430] },
  ],
  eachAdditionalPoundCents: [640, 760, 960, 1090, 1270],
};

const EXPRESS_1200: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [7650, 8290, 9690, 10390, 11650] },
    { upToOz: 32, cents: [8470, 9240, 10880, 11730, 13220] },
    { upToOz: 48, cents: [9290, 10190, 12070, 13070, 14790] },
    { upToOz: 64, cents: [10110, 11140, 13260, 14410, 16360] },
    { upToOz: 80, cents: [10930, 12090, 14450, 15750, 17930] },
  ],
  eachAdditionalPoundCents: [640, 760, 960, 1090, 1270],
};

const EXPRESS_900: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [10650, 11290, 12690, 13390, 14650] },
    { upToOz: 32, cents: [11470, 12240, 13880, 14730, 16220] },
    { upToOz: 48, cents: [12290, 13190, 15070, 16070, 17790] },
    { upToOz: 64, cents: [13110, 14140, 16260, 17410, 19360] },
    { upToOz: 80, cents: [13930, 15090, 17450, 18750, 20930] },
  ],
  eachAdditionalPoundCents: [640, 760, 960, 1090, 1270],
};

/** Everything DHL Express prices a product by; replace an entry to reprice a product. */
export interface DhlExpressTariff {
  byWeight: WeightZoneTable;
  /** DHL Express Envelope price by price group 1–5. */
  envelopeCents: readonly number[];
}

/** `table` with every price moved by `percent` (negative for a cheaper product), to the cent. */
function repriced(table: WeightZoneTable, percent: number): WeightZoneTable {
  const move = (cents: number) => Math.round((cents * (100 + percent)) / 100);
  return {
    firstColumn: table.firstColumn,
    steps: table.steps.map((step) => ({ upToOz: step.upToOz, cents: step.cents.map(move) })),
    eachAdditionalPoundCents: table.eachAdditionalPoundCents?.map(move),
  };
}

const WORLDWIDE: DhlExpressTariff = {
  byWeight: EXPRESS_WORLDWIDE,
  envelopeCents: [5190, 5690, 6590, 7190, 7990],
};
// Day-definite but not time-definite: about a quarter below Express Worldwide (⚠ synthetic).
const ECONOMY: DhlExpressTariff = {
  byWeight: repriced(EXPRESS_WORLDWIDE, -25),
  envelopeCents: [3890, 4270, 4940, 5390, 5990],
};
const DOMESTIC: DhlExpressTariff = {
  byWeight: repriced(EXPRESS_WORLDWIDE, -45),
  envelopeCents: [2850, 3130, 3620, 3950, 4390],
};

export const DHL_EXPRESS_TARIFFS: Readonly<Record<string, DhlExpressTariff>> = {
  express_worldwide: WORLDWIDE,
  express1200: { byWeight: EXPRESS_1200, envelopeCents: [6690, 7190, 8090, 8690, 9490] },
  express900: { byWeight: EXPRESS_900, envelopeCents: [9690, 10190, 11090, 11690, 12490] },
  express1030: { byWeight: repriced(EXPRESS_1200, 15), envelopeCents: [8190, 8690, 9590, 10190, 10990] },
  express_worldwide_b2_c: WORLDWIDE,
  express_worldwide_ecx: WORLDWIDE,
  express_envelope: WORLDWIDE,
  // Express Easy is the retail (walk-in) price of Express Worldwide.
  express_easy: { byWeight: repriced(EXPRESS_WORLDWIDE, 20), envelopeCents: [6230, 6830, 7910, 8630, 9590] },
  break_bulk_express: WORLDWIDE,
  economy_select: ECONOMY,
  euro_pack: ECONOMY,
  break_bulk_economy: ECONOMY,
  freight_worldwide: ECONOMY,
  jumbo_box: ECONOMY,
  globalmail_business: ECONOMY,
  domestic_economy_select: DOMESTIC,
  domestic_express: DOMESTIC,
  domestic_express1030: DOMESTIC,
  domestic_express1200: DOMESTIC,
};

/** Products that carry shipments within one country (never the United States, where DHL Express has none). */
const WITHIN_ONE_COUNTRY = new Set([
  "domestic_economy_select",
  "domestic_express",
  "domestic_express1030",
  "domestic_express1200",
]);

/** Products DHL arranges by contract (courier, secure and logistics lines): listed, never priced per label. */
const ARRANGED_WITH_DHL: Readonly<Record<string, string>> = {
  jet_line: "Jetline",
  sprint_line: "Sprintline",
  secure_line: "Secureline",
  logistics_services: "Logistics Services",
};

/** Why DHL Express would not sell `service` for this lane, if it would not. */
function refusalForLane(service: ServiceDefinition, context: RateContext): RateRefusal | undefined {
  const arranged = ARRANGED_WITH_DHL[service.serviceCode];
  if (arranged) {
    return { refused: `DHL ${arranged} is arranged with DHL Express by contract and has no label price` };
  }
  if (WITHIN_ONE_COUNTRY.has(service.serviceCode) && context.fromCountry !== context.toCountry) {
    return { refused: `${service.name} carries shipments within one country outside the United States only` };
  }
  return undefined;
}

/** The base transportation charge and the weight it was billed at. */
function transportationCharge(
  service: ServiceDefinition,
  packaging: PackageTypeDefinition,
  tariff: DhlExpressTariff,
  parcel: RatedParcel,
  group: number,
): { line: CostLine; billableWeightOz: number } {
  if (packaging.type === EXPRESS_ENVELOPE) {
    const cents = priceInColumn(tariff.envelopeCents, INTERNATIONAL_FIRST_GROUP, group);
    return { line: baseRateLine(service, packaging, cents), billableWeightOz: parcel.weightOz };
  }
  const priced = priceByWeight(tariff.byWeight, billableWeightOz(parcel, DHL_EXPRESS_DIMENSIONAL_WEIGHT), group);
  return { line: baseRateLine(service, packaging, priced.cents), billableWeightOz: priced.weightOz };
}

function surchargeLines(parcel: RatedParcel, context: RateContext): CostLine[] {
  const { remoteAreaDelivery, oversizePiece } = DHL_EXPRESS_SURCHARGES;
  const lines: CostLine[] = [];
  if (context.deliveryArea) {
    lines.push({
      kind: "delivery_area",
      description: remoteAreaDelivery.description,
      amountCents: remoteAreaDelivery.cents,
    });
  }
  if (longestSideIn(parcel) > oversizePiece.longestSideOverIn) {
    lines.push({ kind: "oversize_piece", description: oversizePiece.description, amountCents: oversizePiece.cents });
  }
  return lines;
}

/** The charge for one piece on a DHL Express product, or DHL's reason for refusing it. */
export function rateService(
  service: ServiceDefinition,
  parcel: RatedParcel,
  context: RateContext,
): RateQuote | RateRefusal {
  const laneRefusal = refusalForLane(service, context);
  if (laneRefusal) return laneRefusal;
  const packaging = eligiblePackaging(service, parcel, context);
  if (isRefusal(packaging)) return packaging;
  const tariff = tariffFor(DHL_EXPRESS_TARIFFS, service);

  const base = transportationCharge(service, packaging, tariff, parcel, priceColumn(service, context));
  const transportation = [base.line, ...surchargeLines(parcel, context)];
  const fuel = fuelSurchargeLine(DHL_EXPRESS_FUEL_SURCHARGE_BASIS_POINTS, transportation);
  return quoteFromLines([...transportation, fuel], base.billableWeightOz);
}
