/**
 * FedEx rates: list-style prices by weight and zone 2–8 (international: price groups 1–5), billed
 * on the greater of actual and dimensional weight (divisor 139), plus residential, delivery-area,
 * additional-handling / oversize and fuel surcharges. FedEx One Rate prices FedEx-branded
 * packaging on U.S. Express services by packaging and zone, and already includes fuel,
 * residential and delivery-area charges, so a One Rate quote has one line.
 *
 * ⚠ SYNTHETIC: FedEx list rates and One Rate prices could not be retrieved. These
 * tables are plausible published-style prices, to be replaced by the
 * FedEx Service Guide rates (https://www.fedex.com/en-us/shipping/rates.html). The fuel percentage
 * is the mid-2025 ground level; the surcharge amounts are synthetic.
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
  type PackagePriceTable,
  priceByPackage,
  priceByWeight,
  priceColumn,
  tariffFor,
  type WeightZoneTable,
} from "../sandbox/rate-table.js";

/** Fuel surcharge on transportation charges, in basis points; FedEx changes it weekly, so it is configuration. */
export const FEDEX_FUEL_SURCHARGE_BASIS_POINTS = 2050;

/** (L × W × H, each rounded to the nearest inch) ÷ 139, for every package. */
const FEDEX_DIMENSIONAL_WEIGHT: DimensionalWeightRule = { divisorCubicInPerLb: 139, appliesAboveCubicIn: 0 };

const ADDITIONAL_HANDLING: AccessorialSchedule["additionalHandling"] = {
  weight: { description: "Additional Handling Surcharge - Weight", cents: 1990 },
  dimensions: { description: "Additional Handling Surcharge - Dimensions", cents: 1330 },
};
const OVERSIZE = { description: "Oversize Charge", cents: 24500 };

/** Ground-network (Ground, Home Delivery) and Express surcharge amounts differ. */
export const FEDEX_ACCESSORIALS: Readonly<Record<"ground" | "express", AccessorialSchedule>> = {
  ground: {
    residential: { description: "Residential Delivery Charge", cents: 595 },
    deliveryArea: { description: "Delivery Area Surcharge", residentialCents: 580, commercialCents: 370 },
    additionalHandling: ADDITIONAL_HANDLING,
    largePackage: OVERSIZE,
  },
  express: {
    residential: { description: "Residential Delivery Charge", cents: 645 },
    deliveryArea: { description: "Delivery Area Surcharge", residentialCents: 580, commercialCents: 390 },
    additionalHandling: ADDITIONAL_HANDLING,
    largePackage: OVERSIZE,
  },
};

// Weight × zone tables: zones 2–8 at home, price groups 1–5 abroad; then One Rate by packaging × zone.

/** FedEx Home Delivery shares the FedEx Ground price table; only the surcharges differ. */
const GROUND: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [1065, 1115, 1180, 1240, 1305, 1360, 1455] },
    { upToOz: 32, cents: [1140, 1220, 1345, 1460, 1585, 1690, 1845] },
    { upToOz: 48, cents: [1215, 1325, 1510, 1680, 1865, 2020, 2235] },
    { upToOz: 64, cents: [1290, 1430, 1675, 1900, 2145, 2350, 2625] },
    { upToOz: 80, cents: [1365, 1535, 1840, 2120, 2425, 2680, 3015] },
  ],
  eachAdditionalPoundCents: [50, 70, 105, 140, 180, 215, 240],
};

const EXPRESS_SAVER: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [2390, 2650, 3100, 3390, 3670, 3910, 4230] },
    { upToOz: 32, cents: [2620, 2980, 3550, 3970, 4370, 4710, 5150] },
    { upToOz: 48, cents: [2850, 3310, 4000, 4550, 5070, 5510, 6070] },
    { upToOz: 64, cents: [3080, 3640, 4450, 5130, 5770, 6310, 6990] },
    { upToOz: 80, cents: [3310, 3970, 4900, 5710, 6470, 7110, 7910] },
  ],
  eachAdditionalPoundCents: [190, 270, 370, 470, 570, 650, 750],
};

