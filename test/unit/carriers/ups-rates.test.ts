import { describe, expect, it } from "vitest";
import { percentOfCents } from "../../../src/carriers/sandbox/money.js";
import { rateService, UPS_FUEL_SURCHARGE_BASIS_POINTS } from "../../../src/carriers/ups/rates.js";
import { UPS_SERVICES } from "../../../src/carriers/ups/services.js";
import {
  abroad,
  baseCents,
  domestic,
  kindsOf,
  lineOf,
  parcel,
  quoted,
  refusal,
  serviceByCode,
} from "./rating-fixtures.js";

const ground = serviceByCode(UPS_SERVICES, "ups_ground");
const secondDayAir = serviceByCode(UPS_SERVICES, "ups_2nd_day");
const worldwideExpress = serviceByCode(UPS_SERVICES, "ups_express");
const standard = serviceByCode(UPS_SERVICES, "ups_standard");

/** Small enough that its DIM weight (64 / 139) never exceeds 1 lb. */
const cube4 = (weightOz: number) => parcel({ lengthIn: 4, widthIn: 4, heightIn: 4, weightOz });

describe("UPS rates", () => {
  it("quotes every service", () => {
    for (const service of UPS_SERVICES) {
      const context = service.scope === "domestic" ? domestic() : abroad("CA");
      expect(quoted(rateService(service, parcel(), context)).totalCents).toBeGreaterThan(0);
    }
  });

  describe("billable weight", () => {
    it("rounds actual weight up to the next pound", () => {
      const quote = quoted(rateService(ground, cube4(17), domestic()));
      expect(quote.billableWeightOz).toBe(32);
      expect(baseCents(quote)).toBe(1465);
    });

    it("applies divisor 139 to every package, even under one cubic foot", () => {
      const box = parcel({ lengthIn: 10, widthIn: 10, heightIn: 10, weightOz: 16 });
      const quote = quoted(rateService(ground, box, domestic()));
      expect(quote.billableWeightOz).toBe(8 * 16);
      expect(baseCents(quote)).toBe(2125 + 3 * 140);
      const cube = parcel({ lengthIn: 12, widthIn: 12, heightIn: 12 });
      expect(quoted(rateService(ground, cube, domestic())).billableWeightOz).toBe(13 * 16);
    });

    it("rounds each side to the nearest inch before dividing", () => {
      const under = parcel({ lengthIn: 11.49, widthIn: 10, heightIn: 10 });
      const over = parcel({ lengthIn: 11.5, widthIn: 10, heightIn: 10 });
      expect(quoted(rateService(ground, under, domestic())).billableWeightOz).toBe(8 * 16);
      expect(quoted(rateService(ground, over, domestic())).billableWeightOz).toBe(9 * 16);
    });
  });

  describe("limits", () => {
    it("takes exactly 150 lb and refuses anything heavier", () => {
      expect(quoted(rateService(ground, cube4(2400), domestic())).billableWeightOz).toBe(2400);
      expect(refusal(rateService(ground, cube4(2400.5), domestic()))).toBe(
        "Weight exceeds 150 lb limit for UPS Ground",
      );
    });

    it("takes 108 in length and 165 in length plus girth, no more", () => {
      const long = parcel({ lengthIn: 108, widthIn: 10, heightIn: 10, weightOz: 320 });
      expect(quoted(rateService(ground, long, domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(ground, { ...long, lengthIn: 108.5 }, domestic()))).toBe(
        "Length exceeds 108 in limit for UPS Ground",
      );
      const girthy = parcel({ lengthIn: 60, widthIn: 26, heightIn: 26.5, weightOz: 320 });
      expect(quoted(rateService(ground, girthy, domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(ground, { ...girthy, heightIn: 27 }, domestic()))).toBe(
        "Length plus girth exceeds 165 in limit for UPS Ground",
      );
    });

    it("holds an Express Box to 30 lb", () => {
      const box = parcel({ lengthIn: 13, widthIn: 11, heightIn: 2, packageType: "ups_box_small" });
      expect(quoted(rateService(secondDayAir, { ...box, weightOz: 480 }, domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(secondDayAir, { ...box, weightOz: 481 }, domestic()))).toBe(
        "Weight exceeds 30 lb limit for UPS Express Box - Small",
      );
    });
  });

  describe("package types", () => {
    it("accepts every UPS packaging on 2nd Day Air and refuses another carrier's", () => {
      for (const { type } of secondDayAir.packageTypes) {
        const piece = parcel({ lengthIn: 8, widthIn: 5, heightIn: 1, weightOz: 8, packageType: type });
        expect(quoted(rateService(secondDayAir, piece, domestic())).totalCents).toBeGreaterThan(0);
      }
      expect(refusal(rateService(secondDayAir, parcel({ packageType: "fedex_pak" }), domestic()))).toBe(
        "Package type fedex_pak is not available for UPS 2nd Day Air",
      );
    });

    it("keeps UPS Express packaging off Ground and off Worldwide Express, which take only parcels", () => {
      expect(refusal(rateService(ground, parcel({ packageType: "ups_letter" }), domestic()))).toBe(
        "Package type ups_letter is not available for UPS Ground",
      );
      expect(quoted(rateService(worldwideExpress, parcel(), abroad("GB"))).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(worldwideExpress, parcel({ packageType: "ups_pak" }), abroad("GB")))).toBe(
        "Package type ups_pak is not available for UPS Worldwide Express",
      );
    });

    it("charges the letter price up to 8 oz and the weight price above", () => {
      const letter = parcel({ lengthIn: 12, widthIn: 9, heightIn: 0.5, packageType: "ups_letter" });
      const light = quoted(rateService(secondDayAir, { ...letter, weightOz: 8 }, domestic({ zone: 2 })));
      expect(baseCents(light)).toBe(2335);
      expect(lineOf(light, "base").description).toBe("UPS 2nd Day Air, UPS Letter");
      const heavy = quoted(rateService(secondDayAir, { ...letter, weightOz: 9 }, domestic({ zone: 2 })));
      expect(baseCents(heavy)).toBe(2920);
    });
  });

  describe("surcharges", () => {
    it("adds only fuel to a small commercial parcel outside delivery areas", () => {
      const quote = quoted(rateService(ground, cube4(16), domestic()));
      expect(kindsOf(quote)).toEqual(["base", "fuel"]);
      expect(lineOf(quote, "fuel")).toEqual({
        kind: "fuel",
        description: "Fuel Surcharge (20.50%)",
        amountCents: percentOfCents(1245, UPS_FUEL_SURCHARGE_BASIS_POINTS),
      });
    });

    it("charges residential and delivery-area surcharges by network and address kind", () => {
      const home = domestic({ residential: true, deliveryArea: true });
      const groundQuote = quoted(rateService(ground, cube4(16), home));
      expect(kindsOf(groundQuote)).toEqual(["base", "residential", "delivery_area", "fuel"]);
      expect(lineOf(groundQuote, "residential").amountCents).toBe(595);
      expect(lineOf(groundQuote, "delivery_area").amountCents).toBe(545);
      const airQuote = quoted(rateService(secondDayAir, cube4(16), home));
      expect(lineOf(airQuote, "residential").amountCents).toBe(645);
      expect(lineOf(airQuote, "delivery_area").amountCents).toBe(605);
      const office = quoted(rateService(ground, cube4(16), domestic({ deliveryArea: true })));
      expect(kindsOf(office)).toEqual(["base", "delivery_area", "fuel"]);
      expect(lineOf(office, "delivery_area").amountCents).toBe(395);
    });

    it("takes fuel as a percentage of base and accessorials together", () => {
      const quote = quoted(rateService(ground, cube4(16), domestic({ residential: true, deliveryArea: true })));
      expect(lineOf(quote, "fuel").amountCents).toBe(percentOfCents(1245 + 595 + 545, UPS_FUEL_SURCHARGE_BASIS_POINTS));
    });

    it("charges Additional Handling above 50 lb, not at 50 lb", () => {
      expect(kindsOf(quoted(rateService(ground, cube4(800), domestic())))).not.toContain("additional_handling");
      expect(lineOf(quoted(rateService(ground, cube4(816), domestic())), "additional_handling")).toMatchObject({
        description: "Additional Handling - Weight",
        amountCents: 1925,
      });
    });

    it.each([
      ["longest side over 48 in", { lengthIn: 49, widthIn: 10, heightIn: 10 }],
      ["second-longest side over 30 in", { lengthIn: 40, widthIn: 31, heightIn: 5 }],
      ["length plus girth over 105 in", { lengthIn: 40, widthIn: 17, heightIn: 16 }],
    ])("charges dimensional Additional Handling for a %s", (_, dimensions) => {
      const quote = quoted(rateService(ground, parcel({ ...dimensions, weightOz: 160 }), domestic()));
      expect(lineOf(quote, "additional_handling")).toMatchObject({
        description: "Additional Handling - Dimensions",
        amountCents: 1295,
      });
    });

    it("charges no Additional Handling right at the thresholds", () => {
      const atLimits = parcel({ lengthIn: 48, widthIn: 15, heightIn: 13.5, weightOz: 160 });
      expect(kindsOf(quoted(rateService(ground, atLimits, domestic())))).toEqual(["base", "fuel"]);
    });

    it("charges only the highest Additional Handling when several apply", () => {
      const both = parcel({ lengthIn: 49, widthIn: 10, heightIn: 10, weightOz: 816 });
      const handling = quoted(rateService(ground, both, domestic())).lines.filter(
        (line) => line.kind === "additional_handling",
      );
      expect(handling).toEqual([
        { kind: "additional_handling", description: "Additional Handling - Weight", amountCents: 1925 },
      ]);
    });

    it("replaces Additional Handling with Large Package and bills at least 90 lb", () => {
      const large = parcel({ lengthIn: 97, widthIn: 10, heightIn: 10, weightOz: 160 });
      const quote = quoted(rateService(ground, large, domestic()));
      expect(kindsOf(quote)).toEqual(["base", "large_package", "fuel"]);
      expect(lineOf(quote, "large_package").amountCents).toBe(24000);
      expect(quote.billableWeightOz).toBe(90 * 16);
    });
  });

  describe("zones and destinations", () => {
    it("reads zone 1 as zone 2 and zone 9 as zone 8", () => {
      const price = (zone: number) => baseCents(quoted(rateService(ground, cube4(16), domestic({ zone }))));
      expect(price(1)).toBe(price(2));
      expect(price(9)).toBe(price(8));
      expect(price(8)).toBeGreaterThan(price(2));
    });

    it("prices Worldwide Express by destination price group", () => {
      const canada = baseCents(quoted(rateService(worldwideExpress, cube4(16), abroad("CA"))));
      const britain = baseCents(quoted(rateService(worldwideExpress, cube4(16), abroad("GB"))));
      expect([canada, britain]).toEqual([7050, 9350]);
    });

    it("offers UPS Standard only to Canada and Mexico", () => {
      expect(baseCents(quoted(rateService(standard, cube4(16), abroad("MX"))))).toBe(2690);
      expect(refusal(rateService(standard, cube4(16), abroad("DE")))).toBe(
        "UPS Standard is not available to DE; it serves CA, MX",
      );
    });
  });
});
