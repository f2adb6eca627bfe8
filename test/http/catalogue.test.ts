import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCarrierApiStatus } from "../../src/domain/carriers/service-status.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";

describe("services, zones, address validation and service status", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let bare: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
    bare = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const get = (url: string, auth = merchant.auth) => t.app.inject({ method: "GET", url, headers: auth });

  describe("GET /services", () => {
    it("lists every carrier's services with eHub's ids and package types", async () => {
      const response = await get("/api/v2/services");
      expect(response.statusCode).toBe(200);
      const services = response.json().services as {
        service_id: number;
        service_code: string;
        carrier_code: string;
        package_types: { type: string }[];
      }[];
      const byId = new Map(services.map((s) => [s.service_id, s]));
      expect(byId.get(1172)).toMatchObject({
        service_code: "usps_ground_advantage",
        carrier_code: "usps",
        category: "shipping",
      });
      expect(byId.get(686)?.service_code).toBe("usps_parcel_select");
      expect(byId.get(683)?.service_code).toBe("usps_first_class");
      expect(byId.get(393)?.service_code).toBe("fedex_2day");
      expect(byId.get(669)).toMatchObject({ service_code: "ups_express", package_types: [] });
      expect(byId.get(670)?.service_code).toBe("ups_express_plus");
      expect(byId.get(393)?.package_types.map((p) => p.type)).toContain("fedex_pak");
      expect(new Set(services.map((s) => s.carrier_code))).toEqual(
        new Set(["usps", "ups", "fed_ex", "dhl_ecommerce", "dhl_express"]),
      );
    });

    it("filters by category and carrier_code", async () => {
      expect((await get("/api/v2/services?category=ecommerce")).json().services).toEqual([]);
      const ups = (await get("/api/v2/services?carrier_code=ups")).json().services as { carrier_code: string }[];
      expect(ups.length).toBeGreaterThan(5);
      expect(ups.every((s) => s.carrier_code === "ups")).toBe(true);
    });
  });

  describe("GET /services/{id}/zones", () => {
    it("answers one zone per origin, the way USPS counts", async () => {
      const response = await get(
        "/api/v2/services/1172/zones?from_country=US&from_postal_codes=90035,10001,84101&to_country=US&to_postal_code=84111",
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        zones: [
          { postal_code: "90035", zone: "04" },
          { postal_code: "10001", zone: "08" },
          { postal_code: "84101", zone: "01" },
        ],
      });
    });

    it("refuses an unknown postal code with 400 naming it, and an unknown service with 404", async () => {
      const bad = await get(
        "/api/v2/services/1172/zones?from_country=US&from_postal_codes=90035,00000&to_country=US&to_postal_code=84111",
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        error_code: "zone.invalid_postal_code",
        error_message: "00000 is not a known US ZIP code.",
      });
      const malformed = await get(
        "/api/v2/services/1172/zones?from_country=US&from_postal_codes=9003&to_country=US&to_postal_code=84111",
      );
      expect(malformed.json().error_message).toContain("9003");
      const abroad = await get(
        "/api/v2/services/1172/zones?from_country=US&from_postal_codes=90035&to_country=DE&to_postal_code=10115",
      );
      expect(abroad.json().error_code).toBe("zone.unsupported_country");
      const missing = await get(
        "/api/v2/services/1/zones?from_country=US&from_postal_codes=90035&to_country=US&to_postal_code=84111",
      );
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error_code).toBe("service.not_found");
      const noQuery = await get("/api/v2/services/1172/zones");
      expect(noQuery.statusCode).toBe(400);
    });
  });

  describe("GET /shipping/validate_address", () => {
    const validate = (query: string, auth = merchant.auth) => get(`/api/v2/shipping/validate_address?${query}`, auth);

    it("standardizes the USPS way and says it changed something", async () => {
      const response = await validate(
        "address1=220+s+state+street&city=salt+lake&state=ut&postal_code=84111&country=US",
      );
      expect(response.statusCode).toBe(200);
      expect(response.json().validate_address).toMatchObject({
        is_valid: true,
        has_update: true,
        address: {
          address1: "220 S STATE ST",
          city: "SALT LAKE CITY",
          state: "UT",
          postal_code: "84111",
          country: "US",
          residential: true,
        },
      });
    });

    it("has no update for an address already in standard form", async () => {
      const response = await validate(
        "address1=220+S+STATE+ST&city=SALT+LAKE+CITY&state=UT&postal_code=84111&country=US",
      );
      expect(response.json().validate_address).toMatchObject({ is_valid: true, has_update: false });
    });

    it("is invalid for a ZIP that does not exist or belongs to another state", async () => {
      for (const query of [
        "address1=1+Main+St&city=Nowhere&state=UT&postal_code=00000&country=US",
        "address1=1+Main+St&city=Salt+Lake+City&state=NV&postal_code=84111&country=US",
      ]) {
        const body = (await validate(query)).json().validate_address;
        expect(body.is_valid).toBe(false);
        expect(body.messages.length).toBeGreaterThan(0);
      }
    });

    it("checks only the country and postal-code format abroad", async () => {
      expect(
        (await validate("address1=10+Downing+St&city=London&state=LND&postal_code=SW1A+2AA&country=GB")).json()
          .validate_address.is_valid,
      ).toBe(true);
      expect(
        (await validate("address1=10+Downing+St&city=London&state=LND&postal_code=12345&country=GB")).json()
          .validate_address.is_valid,
      ).toBe(false);
    });

    it("refuses a request missing required fields with 400", async () => {
      const response = await validate("address1=1+Main+St&state=UT&postal_code=84111&country=US");
      expect(response.statusCode).toBe(400);
      expect(response.json().error_message).toContain("city");
    });

    it("works in the child form", async () => {
      const child = await createTestAccount(t.services, { parentId: merchant.accountId });
      const response = await get(
        `/api/v2/customers/${child.accountId}/shipping/validate_address?address1=220+S+State+St&city=Salt+Lake+City&state=UT&postal_code=84111&country=US`,
      );
      expect(response.statusCode).toBe(200);
      expect(
        (await get(`/api/v2/customers/${child.accountId}/shipping/validate_address?address1=x`, bare.auth)).statusCode,
      ).toBe(404);
    });
  });

  describe("GET /status", () => {
    it("has the five postal rows eHub names, and rows for each other connected carrier's APIs", async () => {
      const rows = (await get("/api/v2/status")).json().api_services as {
        api_service_code: string;
        status: string;
        api_service: string;
      }[];
      const codes = rows.map((r) => r.api_service_code);
      expect(codes).toEqual(
        expect.arrayContaining(["usps_rate", "usps_label", "usps_manifest", "usps_tracking", "usps_pickup"]),
      );
      expect(codes).toContain("ups_rate");
      expect(codes).not.toContain("ups_manifest");
      expect(rows.find((r) => r.api_service_code === "usps_rate")).toMatchObject({
        api_service: "USPS rate services",
        status: "online",
      });
    });

    it("shows what the operator set, and nothing for an account without carriers", async () => {
      await setCarrierApiStatus(t.services, "usps", "pickup", "offline", "carrier maintenance");
      const rows = (await get("/api/v2/status")).json().api_services as {
        api_service_code: string;
        status: string;
        message: string;
      }[];
      expect(rows.find((r) => r.api_service_code === "usps_pickup")).toMatchObject({
        status: "offline",
        message: "carrier maintenance",
      });
      expect((await get("/api/v2/status", bare.auth)).json().api_services).toEqual([]);
      await setCarrierApiStatus(t.services, "usps", "pickup", "online", null);
    });
  });
});