const TWO_DAY: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [2850, 3440, 4150, 4650, 5100, 5540, 6040] },
    { upToOz: 32, cents: [3200, 3930, 4800, 5470, 6080, 6660, 7320] },
    { upToOz: 48, cents: [3550, 4420, 5450, 6290, 7060, 7780, 8600] },
    { upToOz: 64, cents: [3900, 4910, 6100, 7110, 8040, 8900, 9880] },
    { upToOz: 80, cents: [4250, 5400, 6750, 7930, 9020, 10020, 11160] },
  ],
  eachAdditionalPoundCents: [280, 390, 520, 650, 780, 890, 1020],
};

const TWO_DAY_AM: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [3190, 3855, 4650, 5210, 5710, 6205, 6765] },
    { upToOz: 32, cents: [3580, 4405, 5380, 6130, 6810, 7460, 8200] },
    { upToOz: 48, cents: [3970, 4955, 6110, 7050, 7910, 8715, 9635] },
    { upToOz: 64, cents: [4360, 5505, 6840, 7970, 9010, 9970, 11070] },
    { upToOz: 80, cents: [4750, 6055, 7570, 8890, 10110, 11225, 12505] },
  ],
  eachAdditionalPoundCents: [315, 435, 580, 730, 875, 995, 1140],
};

const STANDARD_OVERNIGHT: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [5890, 6540, 7270, 7720, 8220, 8610, 9060] },
    { upToOz: 32, cents: [6500, 7290, 8190, 8790, 9410, 9920, 10500] },
    { upToOz: 48, cents: [7110, 8040, 9110, 9860, 10600, 11230, 11940] },
    { upToOz: 64, cents: [7720, 8790, 10030, 10930, 11790, 12540, 13380] },
    { upToOz: 80, cents: [8330, 9540, 10950, 12000, 12980, 13850, 14820] },
  ],
  eachAdditionalPoundCents: [490, 600, 730, 850, 950, 1050, 1150],
};

const PRIORITY_OVERNIGHT: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [6595, 7325, 8140, 8645, 9205, 9645, 10145] },
    { upToOz: 32, cents: [7280, 8165, 9170, 9845, 10540, 11110, 11760] },
    { upToOz: 48, cents: [7965, 9005, 10200, 11045, 11875, 12575, 13375] },
    { upToOz: 64, cents: [8650, 9845, 11230, 12245, 13210, 14040, 14990] },
    { upToOz: 80, cents: [9335, 10685, 12260, 13445, 14545, 15505, 16605] },
  ],
  eachAdditionalPoundCents: [550, 670, 820, 950, 1065, 1175, 1290],
};

const FIRST_OVERNIGHT: WeightZoneTable = {
  firstColumn: 2,
  steps: [
    { upToOz: 16, cents: [10095, 10825, 11640, 12145, 12705, 13145, 13645] },
    { upToOz: 32, cents: [10780, 11665, 12670, 13345, 14040, 14610, 15260] },
    { upToOz: 48, cents: [11465, 12505, 13700, 14545, 15375, 16075, 16875] },
    { upToOz: 64, cents: [12150, 13345, 14730, 15745, 16710, 17540, 18490] },
    { upToOz: 80, cents: [12835, 14185, 15760, 16945, 18045, 19005, 20105] },
  ],
  eachAdditionalPoundCents: [550, 670, 820, 950, 1065, 1175, 1290],
};

const INTERNATIONAL_PRIORITY: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [6890, 7450, 9190, 9990, 11450] },
    { upToOz: 32, cents: [7770, 8460, 10460, 11420, 13120] },
    { upToOz: 48, cents: [8650, 9470, 11730, 12850, 14790] },
    { upToOz: 64, cents: [9530, 10480, 13000, 14280, 16460] },
    { upToOz: 80, cents: [10410, 11490, 14270, 15710, 18130] },
  ],
  eachAdditionalPoundCents: [680, 810, 1030, 1160, 1350],
};

const INTERNATIONAL_ECONOMY: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [5650, 6110, 7535, 8190, 9390] },
    { upToOz: 32, cents: [6370, 6940, 8575, 9365, 10760] },
    { upToOz: 48, cents: [7090, 7770, 9615, 10540, 12130] },
    { upToOz: 64, cents: [7810, 8600, 10655, 11715, 13500] },
    { upToOz: 80, cents: [8530, 9430, 11695, 12890, 14870] },
  ],
  eachAdditionalPoundCents: [560, 665, 845, 950, 1105],
};

