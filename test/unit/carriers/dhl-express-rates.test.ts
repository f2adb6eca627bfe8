import { describe, expect, it } from "vitest";
import { DHL_EXPRESS_FUEL_SURCHARGE_BASIS_POINTS, rateService } from "../../../src/carriers/dhl-express/rates.js";
import { DHL_EXPRESS_SERVICES } from "../../../src/carriers/dhl-express/services.js";
import { percentOfCents } from "../../../src/carriers/sandbox/money.js";
import { abroad, baseCents, kindsOf, lineOf, parcel, quoted, refusal, serviceByCode } from "./rating-fixtures.js";

const worldwide = serviceByCode(DHL_EXPRESS_SERVICES, "express_worldwide");
const noon = serviceByCode(DHL_EXPRESS_SERVICES, "express1200");
const nineAm = serviceByCode(DHL_EXPRESS_SERVICES, "express900");

const cube4 = (weightOz: number) => parcel({ lengthIn: 4, widthIn: 4, heightIn: 4, weightOz });
const envelope = (weightOz: number) =>
  parcel({ lengthIn: 13.5, widthIn: 10.5, heightIn: 0.5, weightOz, packageType: "envelope" });

describe("DHL Express rates", () => {
  it("quotes every product sold from the United States in every packaging it offers", () => {
    const abroadOnly = ["domestic_", "jet_line", "sprint_line", "secure_line", "logistics_services"];
    for (const service of DHL_EXPRESS_SERVICES.filter((s) => !abroadOnly.some((c) => s.serviceCode.startsWith(c)))) {
      for (const { type } of service.packageTypes) {
        const piece = parcel({ lengthIn: 12, widthIn: 9, heightIn: 1, weightOz: 8, packageType: type });
        expect(quoted(rateService(service, piece, abroad("GB"))).totalCents).toBeGreaterThan(0);
      }
    }
  });

  it("prices a domestic product within one country outside the United States only", () => {
    const domestic = serviceByCode(DHL_EXPRESS_SERVICES, "domestic_express");
    const piece = parcel({ lengthIn: 12, widthIn: 9, heightIn: 1, weightOz: 8 });
    expect(quoted(rateService(domestic, piece, abroad("GB", { fromCountry: "GB" }))).totalCents).toBeGreaterThan(0);
    expect(refusal(rateService(domestic, piece, abroad("GB", { fromCountry: "US" })))).toMatch(/within one country/);
  });

  it("refuses the products DHL arranges by contract, and prices Economy Select below Worldwide", () => {
    const piece = parcel({ lengthIn: 12, widthIn: 9, heightIn: 1, weightOz: 8 });
    const jetline = serviceByCode(DHL_EXPRESS_SERVICES, "jet_line");
    expect(refusal(rateService(jetline, piece, abroad("GB")))).toMatch(/arranged with DHL Express by contract/);
    const economy = serviceByCode(DHL_EXPRESS_SERVICES, "economy_select");
    expect(quoted(rateService(economy, piece, abroad("GB"))).totalCents).toBeLessThan(
      quoted(rateService(worldwide, piece, abroad("GB"))).totalCents,
    );
  });

  it("refuses another carrier's packaging", () => {
    expect(refusal(rateService(worldwide, parcel({ packageType: "fedex_pak" }), abroad("GB")))).toBe(
      "Package type fedex_pak is not available for DHL Express Worldwide",
    );
  });

  describe("Express Envelope", () => {
    it("has one price per price group up to its 0.5 kg cap", () => {
      const light = quoted(rateService(worldwide, envelope(2), abroad("CA")));
      expect(light.lines[0]).toEqual({
        kind: "base",
        description: "DHL Express Worldwide, DHL Express Envelope",
        amountCents: 5190,
      });
      expect(baseCents(quoted(rateService(worldwide, envelope(17.6), abroad("CA"))))).toBe(5190);
      expect(baseCents(quoted(rateService(worldwide, envelope(2), abroad("JP"))))).toBe(7190);
      expect(refusal(rateService(worldwide, envelope(17.7), abroad("CA")))).toBe(
        "Weight exceeds 17.6 oz limit for DHL Express Envelope",
      );
    });
  });

  describe("billable weight and limits", () => {
    it("applies divisor 139 to every piece and rounds up to the pound", () => {
      const box = parcel({ lengthIn: 10, widthIn: 10, heightIn: 10, weightOz: 16 });
      expect(quoted(rateService(worldwide, box, abroad("GB"))).billableWeightOz).toBe(8 * 16);
      expect(quoted(rateService(worldwide, cube4(17), abroad("GB"))).billableWeightOz).toBe(32);
    });

    it("takes 154 lb (70 kg) and refuses anything heavier", () => {
      expect(quoted(rateService(worldwide, cube4(2464), abroad("GB"))).billableWeightOz).toBe(2464);
      expect(refusal(rateService(worldwide, cube4(2465), abroad("GB")))).toBe(
        "Weight exceeds 154 lb limit for DHL Express Worldwide",
      );
    });

    it("takes a 47 in piece and refuses a longer one", () => {
      const long = parcel({ lengthIn: 47, widthIn: 10, heightIn: 10, weightOz: 160 });
      expect(quoted(rateService(worldwide, long, abroad("GB"))).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(worldwide, { ...long, lengthIn: 47.5 }, abroad("GB")))).toBe(
        "Length exceeds 47 in limit for DHL Express Worldwide",
      );
    });
  });

  describe("surcharges", () => {
    it("adds only fuel to a small piece outside remote areas, residential or not", () => {
      const quote = quoted(rateService(worldwide, cube4(16), abroad("GB", { residential: true })));
      expect(kindsOf(quote)).toEqual(["base", "fuel"]);
      expect(lineOf(quote, "fuel")).toEqual({
        kind: "fuel",
        description: "Fuel Surcharge (27.50%)",
        amountCents: percentOfCents(8190, DHL_EXPRESS_FUEL_SURCHARGE_BASIS_POINTS),
      });
    });

    it("adds Remote Area Delivery in delivery areas and Oversize Piece over 100 cm, fuel on top of both", () => {
      const piece = parcel({ lengthIn: 40, widthIn: 6, heightIn: 6, weightOz: 160 });
      const quote = quoted(rateService(worldwide, piece, abroad("GB", { deliveryArea: true })));
      expect(kindsOf(quote)).toEqual(["base", "delivery_area", "oversize_piece", "fuel"]);
      expect(lineOf(quote, "delivery_area")).toMatchObject({ description: "Remote Area Delivery", amountCents: 3500 });
      expect(lineOf(quote, "oversize_piece").amountCents).toBe(10000);
      expect(lineOf(quote, "fuel").amountCents).toBe(
        percentOfCents(baseCents(quote) + 3500 + 10000, DHL_EXPRESS_FUEL_SURCHARGE_BASIS_POINTS),
      );
      const shorter = quoted(rateService(worldwide, { ...piece, lengthIn: 39 }, abroad("GB")));
      expect(kindsOf(shorter)).toEqual(["base", "fuel"]);
    });
  });

  it("charges more for the time-definite products", () => {
    const price = (service: typeof worldwide) => quoted(rateService(service, cube4(16), abroad("GB"))).totalCents;
    expect(price(noon)).toBeGreaterThan(price(worldwide));
    expect(price(nineAm)).toBeGreaterThan(price(noon));
  });
});
