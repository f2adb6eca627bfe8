/**
 * USPS postage: retail prices by weight step and zone (international: by price group), Flat Rate
 * and Cubic Soft Pack prices, dimensional weight and the nonstandard fees (length and volume).
 * USPS has no fuel, residential or delivery-area surcharges, so none are added.
 *
 * The tables are replaceable data (see `USPS_TARIFFS`). Sources:
 * - Ground Advantage up to 5 lb: the October 2025 retail table (⚠ unverified third-party transcription);
 * - Priority Mail Medium and Large Flat Rate Box: January 2026 retail; Flat Rate and Legal Flat Rate
 *   Envelope: 2026 retail (⚠ low-quality source);
 * - everything else is ⚠ SYNTHETIC: plausible published-style prices derived from those points, to
 *   be replaced by Notice 123 tables (https://pe.usps.com/text/dmm300/Notice123.htm).
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
import { CUBIC_PACKAGE_TYPE, eligiblePackaging, isRefusal, refusalForSumOfSides } from "../sandbox/eligibility.js";
import { quoteFromLines } from "../sandbox/money.js";
import { cubicInches, lengthPlusGirthIn, longestSideIn, sidesLongestFirst } from "../sandbox/parcel-geometry.js";
import {
  baseRateLine,
  type PackagePriceTable,
  priceByPackage,
  priceByWeight,
  priceColumn,
  priceInColumn,
  tariffFor,
  type WeightZoneTable,
} from "../sandbox/rate-table.js";

/** Divisor 166 since 2019-06-23, only for pieces over one cubic foot. */
const USPS_DIMENSIONAL_WEIGHT: DimensionalWeightRule = { divisorCubicInPerLb: 166, appliesAboveCubicIn: 1728 };

const FIRST_ZONE = 1;

/** Ground Advantage and Parcel Select pieces over 108 in (up to 130 in) pay the oversized price whatever they weigh. */
const OVERSIZED_ABOVE_LENGTH_PLUS_GIRTH_IN = 108;

// Weight × zone tables, zones 1–9 (international: price groups 1–5, see rate-table.ts).

const GROUND_ADVANTAGE: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 4, cents: [720, 725, 735, 750, 780, 790, 810, 840, 840] },
    { upToOz: 8, cents: [750, 770, 785, 800, 835, 855, 880, 925, 925] },
    { upToOz: 12, cents: [855, 885, 905, 930, 975, 1000, 1045, 1110, 1110] },
    { upToOz: 16, cents: [910, 945, 975, 1010, 1065, 1100, 1155, 1245, 1245] },
    { upToOz: 32, cents: [985, 1045, 1105, 1180, 1280, 1370, 1490, 1715, 1715] },
    { upToOz: 48, cents: [1025, 1090, 1145, 1240, 1360, 1490, 1705, 2010, 2010] },
    { upToOz: 64, cents: [1130, 1175, 1255, 1360, 1535, 1700, 1925, 2220, 2220] },
    { upToOz: 80, cents: [1195, 1245, 1330, 1445, 1625, 1815, 2060, 2375, 2375] },
  ],
  eachAdditionalPoundCents: [45, 55, 70, 95, 130, 165, 210, 260, 260],
};

const PARCEL_SELECT: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 4, cents: [670, 675, 685, 700, 725, 735, 755, 780, 780] },
    { upToOz: 8, cents: [700, 715, 730, 745, 775, 795, 820, 860, 860] },
    { upToOz: 12, cents: [795, 825, 840, 865, 905, 930, 970, 1030, 1030] },
    { upToOz: 16, cents: [845, 880, 905, 940, 990, 1025, 1075, 1160, 1160] },
    { upToOz: 32, cents: [915, 970, 1030, 1095, 1190, 1275, 1385, 1595, 1595] },
    { upToOz: 48, cents: [955, 1015, 1065, 1155, 1265, 1385, 1585, 1870, 1870] },
    { upToOz: 64, cents: [1050, 1095, 1165, 1265, 1430, 1580, 1790, 2065, 2065] },
    { upToOz: 80, cents: [1110, 1160, 1235, 1345, 1510, 1690, 1915, 2210, 2210] },
  ],
  eachAdditionalPoundCents: [40, 50, 65, 90, 120, 155, 195, 240, 240],
};

