/**
 * UPS rates: daily-rate-style prices by weight and zone 2–8 (international: price groups 1–5),
 * billed on the greater of actual and dimensional weight (divisor 139, every package), plus
 * residential, delivery-area, additional-handling / large-package and fuel surcharges.
 *
 * ⚠ SYNTHETIC: UPS list rates by zone and weight could not be retrieved. These
 * tables are plausible published-style prices, to be replaced by UPS's
 * Daily Rates (https://www.ups.com/us/en/support/shipping-support/shipping-costs-rates.page).
 * Additional-handling amounts are 2025 figures seen through a reseller; the
 * fuel percentage is the mid-2025 ground level; the other surcharge amounts are synthetic.
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
import {
  type AccessorialSchedule,
  accessorialLines,
  fuelSurchargeLine,
  withLargePackageMinimum,
} from "../sandbox/parcel-surcharges.js";
import {
  baseRateLine,
  priceByWeight,
  priceColumn,
  priceInColumn,
  tariffFor,
  type WeightZoneTable,
} from "../sandbox/rate-table.js";

/** Fuel surcharge on transportation charges, in basis points; UPS changes it weekly, so it is configuration. */
export const UPS_FUEL_SURCHARGE_BASIS_POINTS = 2050;

/** (L × W × H, each rounded to the nearest inch) ÷ 139, for every package. */
const UPS_DIMENSIONAL_WEIGHT: DimensionalWeightRule = { divisorCubicInPerLb: 139, appliesAboveCubicIn: 0 };

/** A UPS Letter up to 8 oz pays the letter price; a heavier one is rated by weight. */
const LETTER_RATE_MAX_OZ = 8;
const UPS_LETTER = "ups_letter";
const DOMESTIC_FIRST_ZONE = 2;

const ADDITIONAL_HANDLING: AccessorialSchedule["additionalHandling"] = {
  weight: { description: "Additional Handling - Weight", cents: 1925 },
  dimensions: { description: "Additional Handling - Dimensions", cents: 1295 },
};
const LARGE_PACKAGE = { description: "Large Package Surcharge", cents: 24000 };

/** Ground-network and air-network surcharge amounts differ. */
export const UPS_ACCESSORIALS: Readonly<Record<"ground" | "air", AccessorialSchedule>> = {
  ground: {
    residential: { description: "Residential Surcharge", cents: 595 },
    deliveryArea: { description: "Delivery Area Surcharge", residentialCents: 545, commercialCents: 395 },
    additionalHandling: ADDITIONAL_HANDLING,
    largePackage: LARGE_PACKAGE,
  },
  air: {
    residential: { description: "Residential Surcharge", cents: 645 },
    deliveryArea: { description: "Delivery Area Surcharge", residentialCents: 605, commercialCents: 395 },
    additionalHandling: ADDITIONAL_HANDLING,
    largePackage: LARGE_PACKAGE,
  },
};

// Weight × zone tables: zones 2–8 at home, price groups 1–5 abroad (UPS Standard: Canada, Mexico).

const GROUND: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [1075, 1120, 1185, 1245, 1310, 1365, 1465] },
    { upToOz: 32, cents: [1150, 1225, 1350, 1465, 1590, 1695, 1855] },
    { upToOz: 48, cents: [1225, 1330, 1515, 1685, 1870, 2025, 2245] },
    { upToOz: 64, cents: [1300, 1435, 1680, 1905, 2150, 2355, 2635] },
    { upToOz: 80, cents: [1375, 1540, 1845, 2125, 2430, 2685, 3025] },
  ],
  eachAdditionalPoundCents: [50, 70, 105, 140, 180, 215, 240],
};

const THREE_DAY_SELECT: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [2650, 3150, 3780, 4220, 4610, 4980, 5400] },
    { upToOz: 32, cents: [2940, 3570, 4340, 4940, 5450, 5940, 6500] },
    { upToOz: 48, cents: [3230, 3990, 4900, 5660, 6290, 6900, 7600] },
    { upToOz: 64, cents: [3520, 4410, 5460, 6380, 7130, 7860, 8700] },
    { upToOz: 80, cents: [3810, 4830, 6020, 7100, 7970, 8820, 9800] },
  ],
  eachAdditionalPoundCents: [230, 330, 450, 560, 660, 760, 860],
};

const SECOND_DAY_AIR: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [2920, 3495, 4200, 4700, 5150, 5600, 6090] },
    { upToOz: 32, cents: [3280, 3995, 4860, 5530, 6140, 6730, 7380] },
    { upToOz: 48, cents: [3640, 4495, 5520, 6360, 7130, 7860, 8670] },
    { upToOz: 64, cents: [4000, 4995, 6180, 7190, 8120, 8990, 9960] },
    { upToOz: 80, cents: [4360, 5495, 6840, 8020, 9110, 10120, 11250] },
  ],
  eachAdditionalPoundCents: [290, 400, 530, 660, 790, 900, 1030],
};

