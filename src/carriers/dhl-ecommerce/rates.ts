/**
 * DHL eCommerce rates: prices by weight step and USPS zone 1–9 (DHL hands domestic parcels to USPS
 * for the last mile; international: price groups 1–5), ounce steps below a pound, billed on the
 * greater of actual and dimensional weight.
 *
 * ⚠ SYNTHETIC: DHL eCommerce publishes no list prices (rates are per contract), and its fuel and
 * nonstandard surcharges are contract terms too, so none are added. The tables below are
 * plausible consolidator-style prices (a little under USPS Ground Advantage), to be replaced by a
 * customer's rate card. The DIM rule is assumed to match USPS's (⚠ not confirmed).
 */
import type { RateContext, RatedParcel, RateQuote, RateRefusal, ServiceDefinition } from "../catalogue.js";
import { billableWeightOz, type DimensionalWeightRule } from "../sandbox/billable-weight.js";
import { eligiblePackaging, isRefusal, refusalForSumOfSides } from "../sandbox/eligibility.js";
import { quoteFromLines } from "../sandbox/money.js";
import { baseRateLine, priceByWeight, priceColumn, tariffFor, type WeightZoneTable } from "../sandbox/rate-table.js";

const DHL_ECOMMERCE_DIMENSIONAL_WEIGHT: DimensionalWeightRule = { divisorCubicInPerLb: 166, appliesAboveCubicIn: 1728 };

// Weight × zone tables: USPS zones 1–9 at home, price groups 1–5 abroad.

const PARCEL_GROUND: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 4, cents: [440, 445, 455, 465, 480, 490, 505, 525, 525] },
    { upToOz: 8, cents: [460, 465, 480, 490, 505, 515, 530, 550, 550] },
    { upToOz: 12, cents: [500, 505, 520, 530, 545, 560, 575, 600, 600] },
    { upToOz: 16, cents: [535, 545, 555, 565, 585, 600, 615, 640, 640] },
    { upToOz: 32, cents: [580, 600, 630, 665, 725, 780, 845, 930, 930] },
    { upToOz: 48, cents: [625, 655, 705, 765, 865, 960, 1075, 1220, 1220] },
    { upToOz: 64, cents: [670, 710, 780, 865, 1005, 1140, 1305, 1510, 1510] },
    { upToOz: 80, cents: [715, 765, 855, 965, 1145, 1320, 1535, 1800, 1800] },
  ],
  eachAdditionalPoundCents: [40, 50, 65, 90, 120, 150, 190, 240, 240],
};

const PARCEL_EXPEDITED: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 4, cents: [475, 480, 490, 500, 520, 530, 545, 565, 565] },
    { upToOz: 8, cents: [500, 505, 515, 525, 545, 555, 570, 595, 595] },
    { upToOz: 12, cents: [540, 545, 560, 570, 595, 605, 620, 645, 645] },
    { upToOz: 16, cents: [580, 585, 600, 610, 635, 645, 665, 690, 690] },
    { upToOz: 32, cents: [630, 645, 680, 720, 785, 840, 915, 1005, 1005] },
    { upToOz: 48, cents: [680, 705, 760, 830, 935, 1035, 1165, 1320, 1320] },
    { upToOz: 64, cents: [730, 765, 840, 940, 1085, 1230, 1415, 1635, 1635] },
    { upToOz: 80, cents: [780, 825, 920, 1050, 1235, 1425, 1665, 1950, 1950] },
  ],
  eachAdditionalPoundCents: [45, 55, 70, 95, 130, 160, 205, 260, 260],
};

const PARCEL_EXPEDITED_MAX: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 4, cents: [520, 525, 535, 550, 565, 580, 595, 620, 620] },
    { upToOz: 8, cents: [545, 550, 560, 580, 595, 610, 625, 650, 650] },
    { upToOz: 12, cents: [595, 600, 610, 625, 645, 660, 680, 705, 705] },
    { upToOz: 16, cents: [635, 640, 655, 670, 690, 710, 725, 755, 755] },
    { upToOz: 32, cents: [690, 705, 745, 790, 855, 920, 995, 1095, 1095] },
    { upToOz: 48, cents: [745, 770, 835, 910, 1020, 1130, 1265, 1435, 1435] },
    { upToOz: 64, cents: [800, 835, 925, 1030, 1185, 1340, 1535, 1775, 1775] },
    { upToOz: 80, cents: [855, 900, 1015, 1150, 1350, 1550, 1805, 2115, 2115] },
  ],
  eachAdditionalPoundCents: [45, 60, 75, 105, 140, 175, 225, 285, 285],
};

const BPM_GROUND: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [395, 405, 415, 430, 450, 470, 495, 525, 525] },
    { upToOz: 32, cents: [425, 440, 460, 485, 520, 555, 595, 645, 645] },
    { upToOz: 48, cents: [455, 475, 505, 540, 590, 640, 695, 765, 765] },
    { upToOz: 64, cents: [485, 510, 550, 595, 660, 725, 795, 885, 885] },
    { upToOz: 80, cents: [515, 545, 595, 650, 730, 810, 895, 1005, 1005] },
  ],
  eachAdditionalPoundCents: [30, 35, 45, 55, 70, 85, 100, 120, 120],
};