const EXPRESS_SAVER_ONE_RATE: PackagePriceTable = {
  firstColumn: 2,
  prices: {
    fedex_envelope: [2030, 2255, 2635, 2880, 3120, 3325, 3595],
    fedex_pak: [2270, 2520, 2945, 3220, 3485, 3715, 4020],
    fedex_box_small: [2390, 2650, 3100, 3390, 3670, 3910, 4230],
    fedex_box_medium: [2675, 2970, 3470, 3795, 4110, 4380, 4740],
    fedex_box_large: [3705, 4110, 4805, 5255, 5690, 6060, 6555],
    fedex_box_extra_large: [5260, 5830, 6820, 7460, 8075, 8600, 9305],
    fedex_tube: [3465, 3845, 4495, 4915, 5320, 5670, 6135],
  },
};

const TWO_DAY_ONE_RATE: PackagePriceTable = {
  firstColumn: 2,
  prices: {
    fedex_envelope: [2425, 2925, 3530, 3955, 4335, 4710, 5135],
    fedex_pak: [2710, 3270, 3945, 4420, 4845, 5265, 5740],
    fedex_box_small: [2850, 3440, 4150, 4650, 5100, 5540, 6040],
    fedex_box_medium: [3190, 3855, 4650, 5210, 5710, 6205, 6765],
    fedex_box_large: [4420, 5330, 6435, 7210, 7905, 8585, 9360],
    fedex_box_extra_large: [6270, 7570, 9130, 10230, 11220, 12190, 13290],
    fedex_tube: [4135, 4990, 6020, 6745, 7395, 8035, 8760],
  },
};

const TWO_DAY_AM_ONE_RATE: PackagePriceTable = {
  firstColumn: 2,
  prices: {
    fedex_envelope: [2710, 3275, 3955, 4430, 4855, 5275, 5750],
    fedex_pak: [3030, 3660, 4420, 4950, 5425, 5895, 6425],
    fedex_box_small: [3190, 3855, 4650, 5210, 5710, 6205, 6765],
    fedex_box_medium: [3575, 4320, 5210, 5835, 6395, 6950, 7575],
    fedex_box_large: [4945, 5975, 7210, 8075, 8850, 9620, 10485],
    fedex_box_extra_large: [7020, 8480, 10230, 11460, 12560, 13650, 14885],
    fedex_tube: [4625, 5590, 6745, 7555, 8280, 8995, 9810],
  },
};

const STANDARD_OVERNIGHT_ONE_RATE: PackagePriceTable = {
  firstColumn: 2,
  prices: {
    fedex_envelope: [5005, 5560, 6180, 6560, 6985, 7320, 7700],
    fedex_pak: [5595, 6215, 6905, 7335, 7810, 8180, 8605],
    fedex_box_small: [5890, 6540, 7270, 7720, 8220, 8610, 9060],
    fedex_box_medium: [6595, 7325, 8140, 8645, 9205, 9645, 10145],
    fedex_box_large: [9130, 10135, 11270, 11965, 12740, 13345, 14045],
    fedex_box_extra_large: [12960, 14390, 15995, 16985, 18085, 18940, 19930],
    fedex_tube: [8540, 9485, 10540, 11195, 11920, 12485, 13135],
  },
};

const PRIORITY_OVERNIGHT_ONE_RATE: PackagePriceTable = {
  firstColumn: 2,
  prices: {
    fedex_envelope: [5605, 6225, 6920, 7350, 7825, 8200, 8625],
    fedex_pak: [6265, 6960, 7735, 8215, 8745, 9165, 9640],
    fedex_box_small: [6595, 7325, 8140, 8645, 9205, 9645, 10145],
    fedex_box_medium: [7385, 8205, 9115, 9680, 10310, 10800, 11360],
    fedex_box_large: [10220, 11355, 12615, 13400, 14270, 14950, 15725],
    fedex_box_extra_large: [14510, 16115, 17910, 19020, 20250, 21220, 22320],
    fedex_tube: [9565, 10620, 11805, 12535, 13345, 13985, 14710],
  },
};