const PRIORITY_MAIL: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [965, 1000, 1045, 1110, 1210, 1320, 1425, 1560, 1560] },
    { upToOz: 32, cents: [1045, 1120, 1235, 1370, 1550, 1740, 1905, 2080, 2080] },
    { upToOz: 48, cents: [1125, 1240, 1425, 1630, 1890, 2160, 2385, 2600, 2600] },
    { upToOz: 64, cents: [1205, 1360, 1615, 1890, 2230, 2580, 2865, 3120, 3120] },
    { upToOz: 80, cents: [1285, 1480, 1805, 2150, 2570, 3000, 3345, 3640, 3640] },
  ],
  eachAdditionalPoundCents: [55, 90, 140, 190, 250, 300, 340, 380, 380],
};

const PRIORITY_MAIL_EXPRESS: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 8, cents: [3045, 3160, 3370, 3650, 3990, 4360, 4760, 5195, 5195] },
    { upToOz: 16, cents: [3230, 3350, 3570, 3870, 4230, 4620, 5045, 5505, 5505] },
    { upToOz: 32, cents: [3520, 3710, 4090, 4560, 5100, 5660, 6255, 6895, 6895] },
    { upToOz: 48, cents: [3810, 4070, 4610, 5250, 5970, 6700, 7465, 8285, 8285] },
    { upToOz: 64, cents: [4100, 4430, 5130, 5940, 6840, 7740, 8675, 9675, 9675] },
    { upToOz: 80, cents: [4390, 4790, 5650, 6630, 7710, 8780, 9885, 11065, 11065] },
  ],
  eachAdditionalPoundCents: [230, 280, 400, 520, 650, 780, 900, 1020, 1020],
};

const FIRST_CLASS_LETTERS: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 1, cents: [78] },
    { upToOz: 2, cents: [107] },
    { upToOz: 3, cents: [136] },
    { upToOz: 3.5, cents: [165] },
  ],
};

const FIRST_CLASS_LARGE_ENVELOPES: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 1, cents: [163] },
    { upToOz: 2, cents: [190] },
    { upToOz: 3, cents: [217] },
    { upToOz: 4, cents: [244] },
    { upToOz: 5, cents: [271] },
    { upToOz: 6, cents: [298] },
    { upToOz: 7, cents: [325] },
    { upToOz: 8, cents: [352] },
    { upToOz: 9, cents: [379] },
    { upToOz: 10, cents: [406] },
    { upToOz: 11, cents: [433] },
    { upToOz: 12, cents: [460] },
    { upToOz: 13, cents: [487] },
  ],
};

const MEDIA_MAIL: WeightZoneTable = {
  firstColumn: 1,
  steps: [{ upToOz: 16, cents: [463] }],
  eachAdditionalPoundCents: [75],
};

const LIBRARY_MAIL: WeightZoneTable = {
  firstColumn: 1,
  steps: [{ upToOz: 16, cents: [440] }],
  eachAdditionalPoundCents: [72],
};

const FIRST_CLASS_PACKAGE_INTERNATIONAL: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 8, cents: [1735, 1860, 1995, 2050, 2180] },
    { upToOz: 32, cents: [3050, 3320, 3560, 3710, 3950] },
    { upToOz: 48, cents: [3910, 4270, 4590, 4780, 5100] },
    { upToOz: 64, cents: [4750, 5200, 5600, 5840, 6230] },
  ],
};

const PRIORITY_MAIL_INTERNATIONAL: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [5575, 6080, 7150, 7395, 7860] },
    { upToOz: 32, cents: [5935, 6620, 7790, 8085, 8700] },
    { upToOz: 48, cents: [6295, 7160, 8430, 8775, 9540] },
    { upToOz: 64, cents: [6655, 7700, 9070, 9465, 10380] },
    { upToOz: 80, cents: [7015, 8240, 9710, 10155, 11220] },
  ],
  eachAdditionalPoundCents: [300, 460, 560, 600, 740],
};

const PRIORITY_MAIL_EXPRESS_INTERNATIONAL: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 8, cents: [6395, 6795, 7395, 7795, 8595] },
    { upToOz: 16, cents: [6845, 7270, 7915, 8340, 9195] },
    { upToOz: 32, cents: [7315, 7910, 8705, 9170, 10125] },
    { upToOz: 48, cents: [7785, 8550, 9495, 10000, 11055] },
    { upToOz: 64, cents: [8255, 9190, 10285, 10830, 11985] },
    { upToOz: 80, cents: [8725, 9830, 11075, 11660, 12915] },
  ],
  eachAdditionalPoundCents: [420, 560, 720, 760, 860],
};