const BPM_EXPEDITED: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 16, cents: [425, 435, 450, 465, 485, 510, 535, 565, 565] },
    { upToOz: 32, cents: [455, 475, 500, 525, 560, 600, 645, 695, 695] },
    { upToOz: 48, cents: [485, 515, 550, 585, 635, 690, 755, 825, 825] },
    { upToOz: 64, cents: [515, 555, 600, 645, 710, 780, 865, 955, 955] },
    { upToOz: 80, cents: [545, 595, 650, 705, 785, 870, 975, 1085, 1085] },
  ],
  eachAdditionalPoundCents: [30, 40, 50, 60, 75, 90, 110, 130, 130],
};

const PARCEL_INTERNATIONAL_DIRECT: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 8, cents: [1190, 1350, 1490, 1530, 1690] },
    { upToOz: 16, cents: [1490, 1690, 1865, 1915, 2115] },
    { upToOz: 32, cents: [1910, 2250, 2555, 2635, 2945] },
    { upToOz: 48, cents: [2330, 2810, 3245, 3355, 3775] },
    { upToOz: 64, cents: [2750, 3370, 3935, 4075, 4605] },
    { upToOz: 80, cents: [3170, 3930, 4625, 4795, 5435] },
  ],
  eachAdditionalPoundCents: [380, 510, 640, 670, 780],
};

const PARCEL_INTERNATIONAL_STANDARD: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 8, cents: [1010, 1150, 1265, 1300, 1435] },
    { upToOz: 16, cents: [1265, 1435, 1585, 1625, 1795] },
    { upToOz: 32, cents: [1620, 1910, 2170, 2235, 2500] },
    { upToOz: 48, cents: [1975, 2385, 2755, 2845, 3205] },
    { upToOz: 64, cents: [2330, 2860, 3340, 3455, 3910] },
    { upToOz: 80, cents: [2685, 3335, 3925, 4065, 4615] },
  ],
  eachAdditionalPoundCents: [325, 435, 545, 570, 665],
};

const PACKET_INTERNATIONAL: WeightZoneTable = {
  firstColumn: 1,
  steps: [
    { upToOz: 8, cents: [950, 1080, 1190, 1220, 1350] },
    { upToOz: 16, cents: [1285, 1460, 1605, 1645, 1825] },
    { upToOz: 32, cents: [1805, 2080, 2345, 2405, 2705] },
    { upToOz: 48, cents: [2325, 2700, 3085, 3165, 3585] },
    { upToOz: 64, cents: [2845, 3320, 3825, 3925, 4465] },
  ],
  eachAdditionalPoundCents: [520, 620, 740, 760, 880],
};

/** Everything DHL eCommerce prices a service by; replace an entry to reprice a service. */
export interface DhlEcommerceTariff {
  byWeight: WeightZoneTable;
  /** Limit on length + width + height, where the product sets one (UPU small packets). */
  maxSumOfSidesIn?: number;
}

export const DHL_ECOMMERCE_TARIFFS: Readonly<Record<string, DhlEcommerceTariff>> = {
  dhl_parcel_ground: { byWeight: PARCEL_GROUND },
  dhl_parcel_expedited: { byWeight: PARCEL_EXPEDITED },
  dhl_parcel_expedited_max: { byWeight: PARCEL_EXPEDITED_MAX },
  dhl_bpm_ground: { byWeight: BPM_GROUND },
  dhl_bpm_expedited: { byWeight: BPM_EXPEDITED },
  dhl_parcel_ground_gde: { byWeight: PARCEL_GROUND },
  dhl_parcel_intl_direct: { byWeight: PARCEL_INTERNATIONAL_DIRECT },
  dhl_parcel_intl_standard: { byWeight: PARCEL_INTERNATIONAL_STANDARD },
  dhl_packet_intl: { byWeight: PACKET_INTERNATIONAL, maxSumOfSidesIn: 36 },
};

/** The charge for one parcel on a DHL eCommerce product, or DHL's reason for refusing it. */
export function rateService(
  service: ServiceDefinition,
  parcel: RatedParcel,
  context: RateContext,
): RateQuote | RateRefusal {
  const packaging = eligiblePackaging(service, parcel, context);
  if (isRefusal(packaging)) return packaging;
  const tariff = tariffFor(DHL_ECOMMERCE_TARIFFS, service);
  const sizeRefusal = refusalForSumOfSides(service, tariff.maxSumOfSidesIn, parcel);
  if (sizeRefusal) return sizeRefusal;

  const billable = billableWeightOz(parcel, DHL_ECOMMERCE_DIMENSIONAL_WEIGHT);
  const priced = priceByWeight(tariff.byWeight, billable, priceColumn(service, context));
  return quoteFromLines([baseRateLine(service, packaging, priced.cents)], priced.weightOz);
}