const FIRST_OVERNIGHT_ONE_RATE: PackagePriceTable = {
  firstColumn: 2,
  prices: {
    fedex_envelope: [8580, 9200, 9895, 10325, 10800, 11175, 11600],
    fedex_pak: [9590, 10285, 11060, 11540, 12070, 12490, 12965],
    fedex_box_small: [10095, 10825, 11640, 12145, 12705, 13145, 13645],
    fedex_box_medium: [11305, 12125, 13035, 13600, 14230, 14720, 15280],
    fedex_box_large: [15645, 16780, 18040, 18825, 19695, 20375, 21150],
    fedex_box_extra_large: [22210, 23815, 25610, 26720, 27950, 28920, 30020],
    fedex_tube: [14640, 15695, 16880, 17610, 18420, 19060, 19785],
  },
};

/** Everything FedEx prices a service by; replace an entry to reprice a service. */
export interface FedexTariff {
  byWeight: WeightZoneTable;
  /** One Rate prices by FedEx packaging, then zone 2–8. */
  oneRate?: PackagePriceTable;
  network: "ground" | "express";
}

export const FEDEX_TARIFFS: Readonly<Record<string, FedexTariff>> = {
  fedex_ground: { byWeight: GROUND, network: "ground" },
  fedex_ground_home: { byWeight: GROUND, network: "ground" },
  fedex_express_saver: { byWeight: EXPRESS_SAVER, oneRate: EXPRESS_SAVER_ONE_RATE, network: "express" },
  fedex_2day: { byWeight: TWO_DAY, oneRate: TWO_DAY_ONE_RATE, network: "express" },
  fedex_2day_am: { byWeight: TWO_DAY_AM, oneRate: TWO_DAY_AM_ONE_RATE, network: "express" },
  fedex_overnight_standard: {
    byWeight: STANDARD_OVERNIGHT,
    oneRate: STANDARD_OVERNIGHT_ONE_RATE,
    network: "express",
  },
  fedex_overnight_priority: {
    byWeight: PRIORITY_OVERNIGHT,
    oneRate: PRIORITY_OVERNIGHT_ONE_RATE,
    network: "express",
  },
  fedex_overnight_1st: { byWeight: FIRST_OVERNIGHT, oneRate: FIRST_OVERNIGHT_ONE_RATE, network: "express" },
  fedex_intl_priority: { byWeight: INTERNATIONAL_PRIORITY, network: "express" },
  fedex_intl_economy: { byWeight: INTERNATIONAL_ECONOMY, network: "express" },
};

/** One Rate: one all-inclusive price per packaging and zone, whatever the weight. */
function oneRateQuote(
  service: ServiceDefinition,
  packaging: PackageTypeDefinition,
  table: PackagePriceTable,
  parcel: RatedParcel,
  zone: number,
): RateQuote {
  const line: CostLine = {
    kind: "base",
    description: `${service.name} One Rate, ${packaging.name}`,
    amountCents: priceByPackage(table, packaging.type, zone),
  };
  return quoteFromLines([line], parcel.weightOz);
}

/** Weight × zone pricing with DIM weight, then accessorials and fuel on top. */
function weightQuote(
  service: ServiceDefinition,
  packaging: PackageTypeDefinition,
  tariff: FedexTariff,
  parcel: RatedParcel,
  context: RateContext,
): RateQuote {
  const billable = withLargePackageMinimum(billableWeightOz(parcel, FEDEX_DIMENSIONAL_WEIGHT), parcel);
  const priced = priceByWeight(tariff.byWeight, billable, priceColumn(service, context));
  const transportation = [
    baseRateLine(service, packaging, priced.cents),
    ...accessorialLines(FEDEX_ACCESSORIALS[tariff.network], parcel, service.scope, context),
  ];
  const fuel = fuelSurchargeLine(FEDEX_FUEL_SURCHARGE_BASIS_POINTS, transportation);
  return quoteFromLines([...transportation, fuel], priced.weightOz);
}

/** The charge for one parcel on a FedEx service, or FedEx's reason for refusing it. */
export function rateService(
  service: ServiceDefinition,
  parcel: RatedParcel,
  context: RateContext,
): RateQuote | RateRefusal {
  const packaging = eligiblePackaging(service, parcel, context);
  if (isRefusal(packaging)) return packaging;
  const tariff = tariffFor(FEDEX_TARIFFS, service);
  if (packaging.flatRate && tariff.oneRate) {
    return oneRateQuote(service, packaging, tariff.oneRate, parcel, priceColumn(service, context));
  }
  return weightQuote(service, packaging, tariff, parcel, context);
}