const PRIORITY_MAIL_SOFTPACK_TIERS: PackagePriceTable = {
  firstColumn: 1,
  prices: {
    "0.1": [805, 830, 860, 900, 950, 1020, 1090, 1180, 1180],
    "0.2": [910, 940, 970, 1015, 1075, 1155, 1230, 1335, 1335],
    "0.3": [1015, 1045, 1085, 1135, 1195, 1285, 1375, 1485, 1485],
    "0.4": [1120, 1155, 1195, 1250, 1320, 1420, 1515, 1640, 1640],
    "0.5": [1225, 1260, 1305, 1370, 1445, 1550, 1655, 1795, 1795],
  },
};

/** Ground Advantage oversized prices by zone 1–9 (⚠ synthetic). */
const GROUND_ADVANTAGE_OVERSIZED_CENTS = [6010, 6350, 7255, 8900, 10650, 12550, 14550, 19850, 19850];
/** Parcel Select oversized prices by zone 1–9 (⚠ synthetic). */
const PARCEL_SELECT_OVERSIZED_CENTS = [5590, 5905, 6745, 8275, 9905, 11670, 13530, 18460, 18460];

/** Zone-less: "if it fits, it ships" at one price anywhere in the US. */
const PRIORITY_MAIL_FLAT_RATE: PackagePriceTable = {
  firstColumn: 1,
  prices: {
    flat_rate_envelope: [1015],
    flat_rate_legal_envelope: [1045],
    flat_rate_padded_envelope: [1090],
    small_flat_rate_box: [1165],
    medium_flat_rate_box: [1960],
    large_flat_rate_box: [2870],
    military_flat_rate_box: [2670],
  },
};

const PRIORITY_MAIL_EXPRESS_FLAT_RATE: PackagePriceTable = {
  firstColumn: 1,
  prices: {
    flat_rate_envelope: [3395],
    flat_rate_legal_envelope: [3415],
    flat_rate_padded_envelope: [3445],
  },
};

/** International Flat Rate prices still vary by price group 1–5. */
const PRIORITY_MAIL_INTERNATIONAL_FLAT_RATE: PackagePriceTable = {
  firstColumn: 1,
  prices: {
    flat_rate_envelope: [3795, 4195, 4595, 4695, 4895],
    flat_rate_legal_envelope: [3895, 4295, 4695, 4795, 4995],
    flat_rate_padded_envelope: [3995, 4395, 4795, 4895, 5095],
    small_flat_rate_box: [3845, 4245, 4645, 4745, 4945],
    medium_flat_rate_box: [9045, 10945, 13595, 14195, 14995],
    large_flat_rate_box: [11745, 14095, 17395, 18295, 19295],
  },
};

const PRIORITY_MAIL_EXPRESS_INTERNATIONAL_FLAT_RATE: PackagePriceTable = {
  firstColumn: 1,
  prices: {
    flat_rate_envelope: [6395, 6795, 7395, 7795, 8595],
    flat_rate_legal_envelope: [6545, 6945, 7545, 7945, 8745],
    flat_rate_padded_envelope: [6645, 7045, 7645, 8045, 8845],
  },
};

const SOFTPACK_MAX_LENGTH_PLUS_WIDTH_IN = 36;
/** Cubic Soft Pack tiers by length + width of the face, each side rounded down to 1/4 in. */
const SOFTPACK_TIERS = [
  { maxLengthPlusWidthIn: 21, tier: "0.1" },
  { maxLengthPlusWidthIn: 27, tier: "0.2" },
  { maxLengthPlusWidthIn: 31, tier: "0.3" },
  { maxLengthPlusWidthIn: 34, tier: "0.4" },
  { maxLengthPlusWidthIn: SOFTPACK_MAX_LENGTH_PLUS_WIDTH_IN, tier: "0.5" },
] as const;

/** Nonstandard fees, 2025 structure: the length fee and the volume fee both apply. */
export interface NonstandardFees {
  lengthOver22InCents: number;
  lengthOver30InCents: number;
  volumeOver2CubicFeetCents: number;
}
const PRIORITY_NONSTANDARD_FEES: NonstandardFees = {
  lengthOver22InCents: 400,
  lengthOver30InCents: 1800,
  volumeOver2CubicFeetCents: 3000,
};
const GROUND_NONSTANDARD_FEES: NonstandardFees = {
  lengthOver22InCents: 400,
  lengthOver30InCents: 840,
  volumeOver2CubicFeetCents: 1800,
};
const NONSTANDARD_LENGTH_IN = 22;
const NONSTANDARD_LONG_LENGTH_IN = 30;
const NONSTANDARD_VOLUME_CUBIC_IN = 2 * 1728;

