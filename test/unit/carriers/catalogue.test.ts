import { describe, expect, it } from "vitest";
import type { CarrierCode, ServiceDefinition } from "../../../src/carriers/catalogue.js";
import { DHL_ECOMMERCE_SERVICES } from "../../../src/carriers/dhl-ecommerce/services.js";
import { DHL_EXPRESS_SERVICES } from "../../../src/carriers/dhl-express/services.js";
import { FEDEX_SERVICES } from "../../../src/carriers/fedex/services.js";
import { UPS_SERVICES } from "../../../src/carriers/ups/services.js";
import { USPS_SERVICES } from "../../../src/carriers/usps/services.js";
import { serviceByCode } from "./rating-fixtures.js";

const CARRIERS: {
  carrierCode: CarrierCode;
  prefix: string;
  multiParcel: boolean;
  services: readonly ServiceDefinition[];
}[] = [
  { carrierCode: "usps", prefix: "usps_", multiParcel: false, services: USPS_SERVICES },
  { carrierCode: "ups", prefix: "ups_", multiParcel: true, services: UPS_SERVICES },
  { carrierCode: "fed_ex", prefix: "fedex_", multiParcel: true, services: FEDEX_SERVICES },
  { carrierCode: "dhl_ecommerce", prefix: "dhl_", multiParcel: false, services: DHL_ECOMMERCE_SERVICES },
  // eHub's DHL Express codes are the product's name alone: express_worldwide, economy_select, jet_line …
  { carrierCode: "dhl_express", prefix: "", multiParcel: true, services: DHL_EXPRESS_SERVICES },
];
const ALL_SERVICES = CARRIERS.flatMap((carrier) => carrier.services);

describe("service catalogue", () => {
  it("gives every service an integer id unique across all carriers", () => {
    const ids = ALL_SERVICES.map((service) => service.serviceId);
    for (const id of ids) expect(Number.isSafeInteger(id) && id > 0).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("gives every service a unique snake-case code with its carrier's prefix", () => {
    const codes = ALL_SERVICES.map((service) => service.serviceCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const { carrierCode, prefix, services } of CARRIERS) {
      for (const service of services) {
        expect(service.serviceCode).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
        for (const other of service.otherListings) expect(other.serviceCode).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
        expect(service.serviceCode.startsWith(prefix)).toBe(true);
        expect(service.carrierCode).toBe(carrierCode);
      }
    }
  });

  it("keeps eHub's service ids", () => {
    const byId = new Map(ALL_SERVICES.map((service) => [service.serviceId, service.serviceCode]));
    expect(byId.get(1172)).toBe("usps_ground_advantage");
    expect(byId.get(686)).toBe("usps_parcel_select");
    expect(byId.get(683)).toBe("usps_first_class");
    expect(byId.get(393)).toBe("fedex_2day");
    expect(byId.get(669)).toBe("ups_express");
    expect(byId.get(670)).toBe("ups_express_plus");
  });

  it("uses eHub's service codes where eHub names them", () => {
    const codes = new Set(ALL_SERVICES.map((service) => service.serviceCode));
    for (const code of [
      "usps_priority",
      "usps_express",
      "usps_media_mail",
      "ups_ground",
      "ups_2nd_day",
      "fedex_ground",
      "fedex_ground_home",
    ]) {
      expect(codes.has(code)).toBe(true);
    }
  });

  it("gives every service a package-type list (possibly empty) without duplicates", () => {
    for (const service of ALL_SERVICES) {
      expect(Array.isArray(service.packageTypes)).toBe(true);
      const types = service.packageTypes.map((packaging) => packaging.type);
      expect(new Set(types).size).toBe(types.length);
      for (const packaging of service.packageTypes) expect(packaging.name.length).toBeGreaterThan(0);
    }
  });

  it("lists UPS Worldwide Express and Express Plus with no package types, as eHub does", () => {
    expect(serviceByCode(UPS_SERVICES, "ups_express").packageTypes).toEqual([]);
    expect(serviceByCode(UPS_SERVICES, "ups_express_plus").packageTypes).toEqual([]);
  });

  it("offers the FedEx Pak at One Rate on FedEx 2Day", () => {
    const pak = serviceByCode(FEDEX_SERVICES, "fedex_2day").packageTypes.find((p) => p.type === "fedex_pak");
    expect(pak).toMatchObject({ name: "FedEx Pak", flatRate: true });
  });

  it("makes FedEx Ground commercial and FedEx Home Delivery residential, every other service any address", () => {
    expect(serviceByCode(FEDEX_SERVICES, "fedex_ground").addressKind).toBe("commercial");
    expect(serviceByCode(FEDEX_SERVICES, "fedex_ground_home").addressKind).toBe("residential");
    const others = ALL_SERVICES.filter((s) => !["fedex_ground", "fedex_ground_home"].includes(s.serviceCode));
    for (const service of others) expect(service.addressKind).toBe("any");
  });

  it("sets multi-parcel shipping per carrier", () => {
    for (const { multiParcel, services } of CARRIERS) {
      for (const service of services) expect(service.multiParcel).toBe(multiParcel);
    }
  });

  it("marks Global Direct Entry services, and only those, with gde and `_gde` in the code", () => {
    const gde = ALL_SERVICES.filter((service) => service.gde === true);
    expect(gde.length).toBeGreaterThan(0);
    for (const service of ALL_SERVICES) expect(service.gde === true).toBe(service.serviceCode.includes("_gde"));
  });

  it("gives every service positive limits and a transit range", () => {
    for (const service of ALL_SERVICES) {
      expect(service.category).toBe("shipping");
      expect(service.maxWeightOz).toBeGreaterThan(0);
      expect(service.maxLengthIn).toBeGreaterThan(0);
      expect(service.maxLengthPlusGirthIn).toBeGreaterThanOrEqual(service.maxLengthIn);
      expect(service.transitDays.min).toBeGreaterThanOrEqual(1);
      expect(service.transitDays.max).toBeGreaterThanOrEqual(service.transitDays.min);
    }
  });

  it("has domestic and international services for the carriers that ship both, DHL Express abroad only", () => {
    for (const { carrierCode, services } of CARRIERS) {
      const scopes = new Set(services.map((service) => service.scope));
      expect([...scopes].sort()).toEqual(
        carrierCode === "dhl_express" ? ["international"] : ["domestic", "international"],
      );
    }
  });
});
