import { describe, expect, it } from "vitest";
import { rateService } from "../../../src/carriers/dhl-ecommerce/rates.js";
import { DHL_ECOMMERCE_SERVICES } from "../../../src/carriers/dhl-ecommerce/services.js";
import { abroad, baseCents, domestic, kindsOf, parcel, quoted, refusal, serviceByCode } from "./rating-fixtures.js";

const parcelGround = serviceByCode(DHL_ECOMMERCE_SERVICES, "dhl_parcel_ground");
const parcelGroundGde = serviceByCode(DHL_ECOMMERCE_SERVICES, "dhl_parcel_ground_gde");
const bpmGround = serviceByCode(DHL_ECOMMERCE_SERVICES, "dhl_bpm_ground");
const packet = serviceByCode(DHL_ECOMMERCE_SERVICES, "dhl_packet_intl");
const internationalDirect = serviceByCode(DHL_ECOMMERCE_SERVICES, "dhl_parcel_intl_direct");

describe("DHL eCommerce rates", () => {
  it("quotes every product", () => {
    for (const service of DHL_ECOMMERCE_SERVICES) {
      const context = service.scope === "domestic" ? domestic() : abroad("CA");
      expect(quoted(rateService(service, parcel({ weightOz: 8 }), context)).totalCents).toBeGreaterThan(0);
    }
  });

  it.each([
    [3, 4, 480],
    [9, 12, 545],
    [16, 16, 585],
    [17, 32, 725],
  ])("bills %s oz at the %s oz step", (weightOz, billableOz, cents) => {
    const quote = quoted(rateService(parcelGround, parcel({ weightOz }), domestic()));
    expect(quote.billableWeightOz).toBe(billableOz);
    expect(baseCents(quote)).toBe(cents);
  });

  it("applies DIM weight (166) only above 1,728 cu in", () => {
    const atThreshold = parcel({ lengthIn: 12, widthIn: 12, heightIn: 12 });
    expect(quoted(rateService(parcelGround, atThreshold, domestic())).billableWeightOz).toBe(16);
    const above = quoted(rateService(parcelGround, parcel({ lengthIn: 7, widthIn: 13, heightIn: 19 }), domestic()));
    expect(above.billableWeightOz).toBe(11 * 16);
    expect(baseCents(above)).toBe(1145 + 6 * 120);
  });

  describe("limits", () => {
    it("takes 25 lb parcels and 15 lb Bound Printed Matter, no more", () => {
      expect(quoted(rateService(parcelGround, parcel({ weightOz: 400 }), domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(parcelGround, parcel({ weightOz: 400.5 }), domestic()))).toBe(
        "Weight exceeds 25 lb limit for DHL Parcel Ground",
      );
      expect(quoted(rateService(bpmGround, parcel({ weightOz: 240 }), domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(bpmGround, parcel({ weightOz: 241 }), domestic()))).toBe(
        "Weight exceeds 15 lb limit for DHL BPM Ground",
      );
    });

    it("takes a 27 × 17 × 17 in parcel, no longer and no larger", () => {
      const largest = parcel({ lengthIn: 27, widthIn: 17, heightIn: 17, weightOz: 320 });
      expect(quoted(rateService(parcelGround, largest, domestic())).totalCents).toBeGreaterThan(0);
      expect(refusal(rateService(parcelGround, { ...largest, lengthIn: 27.5 }, domestic()))).toBe(
        "Length exceeds 27 in limit for DHL Parcel Ground",
      );
      expect(refusal(rateService(parcelGround, { ...largest, heightIn: 17.5 }, domestic()))).toBe(
        "Length plus girth exceeds 95 in limit for DHL Parcel Ground",
      );
    });

    it("holds Packet International to 4.4 lb and 36 in length + width + height", () => {
      const packetAtLimit = parcel({ lengthIn: 20, widthIn: 10, heightIn: 6, weightOz: 70.4 });
      const quote = quoted(rateService(packet, packetAtLimit, abroad("CA")));
      expect(quote.billableWeightOz).toBe(80);
      expect(baseCents(quote)).toBe(2845 + 520);
      expect(refusal(rateService(packet, { ...packetAtLimit, weightOz: 70.5 }, abroad("CA")))).toBe(
        "Weight exceeds 70.4 oz limit for DHL Packet International",
      );
      expect(refusal(rateService(packet, { ...packetAtLimit, heightIn: 6.5 }, abroad("CA")))).toBe(
        "Length plus width plus height exceeds 36 in limit for DHL Packet International",
      );
    });
  });

  it("takes only the shipper's own packaging", () => {
    expect(refusal(rateService(parcelGround, parcel({ packageType: "softpack" }), domestic()))).toBe(
      "Package type softpack is not available for DHL Parcel Ground",
    );
  });

  it("adds no surcharge lines", () => {
    const context = domestic({ residential: true, deliveryArea: true });
    expect(kindsOf(quoted(rateService(parcelGround, parcel({ lengthIn: 26 }), context)))).toEqual(["base"]);
  });

  it("prices the Global Direct Entry product as Parcel Ground", () => {
    const piece = parcel({ weightOz: 40 });
    expect(quoted(rateService(parcelGroundGde, piece, domestic())).totalCents).toBe(
      quoted(rateService(parcelGround, piece, domestic())).totalCents,
    );
  });

  it("prices international products by destination price group", () => {
    const canada = quoted(rateService(internationalDirect, parcel({ weightOz: 8 }), abroad("CA"))).totalCents;
    const brazil = quoted(rateService(internationalDirect, parcel({ weightOz: 8 }), abroad("BR"))).totalCents;
    expect([canada, brazil]).toEqual([1190, 1690]);
  });
});