/** Everything USPS prices a service by; replace an entry to reprice a service. */
export interface UspsTariff {
  /** Weight × zone prices by package type (`parcel` for the mailer's own packaging). */
  byWeight: Readonly<Record<string, WeightZoneTable>>;
  flatRate?: PackagePriceTable;
  /** Cubic Soft Pack prices by tier ("0.1" … "0.5"), then zone. */
  softpack?: PackagePriceTable;
  /** Price by zone 1–9 for pieces over 108 in length plus girth. */
  oversizedCents?: readonly number[];
  dimensionalWeight: boolean;
  nonstandardFees?: NonstandardFees;
  /** Limit on length + width + height, where USPS sets one (First-Class Package International). */
  maxSumOfSidesIn?: number;
}

const GROUND_ADVANTAGE_TARIFF: UspsTariff = {
  byWeight: { parcel: GROUND_ADVANTAGE },
  oversizedCents: GROUND_ADVANTAGE_OVERSIZED_CENTS,
  dimensionalWeight: true,
  nonstandardFees: GROUND_NONSTANDARD_FEES,
};

// ⚠ Parcel Select, Media Mail and Library Mail are assumed to pay the Ground Advantage nonstandard fees.
export const USPS_TARIFFS: Readonly<Record<string, UspsTariff>> = {
  usps_ground_advantage: GROUND_ADVANTAGE_TARIFF,
  usps_ground_advantage_gde: GROUND_ADVANTAGE_TARIFF,
  usps_priority: {
    byWeight: { parcel: PRIORITY_MAIL },
    flatRate: PRIORITY_MAIL_FLAT_RATE,
    softpack: PRIORITY_MAIL_SOFTPACK_TIERS,
    dimensionalWeight: true,
    nonstandardFees: PRIORITY_NONSTANDARD_FEES,
  },
  usps_express: {
    byWeight: { parcel: PRIORITY_MAIL_EXPRESS },
    flatRate: PRIORITY_MAIL_EXPRESS_FLAT_RATE,
    dimensionalWeight: true,
    nonstandardFees: PRIORITY_NONSTANDARD_FEES,
  },
  usps_parcel_select: {
    byWeight: { parcel: PARCEL_SELECT },
    oversizedCents: PARCEL_SELECT_OVERSIZED_CENTS,
    dimensionalWeight: true,
    nonstandardFees: GROUND_NONSTANDARD_FEES,
  },
  usps_first_class: {
    byWeight: { letter: FIRST_CLASS_LETTERS, large_envelope: FIRST_CLASS_LARGE_ENVELOPES },
    dimensionalWeight: false,
  },
  usps_media_mail: {
    byWeight: { parcel: MEDIA_MAIL },
    dimensionalWeight: false,
    nonstandardFees: GROUND_NONSTANDARD_FEES,
  },
  usps_library_mail: {
    byWeight: { parcel: LIBRARY_MAIL },
    dimensionalWeight: false,
    nonstandardFees: GROUND_NONSTANDARD_FEES,
  },
  usps_intl_first_class_package: {
    byWeight: { parcel: FIRST_CLASS_PACKAGE_INTERNATIONAL },
    dimensionalWeight: false,
    maxSumOfSidesIn: 36,
  },
  usps_intl_priority: {
    byWeight: { parcel: PRIORITY_MAIL_INTERNATIONAL },
    flatRate: PRIORITY_MAIL_INTERNATIONAL_FLAT_RATE,
    dimensionalWeight: false,
  },
  usps_intl_express: {
    byWeight: { parcel: PRIORITY_MAIL_EXPRESS_INTERNATIONAL },
    flatRate: PRIORITY_MAIL_EXPRESS_INTERNATIONAL_FLAT_RATE,
    dimensionalWeight: false,
  },
};

/** Flat Rate: one price per packaging (per price group abroad), whatever the weight. */
function flatRateQuote(
  service: ServiceDefinition,
  packaging: PackageTypeDefinition,
  table: PackagePriceTable,
  parcel: RatedParcel,
  column: number,
): RateQuote {
  const cents = priceByPackage(table, packaging.type, column);
  return quoteFromLines([baseRateLine(service, packaging, cents)], parcel.weightOz);
}

