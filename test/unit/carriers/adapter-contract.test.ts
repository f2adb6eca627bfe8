import { describe, expect, it } from "vitest";
import type { RateRequest } from "../../../src/carriers/carrier.js";
import { CarrierError } from "../../../src/carriers/carrier.js";
import type { CarrierCode } from "../../../src/carriers/catalogue.js";
import { CARRIERS } from "../../../src/carriers/registry.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, TORONTO_RESIDENCE } from "../../helpers/shipments.js";

/** How eHub's codes of each carrier begin (its DHL Express codes name the product alone). */
const SERVICE_CODE_PREFIXES: Record<CarrierCode, string> = {
  usps: "usps_",
  ups: "ups_",
  fed_ex: "fedex_",
  dhl_ecommerce: "dhl_",
  // eHub's DHL Express codes name the product alone (express_worldwide, economy_select, euro_pack).
  dhl_express: "",
};

const DOMESTIC: Omit<RateRequest, "services"> = {
  from: LOS_ANGELES_WAREHOUSE,
  to: SALT_LAKE_RESIDENCE,
  parcels: [{ lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" }],
  residential: true,
};

const ABROAD: Omit<RateRequest, "services"> = {
  ...DOMESTIC,
  to: TORONTO_RESIDENCE,
};

/** What every carrier adapter promises, whatever carrier it speaks for. */
describe.each(CARRIERS.map((carrier) => [carrier.code, carrier] as const))("carrier adapter %s", (_code, carrier) => {
  it("names its services with its own code and unique ids", () => {
    expect(carrier.services.length).toBeGreaterThan(0);
    for (const service of carrier.services) {
      expect(service.carrierCode).toBe(carrier.code);
      expect(service.serviceCode.startsWith(SERVICE_CODE_PREFIXES[carrier.code])).toBe(true);
      expect(service.serviceCode).toMatch(/^[a-z0-9_]+$/);
    }
    expect(new Set(carrier.services.map((s) => s.serviceId)).size).toBe(carrier.services.length);
  });

  it("declares a rate and a label API at least", () => {
    expect(carrier.apis).toEqual(expect.arrayContaining(["rate", "label"]));
  });

  it("answers only for the services it was asked about, each with a price or a reason", async () => {
    for (const shipment of [DOMESTIC, ABROAD]) {
      const answers = await carrier.rate({ ...shipment, services: carrier.services });
      const asked = new Set(carrier.services.map((s) => s.serviceId));
      for (const answer of answers) {
        expect(asked.has(answer.service.serviceId)).toBe(true);
        expect(Boolean(answer.quote) !== Boolean(answer.refusal)).toBe(true);
        if (answer.quote) {
          expect(Number.isInteger(answer.quote.totalCents)).toBe(true);
          expect(answer.quote.totalCents).toBeGreaterThan(0);
          expect(answer.quote.lines.reduce((sum, l) => sum + l.amountCents, 0)).toBe(answer.quote.totalCents);
        }
      }
    }
    expect(await carrier.rate({ ...DOMESTIC, services: [] })).toEqual([]);
  });

  it("rates something at home or abroad", async () => {
    const home = await carrier.rate({ ...DOMESTIC, services: carrier.services });
    const abroad = await carrier.rate({ ...ABROAD, services: carrier.services });
    expect([...home, ...abroad].some((answer) => answer.quote)).toBe(true);
  });

  it("is deterministic", async () => {
    const first = await carrier.rate({ ...DOMESTIC, services: carrier.services });
    const second = await carrier.rate({
      ...DOMESTIC,
      parcels: [{ ...DOMESTIC.parcels[0]! }],
      services: [...carrier.services],
    });
    expect(second).toEqual(first);
  });

  it("answers a question asked again as the first time, parcel by parcel, insured, at home and abroad", async () => {
    const parcels = [
      { lengthIn: 12, widthIn: 9, heightIn: 5, weightOz: 40, packageType: "parcel", insuredCents: 25_000 },
      { lengthIn: 30, widthIn: 20, heightIn: 18, weightOz: 610, packageType: "parcel" },
    ];
    for (const shipment of [DOMESTIC, ABROAD]) {
      for (const asked of [parcels, parcels.slice(0, 1)]) {
        const question = () => carrier.rate({ ...shipment, parcels: asked, services: carrier.services });
        const first = structuredClone(await question());
        expect(await question()).toEqual(first);
        expect(await question()).toEqual(first);
      }
    }
  });

  it("fails as a carrier, with its own name, when a fault is scripted", async () => {
    const faulty = { ...DOMESTIC, to: { ...DOMESTIC.to, address2: `sandbox-fault:${carrier.code}` } };
    await expect(carrier.rate({ ...faulty, services: carrier.services })).rejects.toThrow(CarrierError);
    await expect(carrier.rate({ ...faulty, services: carrier.services })).rejects.toThrow(carrier.displayName);
  });

  it("gives zones as two-digit strings and refuses unknown ZIP codes", () => {
    expect(carrier.zone("90035", "10001")).toMatch(/^0[1-9]$/);
    expect(() => carrier.zone("90035", "00000")).toThrow();
  });
});