const SECOND_DAY_AIR_AM: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [3270, 3915, 4705, 5265, 5770, 6270, 6820] },
    { upToOz: 32, cents: [3675, 4475, 5445, 6195, 6880, 7535, 8265] },
    { upToOz: 48, cents: [4080, 5035, 6185, 7125, 7990, 8800, 9710] },
    { upToOz: 64, cents: [4485, 5595, 6925, 8055, 9100, 10065, 11155] },
    { upToOz: 80, cents: [4890, 6155, 7665, 8985, 10210, 11330, 12600] },
  ],
  eachAdditionalPoundCents: [325, 450, 595, 740, 885, 1010, 1155],
};

const NEXT_DAY_AIR_SAVER: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [6010, 6650, 7400, 7850, 8350, 8750, 9200] },
    { upToOz: 32, cents: [6630, 7410, 8330, 8930, 9550, 10070, 10650] },
    { upToOz: 48, cents: [7250, 8170, 9260, 10010, 10750, 11390, 12100] },
    { upToOz: 64, cents: [7870, 8930, 10190, 11090, 11950, 12710, 13550] },
    { upToOz: 80, cents: [8490, 9690, 11120, 12170, 13150, 14030, 15000] },
  ],
  eachAdditionalPoundCents: [500, 610, 740, 860, 960, 1060, 1160],
};

const NEXT_DAY_AIR: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [6490, 7180, 7990, 8480, 9020, 9450, 9935] },
    { upToOz: 32, cents: [7160, 8000, 8995, 9645, 10315, 10875, 11500] },
    { upToOz: 48, cents: [7830, 8820, 10000, 10810, 11610, 12300, 13065] },
    { upToOz: 64, cents: [8500, 9640, 11005, 11975, 12905, 13725, 14630] },
    { upToOz: 80, cents: [9170, 10460, 12010, 13140, 14200, 15150, 16195] },
  ],
  eachAdditionalPoundCents: [540, 660, 800, 930, 1035, 1145, 1255],
};

const NEXT_DAY_AIR_EARLY: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [9990, 10680, 11490, 11980, 12520, 12950, 13435] },
    { upToOz: 32, cents: [10660, 11500, 12495, 13145, 13815, 14375, 15000] },
    { upToOz: 48, cents: [11330, 12320, 13500, 14310, 15110, 15800, 16565] },
    { upToOz: 64, cents: [12000, 13140, 14505, 15475, 16405, 17225, 18130] },
    { upToOz: 80, cents: [12670, 13960, 15510, 16640, 17700, 18650, 19695] },
  ],
  eachAdditionalPoundCents: [540, 660, 800, 930, 1035, 1145, 1255],
};

const WORLDWIDE_EXPRESS: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [7050, 7590, 9350, 10150, 11600] },
    { upToOz: 32, cents: [7940, 8610, 10640, 11600, 13290] },
    { upToOz: 48, cents: [8830, 9630, 11930, 13050, 14980] },
    { upToOz: 64, cents: [9720, 10650, 13220, 14500, 16670] },
    { upToOz: 80, cents: [10610, 11670, 14510, 15950, 18360] },
  ],
  eachAdditionalPoundCents: [690, 820, 1040, 1170, 1360],
};

const WORLDWIDE_EXPRESS_PLUS: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [11550, 12090, 13850, 14650, 16100] },
    { upToOz: 32, cents: [12440, 13110, 15140, 16100, 17790] },
    { upToOz: 48, cents: [13330, 14130, 16430, 17550, 19480] },
    { upToOz: 64, cents: [14220, 15150, 17720, 19000, 21170] },
    { upToOz: 80, cents: [15110, 16170, 19010, 20450, 22860] },
  ],
  eachAdditionalPoundCents: [690, 820, 1040, 1170, 1360],
};

const WORLDWIDE_SAVER: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [6700, 7210, 8885, 9645, 11020] },
    { upToOz: 32, cents: [7545, 8180, 10110, 11025, 12625] },
    { upToOz: 48, cents: [8390, 9150, 11335, 12405, 14230] },
    { upToOz: 64, cents: [9235, 10120, 12560, 13785, 15835] },
    { upToOz: 80, cents: [10080, 11090, 13785, 15165, 17440] },
  ],
  eachAdditionalPoundCents: [655, 780, 990, 1110, 1290],
};

const WORLDWIDE_EXPEDITED: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [5995, 6450, 7950, 8630, 9860] },
    { upToOz: 32, cents: [6750, 7315, 9045, 9865, 11295] },
    { upToOz: 48, cents: [7505, 8180, 10140, 11100, 12730] },
    { upToOz: 64, cents: [8260, 9045, 11235, 12335, 14165] },
    { upToOz: 80, cents: [9015, 9910, 12330, 13570, 15600] },
  ],
  eachAdditionalPoundCents: [585, 695, 885, 995, 1155],
};

