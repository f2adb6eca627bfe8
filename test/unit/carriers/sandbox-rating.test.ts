import { describe, expect, it } from "vitest";
import {
  billableWeightOz,
  dimensionalWeightOz,
  roundUpToPoundOz,
} from "../../../src/carriers/sandbox/billable-weight.js";
import { formatBasisPoints, percentOfCents, sumCents } from "../../../src/carriers/sandbox/money.js";
import { lengthPlusGirthIn, sidesLongestFirst } from "../../../src/carriers/sandbox/parcel-geometry.js";
import {
  internationalPriceGroup,
  priceByPackage,
  priceByWeight,
  type WeightZoneTable,
} from "../../../src/carriers/sandbox/rate-table.js";
import { parcel } from "./rating-fixtures.js";

describe("percentOfCents", () => {
  it("rounds half-up once, in integer arithmetic", () => {
    expect(percentOfCents(1001, 2050)).toBe(205); // 205.205
    expect(percentOfCents(1, 5000)).toBe(1); // 0.5
    expect(percentOfCents(3, 5000)).toBe(2); // 1.5
    expect(percentOfCents(1, 4999)).toBe(0);
    expect(percentOfCents(0, 2050)).toBe(0);
  });

  it("refuses fractions of a cent and negative amounts", () => {
    expect(() => percentOfCents(10.5, 2050)).toThrow(RangeError);
    expect(() => percentOfCents(-1, 2050)).toThrow(RangeError);
  });

  it("sums cents and prints basis points as a percentage", () => {
    expect(sumCents([995, 5, 1])).toBe(1001);
    expect(formatBasisPoints(2050)).toBe("20.50%");
    expect(formatBasisPoints(2705)).toBe("27.05%");
  });
});

describe("parcel geometry", () => {
  it("measures length plus girth from the longest side, whatever the order given", () => {
    expect(sidesLongestFirst({ lengthIn: 4, widthIn: 10, heightIn: 6 })).toEqual([10, 6, 4]);
    expect(lengthPlusGirthIn({ lengthIn: 4, widthIn: 10, heightIn: 6 })).toBe(30);
  });
});

describe("billable weight", () => {
  const usps = { divisorCubicInPerLb: 166, appliesAboveCubicIn: 1728 };
  const ups = { divisorCubicInPerLb: 139, appliesAboveCubicIn: 0 };

  it("rounds any fraction of a pound up, with a 1 lb minimum", () => {
    expect(roundUpToPoundOz(0.5)).toBe(16);
    expect(roundUpToPoundOz(16)).toBe(16);
    expect(roundUpToPoundOz(16.01)).toBe(32);
  });

  it("applies a threshold rule only above the threshold cube", () => {
    expect(dimensionalWeightOz(parcel({ lengthIn: 12, widthIn: 12, heightIn: 12 }), usps)).toBe(0);
    expect(dimensionalWeightOz(parcel({ lengthIn: 7, widthIn: 13, heightIn: 19 }), usps)).toBe(11 * 16);
  });

  it("rounds each side to the nearest inch before cubing", () => {
    expect(dimensionalWeightOz(parcel({ lengthIn: 11.49, widthIn: 10, heightIn: 10 }), ups)).toBe(8 * 16);
    expect(dimensionalWeightOz(parcel({ lengthIn: 11.5, widthIn: 10, heightIn: 10 }), ups)).toBe(9 * 16);
  });

  it("bills the greater of actual and DIM weight; none without a rule", () => {
    const box = parcel({ lengthIn: 10, widthIn: 10, heightIn: 10, weightOz: 20 });
    expect(billableWeightOz(box, ups)).toBe(8 * 16);
    expect(billableWeightOz({ ...box, weightOz: 200 }, ups)).toBe(200);
    expect(billableWeightOz(box, null)).toBe(20);
  });
});

describe("rate tables", () => {
  const table: WeightZoneTable = {
    firstColumn: 2,
    steps: [
      { upToOz: 8, cents: [500, 600] },
      { upToOz: 16, cents: [700, 800] },
    ],
    eachAdditionalPoundCents: [100, 150],
  };

  it("reads the first step that covers the weight and bills that step's weight", () => {
    expect(priceByWeight(table, 3, 2)).toEqual({ cents: 500, weightOz: 8 });
    expect(priceByWeight(table, 8.5, 3)).toEqual({ cents: 800, weightOz: 16 });
  });

  it("adds the each-additional-pound price past the last step", () => {
    expect(priceByWeight(table, 40, 2)).toEqual({ cents: 700 + 2 * 100, weightOz: 48 });
  });

  it("reads zones outside the table in its nearest column", () => {
    expect(priceByWeight(table, 3, 1).cents).toBe(500);
    expect(priceByWeight(table, 3, 9).cents).toBe(600);
  });

  it("treats a missing price as a data error", () => {
    expect(() => priceByWeight({ ...table, eachAdditionalPoundCents: undefined }, 40, 2)).toThrow(RangeError);
    expect(() => priceByPackage({ firstColumn: 1, prices: {} }, "fedex_pak", 1)).toThrow(RangeError);
  });

  it("groups destination countries for international prices", () => {
    expect(internationalPriceGroup("CA")).toBe(1);
    expect(internationalPriceGroup("mx")).toBe(2);
    expect(internationalPriceGroup("DE")).toBe(3);
    expect(internationalPriceGroup("JP")).toBe(4);
    expect(internationalPriceGroup("BR")).toBe(5);
  });
});
