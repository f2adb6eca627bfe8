import { describe, expect, it } from "vitest";
import { FEDEX_FUEL_SURCHARGE_BASIS_POINTS, rateService } from "../../../src/carriers/fedex/rates.js";
import { FEDEX_SERVICES } from "../../../src/carriers/fedex/services.js";
import { percentOfCents } from "../../../src/carriers/sandbox/money.js";
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

const ground = serviceByCode(FEDEX_SERVICES, "fedex_ground");
const homeDelivery = serviceByCode(FEDEX_SERVICES, "fedex_ground_home");
const twoDay = serviceByCode(FEDEX_SERVICES, "fedex_2day");
const internationalPriority = serviceByCode(FEDEX_SERVICES, "fedex_intl_priority");

const cube4 = (weightOz: number) => parcel({ lengthIn: 4, widthIn: 4, heightIn: 4, weightOz });
const pak = (weightOz: number) =>
  parcel({ lengthIn: 15.5, widthIn: 12, heightIn: 2, weightOz, packageType: "fedex_pak" });

describe("FedEx rates", () => {
  it("quotes every service at an address it delivers to", () => {
    for (const service of FEDEX_SERVICES) {
      const context =
        service.scope === "international"
          ? abroad("CA")
          : domestic({ residential: service.addressKind === "residential" });
      expect(quoted(rateService(service, parcel(), context)).totalCents).toBeGreaterThan(0);
    }
  });

  describe("Ground and Home Delivery", () => {
    it("sends FedEx Ground to businesses and Home Delivery to residences only", () => {
      expect(refusal(rateService(ground, parcel(), domestic({ residential: true })))).toBe(
        "FedEx Ground does not deliver to residential addresses",
      );
      expect(refusal(rateService(homeDelivery, parcel(), domestic()))).toBe(
        "FedEx Home Delivery delivers to residential addresses only",
      );
    });

    it("prices both from the same table, Home Delivery with its residential charge", () => {
      const business = quoted(rateService(ground, cube4(16), domestic()));
      const residence = quoted(rateService(homeDelivery, cube4(16), domestic({ residential: true })));
      expect(baseCents(residence)).toBe(baseCents(business));
      expect(kindsOf(business)).toEqual(["base", "fuel"]);
      expect(kindsOf(residence)).toEqual(["base", "residential", "fuel"]);
      expect(lineOf(residence, "residential")).toMatchObject({
        description: "Residential Delivery Charge",
        amountCents: 595,
      });
    });
  });

  describe("billable weight", () => {
    it("applies divisor 139 to every package and rounds up to the pound", () => {
      const box = parcel({ lengthIn: 10, widthIn: 10, heightIn: 10, weightOz: 16 });
      expect(quoted(rateService(ground, box, domestic())).billableWeightOz).toBe(8 * 16);
      expect(quoted(rateService(ground, cube4(16.5), domestic())).billableWeightOz).toBe(32);
    });
  });

  describe("limits", () => {
    it("takes exactly 150 lb and refuses anything heavier", () => {
      expect(quoted(rateService(twoDay, cube4(2400), domestic())).billableWeightOz).toBe(2400);
      expect(refusal(rateService(twoDay, cube4(2401), domestic()))).toBe("Weight exceeds 150 lb limit for FedEx 2Day");
    });

    it("allows 119 in on Express and 108 in on Ground", () => {
      const long = (lengthIn: number) => parcel({ lengthIn, widthIn: 6, heightIn: 6, weightOz: 320 });
      expect(quoted(rateService(twoDay, long(119), domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(twoDay, long(120), domestic()))).toBe("Length exceeds 119 in limit for FedEx 2Day");
      expect(quoted(rateService(ground, long(108), domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(ground, long(109), domestic()))).toBe("Length exceeds 108 in limit for FedEx Ground");
    });
  });

  describe("package types", () => {
    it("accepts every FedEx packaging on 2Day and refuses another carrier's", () => {
      for (const { type } of twoDay.packageTypes) {
        const piece = parcel({ lengthIn: 9, widthIn: 6, heightIn: 1, weightOz: 8, packageType: type });
        expect(quoted(rateService(twoDay, piece, domestic())).totalCents).toBeGreaterThan(0);
      }
      expect(refusal(rateService(twoDay, parcel({ packageType: "ups_letter" }), domestic()))).toBe(
        "Package type ups_letter is not available for FedEx 2Day",
      );
    });

    it("keeps FedEx Express packaging off Ground", () => {
      expect(refusal(rateService(ground, pak(16), domestic()))).toBe(
        "Package type fedex_pak is not available for FedEx Ground",
      );
    });

    it("holds the Pak to 50 lb and the boxes to 20 lb", () => {
      expect(quoted(rateService(twoDay, pak(800), domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(twoDay, pak(801), domestic()))).toBe("Weight exceeds 50 lb limit for FedEx Pak");
      const box = parcel({ lengthIn: 12, widthIn: 10, heightIn: 1.5, weightOz: 321, packageType: "fedex_box_small" });
      expect(refusal(rateService(twoDay, box, domestic()))).toBe("Weight exceeds 20 lb limit for FedEx Small Box");
    });
  });

  describe("One Rate", () => {
    it("prices FedEx 2Day (393) with a FedEx Pak by packaging and zone, whatever the weight", () => {
      const light = quoted(rateService(twoDay, pak(16), domestic({ zone: 2 })));
      const heavy = quoted(rateService(twoDay, pak(49 * 16), domestic({ zone: 2 })));
      expect(light.lines).toEqual([{ kind: "base", description: "FedEx 2Day One Rate, FedEx Pak", amountCents: 2710 }]);
      expect(heavy.totalCents).toBe(light.totalCents);
      expect(quoted(rateService(twoDay, pak(16), domestic({ zone: 8 }))).totalCents).toBe(5740);
    });

    it("includes fuel, residential and delivery-area charges in the one price", () => {
      const anywhere = quoted(
        rateService(twoDay, pak(16), domestic({ zone: 2, residential: true, deliveryArea: true })),
      );
      expect(anywhere.lines).toHaveLength(1);
      expect(anywhere.totalCents).toBe(2710);
    });

    it("prices the shipper's own box on 2Day by weight, with surcharges", () => {
      const quote = quoted(rateService(twoDay, cube4(16), domestic({ zone: 2, residential: true })));
      expect(kindsOf(quote)).toEqual(["base", "residential", "fuel"]);
      expect(baseCents(quote)).toBe(2850);
      expect(lineOf(quote, "residential").amountCents).toBe(645);
    });
  });

  describe("surcharges", () => {
    it("takes fuel as a percentage of base and accessorials", () => {
      const quote = quoted(rateService(homeDelivery, cube4(16), domestic({ residential: true, deliveryArea: true })));
      expect(kindsOf(quote)).toEqual(["base", "residential", "delivery_area", "fuel"]);
      expect(lineOf(quote, "delivery_area").amountCents).toBe(580);
      expect(lineOf(quote, "fuel")).toEqual({
        kind: "fuel",
        description: "Fuel Surcharge (20.50%)",
        amountCents: percentOfCents(1240 + 595 + 580, FEDEX_FUEL_SURCHARGE_BASIS_POINTS),
      });
    });

    it("charges the commercial delivery-area surcharge to businesses", () => {
      const quote = quoted(rateService(ground, cube4(16), domestic({ deliveryArea: true })));
      expect(lineOf(quote, "delivery_area").amountCents).toBe(370);
    });

    it("charges Additional Handling for weight over 50 lb and the Oversize Charge instead for large packages", () => {
      expect(lineOf(quoted(rateService(ground, cube4(816), domestic())), "additional_handling")).toMatchObject({
        description: "Additional Handling Surcharge - Weight",
        amountCents: 1990,
      });
      const oversize = quoted(rateService(ground, parcel({ lengthIn: 97, widthIn: 6, heightIn: 6 }), domestic()));
      expect(kindsOf(oversize)).toEqual(["base", "large_package", "fuel"]);
      expect(lineOf(oversize, "large_package")).toMatchObject({ description: "Oversize Charge", amountCents: 24500 });
      expect(oversize.billableWeightOz).toBe(90 * 16);
    });
  });

  it("prices International Priority by destination price group", () => {
    const canada = baseCents(quoted(rateService(internationalPriority, cube4(16), abroad("CA"))));
    const brazil = baseCents(quoted(rateService(internationalPriority, cube4(16), abroad("BR"))));
    expect([canada, brazil]).toEqual([6890, 11450]);
  });
});