const STANDARD: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [2150, 2690] },
    { upToOz: 32, cents: [2360, 3010] },
    { upToOz: 48, cents: [2570, 3330] },
    { upToOz: 64, cents: [2780, 3650] },
    { upToOz: 80, cents: [2990, 3970] },
  ],
  eachAdditionalPoundCents: [160, 250],
};

/** Everything UPS prices a service by; replace an entry to reprice a service. */
export interface UpsTariff {
  byWeight: WeightZoneTable;
  /** UPS Letter prices by zone 2–8, for air services that take the letter. */
  letterCents?: readonly number[];
  network: "ground" | "air";
  /** Destination countries, where the service reaches only some. */
  destinationCountries?: readonly string[];
}

export const UPS_TARIFFS: Readonly<Record<string, UpsTariff>> = {
  ups_ground: { byWeight: GROUND, network: "ground" },
  ups_3day_select: { byWeight: THREE_DAY_SELECT, network: "air" },
  ups_2nd_day: {
    byWeight: SECOND_DAY_AIR,
    letterCents: [2335, 2795, 3360, 3760, 4120, 4480, 4870],
    network: "air",
  },
  ups_2nd_day_am: {
    byWeight: SECOND_DAY_AIR_AM,
    letterCents: [2615, 3130, 3765, 4210, 4615, 5015, 5455],
    network: "air",
  },
  ups_next_day_saver: {
    byWeight: NEXT_DAY_AIR_SAVER,
    letterCents: [4810, 5320, 5920, 6280, 6680, 7000, 7360],
    network: "air",
  },
  ups_next_day: {
    byWeight: NEXT_DAY_AIR,
    letterCents: [5190, 5745, 6390, 6785, 7215, 7560, 7950],
    network: "air",
  },
  ups_next_day_am: {
    byWeight: NEXT_DAY_AIR_EARLY,
    letterCents: [7990, 8545, 9190, 9585, 10015, 10360, 10750],
    network: "air",
  },
  ups_express: { byWeight: WORLDWIDE_EXPRESS, network: "air" },
  ups_express_plus: { byWeight: WORLDWIDE_EXPRESS_PLUS, network: "air" },
  ups_saver: { byWeight: WORLDWIDE_SAVER, network: "air" },
  ups_expedited: { byWeight: WORLDWIDE_EXPEDITED, network: "air" },
  ups_standard: { byWeight: STANDARD, network: "ground", destinationCountries: ["CA", "MX"] },
};

function refusalForDestination(
  service: ServiceDefinition,
  tariff: UpsTariff,
  context: RateContext,
): RateRefusal | undefined {
  const countries = tariff.destinationCountries;
  if (!countries || countries.includes(context.toCountry.toUpperCase())) return undefined;
  return { refused: `${service.name} is not available to ${context.toCountry}; it serves ${countries.join(", ")}` };
}

/** The base transportation charge and the weight it was billed at. */
function transportationCharge(
  service: ServiceDefinition,
  packaging: PackageTypeDefinition,
  tariff: UpsTariff,
  parcel: RatedParcel,
  column: number,
): { line: CostLine; billableWeightOz: number } {
  if (packaging.type === UPS_LETTER && tariff.letterCents && parcel.weightOz <= LETTER_RATE_MAX_OZ) {
    const cents = priceInColumn(tariff.letterCents, DOMESTIC_FIRST_ZONE, column);
    return { line: baseRateLine(service, packaging, cents), billableWeightOz: parcel.weightOz };
  }
  const billable = withLargePackageMinimum(billableWeightOz(parcel, UPS_DIMENSIONAL_WEIGHT), parcel);
  const priced = priceByWeight(tariff.byWeight, billable, column);
  return { line: baseRateLine(service, packaging, priced.cents), billableWeightOz: priced.weightOz };
}

/** The charge for one parcel on a UPS service, or UPS's reason for refusing it. */
export function rateService(
  service: ServiceDefinition,
  parcel: RatedParcel,
  context: RateContext,
): RateQuote | RateRefusal {
  const packaging = eligiblePackaging(service, parcel, context);
  if (isRefusal(packaging)) return packaging;
  const tariff = tariffFor(UPS_TARIFFS, service);
  const destinationRefusal = refusalForDestination(service, tariff, context);
  if (destinationRefusal) return destinationRefusal;

  const base = transportationCharge(service, packaging, tariff, parcel, priceColumn(service, context));
  const transportation = [
    base.line,
    ...accessorialLines(UPS_ACCESSORIALS[tariff.network], parcel, service.scope, context),
  ];
  const fuel = fuelSurchargeLine(UPS_FUEL_SURCHARGE_BASIS_POINTS, transportation);
  return quoteFromLines([...transportation, fuel], base.billableWeightOz);
}
