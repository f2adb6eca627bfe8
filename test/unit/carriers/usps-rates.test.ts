import { describe, expect, it } from "vitest";
import { rateService } from "../../../src/carriers/usps/rates.js";
import { USPS_SERVICES } from "../../../src/carriers/usps/services.js";
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

const groundAdvantage = serviceByCode(USPS_SERVICES, "usps_ground_advantage");
const priority = serviceByCode(USPS_SERVICES, "usps_priority");
const priorityExpress = serviceByCode(USPS_SERVICES, "usps_express");
const firstClass = serviceByCode(USPS_SERVICES, "usps_first_class");
const mediaMail = serviceByCode(USPS_SERVICES, "usps_media_mail");
const firstClassInternational = serviceByCode(USPS_SERVICES, "usps_intl_first_class_package");
const priorityInternational = serviceByCode(USPS_SERVICES, "usps_intl_priority");

describe("USPS rates", () => {
  it("quotes every service in its own packaging", () => {
    for (const service of USPS_SERVICES) {
      const packageType = service.packageTypes[0]?.type ?? "parcel";
      const small = parcel({ lengthIn: 9, widthIn: 6, heightIn: 0.5, weightOz: 2, packageType });
      const context = service.scope === "domestic" ? domestic() : abroad("CA");
      expect(quoted(rateService(service, small, context)).totalCents).toBeGreaterThan(0);
    }
  });

  describe("Ground Advantage weight steps", () => {
    it.each([
      [3, 4, 780],
      [4, 4, 780],
      [4.1, 8, 835],
      [12, 12, 975],
      [15.5, 16, 1065],
      [16, 16, 1065],
      [16.1, 32, 1280],
    ])("bills %s oz at the %s oz step", (weightOz, billableOz, cents) => {
      const quote = quoted(rateService(groundAdvantage, parcel({ weightOz }), domestic()));
      expect(quote.billableWeightOz).toBe(billableOz);
      expect(baseCents(quote)).toBe(cents);
    });

    it("adds the each-additional-pound price past the printed steps", () => {
      const quote = quoted(rateService(groundAdvantage, parcel({ weightOz: 9.5 * 16 }), domestic()));
      expect(quote.billableWeightOz).toBe(160);
      expect(baseCents(quote)).toBe(1625 + 5 * 130);
    });
  });

  describe("dimensional weight (divisor 166 above 1,728 cu in)", () => {
    it("ignores a parcel of exactly 1,728 cu in", () => {
      const cube = parcel({ lengthIn: 12, widthIn: 12, heightIn: 12 });
      expect(quoted(rateService(groundAdvantage, cube, domestic())).billableWeightOz).toBe(16);
    });

    it("applies from 1,729 cu in, rounding the DIM weight up to the pound", () => {
      const cube = parcel({ lengthIn: 7, widthIn: 13, heightIn: 19 });
      const quote = quoted(rateService(groundAdvantage, cube, domestic()));
      expect(quote.billableWeightOz).toBe(11 * 16);
      expect(baseCents(quote)).toBe(1625 + 6 * 130);
    });

    it("rounds each side to the nearest inch first", () => {
      const under = parcel({ lengthIn: 12.4, widthIn: 12, heightIn: 12 });
      const over = parcel({ lengthIn: 12.5, widthIn: 12, heightIn: 12 });
      expect(quoted(rateService(groundAdvantage, under, domestic())).billableWeightOz).toBe(16);
      expect(quoted(rateService(groundAdvantage, over, domestic())).billableWeightOz).toBe(12 * 16);
    });

    it("does not apply to Media Mail", () => {
      const cube = parcel({ lengthIn: 7, widthIn: 13, heightIn: 19 });
      expect(quoted(rateService(mediaMail, cube, domestic())).billableWeightOz).toBe(16);
    });

    it("charges a DIM weight over 70 lb at the 70 lb price, and over 108 in the oversized price", () => {
      const bulky = parcel({ lengthIn: 30, widthIn: 25, heightIn: 25, weightOz: 5 * 16 });
      const quote = quoted(rateService(groundAdvantage, bulky, domestic()));
      expect(quote.billableWeightOz).toBe(70 * 16);
      expect(quote.lines).toEqual([
        { kind: "base", description: "USPS Ground Advantage", amountCents: 10650 },
        { kind: "nonstandard_length", description: "Nonstandard Length Fee (over 22 in)", amountCents: 400 },
        { kind: "nonstandard_volume", description: "Nonstandard Volume Fee (over 2 cu ft)", amountCents: 1800 },
      ]);
      expect(quote.totalCents).toBe(12850);
    });
  });

  describe("limits", () => {
    it("takes exactly 70 lb and refuses anything heavier", () => {
      expect(quoted(rateService(groundAdvantage, parcel({ weightOz: 1120 }), domestic())).billableWeightOz).toBe(1120);
      expect(refusal(rateService(groundAdvantage, parcel({ weightOz: 1120.5 }), domestic()))).toBe(
        "Weight exceeds 70 lb limit for USPS Ground Advantage",
      );
    });

    it("takes 130 in length plus girth on Ground Advantage and 108 in on Priority Mail, no more", () => {
      const at130 = parcel({ lengthIn: 50, widthIn: 20, heightIn: 20 });
      expect(quoted(rateService(groundAdvantage, at130, domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(groundAdvantage, { ...at130, heightIn: 20.25 }, domestic()))).toBe(
        "Length plus girth exceeds 130 in limit for USPS Ground Advantage",
      );
      const at108 = parcel({ lengthIn: 28, widthIn: 20, heightIn: 20 });
      expect(quoted(rateService(priority, at108, domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(priority, { ...at108, heightIn: 20.5 }, domestic()))).toBe(
        "Length plus girth exceeds 108 in limit for USPS Priority Mail",
      );
    });

    it("holds First-Class Mail to 13 oz and letters to 3.5 oz", () => {
      const letter = parcel({ lengthIn: 9, widthIn: 4, heightIn: 0.2, packageType: "letter" });
      expect(baseCents(quoted(rateService(firstClass, { ...letter, weightOz: 3.5 }, domestic())))).toBe(165);
      expect(refusal(rateService(firstClass, { ...letter, weightOz: 3.6 }, domestic()))).toBe(
        "Weight exceeds 3.5 oz limit for Letter",
      );
      const flat = parcel({ lengthIn: 12, widthIn: 9, heightIn: 0.5, packageType: "large_envelope" });
      expect(baseCents(quoted(rateService(firstClass, { ...flat, weightOz: 13 }, domestic())))).toBe(487);
      expect(refusal(rateService(firstClass, { ...flat, weightOz: 13.5 }, domestic()))).toBe(
        "Weight exceeds 13 oz limit for USPS First-Class Mail",
      );
    });

    it("holds First-Class Package International to 36 in length + width + height", () => {
      const at36 = parcel({ lengthIn: 20, widthIn: 10, heightIn: 6 });
      expect(quoted(rateService(firstClassInternational, at36, abroad("CA"))).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(firstClassInternational, { ...at36, heightIn: 6.5 }, abroad("CA")))).toBe(
        "Length plus width plus height exceeds 36 in limit for USPS First-Class Package International Service",
      );
    });
  });

  describe("package types", () => {
    it("accepts every Priority Mail packaging and refuses another carrier's", () => {
      for (const { type } of priority.packageTypes) {
        const piece = parcel({ lengthIn: 8, widthIn: 5, heightIn: 1, packageType: type });
        expect(quoted(rateService(priority, piece, domestic())).totalCents).toBeGreaterThan(0);
      }
      expect(refusal(rateService(priority, parcel({ packageType: "fedex_pak" }), domestic()))).toBe(
        "Package type fedex_pak is not available for USPS Priority Mail",
      );
    });

    it("takes only `parcel` on a service with no package types", () => {
      expect(groundAdvantage.packageTypes).toEqual([]);
      expect(quoted(rateService(groundAdvantage, parcel(), domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(groundAdvantage, parcel({ packageType: "flat_rate_envelope" }), domestic()))).toBe(
        "Package type flat_rate_envelope is not available for USPS Ground Advantage",
      );
    });

    it("refuses a parcel on First-Class Mail, which carries letters and flats", () => {
      expect(refusal(rateService(firstClass, parcel({ weightOz: 2 }), domestic()))).toBe(
        "Package type parcel is not available for USPS First-Class Mail",
      );
    });
  });

  describe("Flat Rate", () => {
    it("prices a Flat Rate box the same in any zone and at any weight", () => {
      const box = parcel({ lengthIn: 11, widthIn: 8.5, heightIn: 5.5, packageType: "medium_flat_rate_box" });
      const near = quoted(rateService(priority, { ...box, weightOz: 16 }, domestic({ zone: 1 })));
      const far = quoted(rateService(priority, { ...box, weightOz: 69 * 16 }, domestic({ zone: 9 })));
      expect(near.lines).toEqual([
        { kind: "base", description: "USPS Priority Mail, Priority Mail Medium Flat Rate Box", amountCents: 1960 },
      ]);
      expect(far.totalCents).toBe(near.totalCents);
    });

    it("prices Priority Mail Express Flat Rate Envelopes above Priority Mail's", () => {
      const envelope = parcel({ lengthIn: 12.5, widthIn: 9.5, heightIn: 0.5, packageType: "flat_rate_envelope" });
      const express = quoted(rateService(priorityExpress, envelope, domestic())).totalCents;
      expect(express).toBeGreaterThan(quoted(rateService(priority, envelope, domestic())).totalCents);
    });

    it("prices international Flat Rate by price group and holds the envelope to 4 lb", () => {
      const envelope = parcel({ lengthIn: 12.5, widthIn: 9.5, heightIn: 0.5, packageType: "flat_rate_envelope" });
      const canada = quoted(rateService(priorityInternational, { ...envelope, weightOz: 64 }, abroad("CA")));
      const germany = quoted(rateService(priorityInternational, { ...envelope, weightOz: 64 }, abroad("DE")));
      expect(germany.totalCents).toBeGreaterThan(canada.totalCents);
      expect(refusal(rateService(priorityInternational, { ...envelope, weightOz: 64.5 }, abroad("CA")))).toBe(
        "Weight exceeds 4 lb limit for Priority Mail International Flat Rate Envelope",
      );
    });
  });

  describe("Cubic Soft Pack", () => {
    const softpack = (lengthIn: number, widthIn: number) =>
      parcel({ lengthIn, widthIn, heightIn: 1, weightOz: 40, packageType: "softpack" });

    it("prices by the tier of length + width, each rounded down to 1/4 in", () => {
      expect(baseCents(quoted(rateService(priority, softpack(10, 8), domestic())))).toBe(950); // 18 in: tier 0.1
      expect(baseCents(quoted(rateService(priority, softpack(15.2, 11.9), domestic())))).toBe(1075); // 26.75: 0.2
      expect(baseCents(quoted(rateService(priority, softpack(15.3, 12), domestic())))).toBe(1195); // 27.25: 0.3
    });

    it("refuses a soft pack over 36 in length + width or 20 lb", () => {
      expect(refusal(rateService(priority, softpack(20, 17), domestic()))).toBe(
        "Length plus width exceeds 36 in limit for Priority Mail Cubic Soft Pack",
      );
      expect(refusal(rateService(priority, { ...softpack(10, 8), weightOz: 321 }, domestic()))).toBe(
        "Weight exceeds 20 lb limit for Priority Mail Cubic Soft Pack",
      );
    });
  });

  describe("other services", () => {
    it("starts Priority Mail Express at a half-pound step", () => {
      expect(quoted(rateService(priorityExpress, parcel({ weightOz: 6 }), domestic())).billableWeightOz).toBe(8);
      expect(quoted(rateService(priorityExpress, parcel({ weightOz: 9 }), domestic())).billableWeightOz).toBe(16);
    });

    it("prices Media Mail and letters without zones", () => {
      const books = parcel({ weightOz: 3 * 16 });
      const near = quoted(rateService(mediaMail, books, domestic({ zone: 1 })));
      expect(near.totalCents).toBe(463 + 2 * 75);
      expect(quoted(rateService(mediaMail, books, domestic({ zone: 8 }))).totalCents).toBe(near.totalCents);
      const letter = parcel({ lengthIn: 9, widthIn: 4, heightIn: 0.2, weightOz: 2.5, packageType: "letter" });
      expect(quoted(rateService(firstClass, letter, domestic({ zone: 9 }))).totalCents).toBe(136);
    });

    it("prices international services by the destination's price group", () => {
      const packet = parcel({ weightOz: 8 });
      const canada = quoted(rateService(firstClassInternational, packet, abroad("CA")));
      const japan = quoted(rateService(firstClassInternational, packet, abroad("JP")));
      expect([canada.totalCents, japan.totalCents]).toEqual([1735, 2050]);
    });
  });

  describe("nonstandard fees", () => {
    it("adds none up to 22 in and 2 cu ft", () => {
      const longest = parcel({ lengthIn: 22, widthIn: 6, heightIn: 4 });
      const roomiest = parcel({ lengthIn: 18, widthIn: 16, heightIn: 12 });
      expect(kindsOf(quoted(rateService(groundAdvantage, longest, domestic())))).toEqual(["base"]);
      expect(kindsOf(quoted(rateService(groundAdvantage, roomiest, domestic())))).toEqual(["base"]);
    });

    it("charges the length fee by band and by service", () => {
      const long = parcel({ lengthIn: 22.5, widthIn: 6, heightIn: 4 });
      const veryLong = parcel({ lengthIn: 31, widthIn: 6, heightIn: 4 });
      expect(lineOf(quoted(rateService(groundAdvantage, long, domestic())), "nonstandard_length").amountCents).toBe(
        400,
      );
      expect(lineOf(quoted(rateService(groundAdvantage, veryLong, domestic())), "nonstandard_length").amountCents).toBe(
        840,
      );
      expect(lineOf(quoted(rateService(priority, veryLong, domestic())), "nonstandard_length").amountCents).toBe(1800);
    });

    it("charges the volume fee over 2 cu ft", () => {
      const roomy = parcel({ lengthIn: 16, widthIn: 15, heightIn: 15 });
      const quote = quoted(rateService(groundAdvantage, roomy, domestic()));
      expect(kindsOf(quote)).toEqual(["base", "nonstandard_volume"]);
      expect(lineOf(quote, "nonstandard_volume").amountCents).toBe(1800);
    });

    it("adds no fuel, residential or delivery-area surcharge", () => {
      const context = domestic({ residential: true, deliveryArea: true });
      expect(kindsOf(quoted(rateService(groundAdvantage, parcel(), context)))).toEqual(["base"]);
      expect(kindsOf(quoted(rateService(priority, parcel(), context)))).toEqual(["base"]);
    });
  });
});