function roundDownToQuarterInch(inches: number): number {
  return Math.floor(inches * 4) / 4;
}

/** Soft packs are priced by the tier their face falls in, not by weight. */
function softpackQuote(
  service: ServiceDefinition,
  packaging: PackageTypeDefinition,
  table: PackagePriceTable,
  parcel: RatedParcel,
  zone: number,
): RateQuote | RateRefusal {
  const [length, width] = sidesLongestFirst(parcel);
  if (length === 0) return { refused: `${packaging.name} is priced by its size: send length, width and height` };
  const lengthPlusWidth = roundDownToQuarterInch(length) + roundDownToQuarterInch(width);
  const tier = SOFTPACK_TIERS.find((candidate) => lengthPlusWidth <= candidate.maxLengthPlusWidthIn);
  if (!tier) {
    return { refused: `Length plus width exceeds ${SOFTPACK_MAX_LENGTH_PLUS_WIDTH_IN} in limit for ${packaging.name}` };
  }
  const cents = priceByPackage(table, tier.tier, zone);
  return quoteFromLines([baseRateLine(service, packaging, cents)], parcel.weightOz);
}

function nonstandardFeeLines(fees: NonstandardFees | undefined, parcel: RatedParcel): CostLine[] {
  if (!fees) return [];
  const lines: CostLine[] = [];
  const length = longestSideIn(parcel);
  if (length > NONSTANDARD_LONG_LENGTH_IN) {
    lines.push({
      kind: "nonstandard_length",
      description: "Nonstandard Length Fee (over 30 in)",
      amountCents: fees.lengthOver30InCents,
    });
  } else if (length > NONSTANDARD_LENGTH_IN) {
    lines.push({
      kind: "nonstandard_length",
      description: "Nonstandard Length Fee (over 22 in)",
      amountCents: fees.lengthOver22InCents,
    });
  }
  if (cubicInches(parcel) > NONSTANDARD_VOLUME_CUBIC_IN) {
    lines.push({
      kind: "nonstandard_volume",
      description: "Nonstandard Volume Fee (over 2 cu ft)",
      amountCents: fees.volumeOver2CubicFeetCents,
    });
  }
  return lines;
}

/** Weight × zone pricing with DIM weight, the oversized price and nonstandard fees. */
function weightQuote(
  service: ServiceDefinition,
  packaging: PackageTypeDefinition,
  tariff: UspsTariff,
  parcel: RatedParcel,
  column: number,
): RateQuote {
  const table = tariff.byWeight[packaging.type];
  if (!table) throw new RangeError(`no USPS weight table for ${service.serviceCode} ${packaging.type}`);
  const rule = tariff.dimensionalWeight ? USPS_DIMENSIONAL_WEIGHT : null;
  // DIM weight above the service's maximum pays the maximum-weight price.
  const priced = priceByWeight(table, Math.min(billableWeightOz(parcel, rule), service.maxWeightOz), column);
  const oversizedCents =
    lengthPlusGirthIn(parcel) > OVERSIZED_ABOVE_LENGTH_PLUS_GIRTH_IN ? tariff.oversizedCents : undefined;
  const base = oversizedCents ? priceInColumn(oversizedCents, FIRST_ZONE, column) : priced.cents;
  return quoteFromLines(
    [baseRateLine(service, packaging, base), ...nonstandardFeeLines(tariff.nonstandardFees, parcel)],
    priced.weightOz,
  );
}

/** Postage for one parcel on a USPS service, or USPS's reason for refusing it. */
export function rateService(
  service: ServiceDefinition,
  parcel: RatedParcel,
  context: RateContext,
): RateQuote | RateRefusal {
  const packaging = eligiblePackaging(service, parcel, context);
  if (isRefusal(packaging)) return packaging;
  const tariff = tariffFor(USPS_TARIFFS, service);
  const column = priceColumn(service, context);
  const sizeRefusal = refusalForSumOfSides(service, tariff.maxSumOfSidesIn, parcel);
  if (sizeRefusal) return sizeRefusal;

  if (packaging.flatRate && tariff.flatRate) return flatRateQuote(service, packaging, tariff.flatRate, parcel, column);
  if (packaging.type === CUBIC_PACKAGE_TYPE && tariff.softpack) {
    return softpackQuote(service, packaging, tariff.softpack, parcel, column);
  }
  return weightQuote(service, packaging, tariff, parcel, column);
}
