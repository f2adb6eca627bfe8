import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findListedService } from "../../src/carriers/registry.js";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import {
  LOS_ANGELES_WAREHOUSE,
  rateShipment,
  SALT_LAKE_RESIDENCE,
  SMALL_BOX,
  T_SHIRT,
  TORONTO_RESIDENCE,
} from "../helpers/shipments.js";

/**
 * eHub's whole catalogue of Porter's five carriers, a recorded real `GET /services` answer read at
 * test time from `EHUB_CATALOGUE` (default `../shared/docs/ehub-service-catalogue.json` beside the
 * checkout), like the carriers' published specifications; in CI a missing file fails.
 */
const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CATALOGUE_FILE = path.resolve(
  PROJECT_ROOT,
  process.env.EHUB_CATALOGUE ?? "../shared/docs/ehub-service-catalogue.json",
);

interface CataloguedService {
  service_id: number;
  service: string;
  service_code: string;
  carrier_code: string;
}

function readCatalogue(): CataloguedService[] {
  if (fs.existsSync(CATALOGUE_FILE)) {
    return (JSON.parse(fs.readFileSync(CATALOGUE_FILE, "utf8")) as { services: CataloguedService[] }).services;
  }
  if (process.env.CI) throw new Error(`eHub's service catalogue is missing: ${CATALOGUE_FILE}`);
  console.warn(`skipped: eHub's service catalogue is not at ${CATALOGUE_FILE} (set EHUB_CATALOGUE)`);
  return [];
}

const CATALOGUE = readCatalogue();

const domestic = (service_id: number, parcels: object[] = [SMALL_BOX]) => ({
  to_location: SALT_LAKE_RESIDENCE,
  from_location: LOS_ANGELES_WAREHOUSE,
  parcels,
  service_id,
  label_format: "zpl",
  label_size: "4x6",
});

const abroad = (service_id: number) => ({
  ...domestic(service_id, [{ ...SMALL_BOX, parcel_items: [T_SHIRT] }]),
  to_location: TORONTO_RESIDENCE,
});

describe.skipIf(CATALOGUE.length === 0)("eHub's whole service catalogue", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
    await fundMeter(t.services, merchant, "test", 100_000_000);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object) => t.app.inject({ method: "POST", url, headers: merchant.auth, payload });
  const ship = (shipment: object) => post("/api/v2/shipments/ship", { shipment });

  it("lists at least 95 % of the catalogue's (id, code) pairs, under eHub's carrier and name", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/v2/services", headers: merchant.auth });
    expect(response.statusCode).toBe(200);
    const listed = response.json().services as CataloguedService[];
    const byId = new Map(listed.map((s) => [s.service_id, s]));
    const missing = CATALOGUE.filter((s) => byId.get(s.service_id)?.service_code !== s.service_code);
    expect(
      1 - missing.length / CATALOGUE.length,
      JSON.stringify(missing.map((s) => s.service_id)),
    ).toBeGreaterThanOrEqual(0.95);
    for (const pair of CATALOGUE.filter((s) => !missing.includes(s))) {
      expect(byId.get(pair.service_id), `${pair.service_id}`).toMatchObject({
        carrier_code: pair.carrier_code,
        service: pair.service,
      });
    }
    // What is listed beyond the catalogue: First-Class Mail's 683 and Porter's own Global Direct Entry ids.
    const catalogued = new Set(CATALOGUE.map((s) => s.service_id));
    const beyond = listed.filter((s) => !catalogued.has(s.service_id)).map((s) => s.service_id);
    expect(
      beyond.filter((id) => id !== 683).every((id) => id > 90_000),
      `${beyond}`,
    ).toBe(true);
  });

  // One test per pair: each buys (or is refused by the carrier for its own reasons), never "unknown service".
  it.each(CATALOGUE.map((pair) => [pair.service_id, pair.service_code, pair.carrier_code] as const))(
    "accepts %i %s under its own id",
    async (serviceId, _code, carrierCode) => {
      const sold = findListedService(serviceId);
      const response = await ship(sold?.service.scope === "international" ? abroad(serviceId) : domestic(serviceId));
      const body = response.json();
      expect(response.statusCode, response.body).toBeLessThan(500);
      expect(body.error_code, response.body).not.toBe("shipment.service_unavailable");
      if (response.statusCode === 201) expect(body.shipment.shipping_service.carrier_code).toBe(carrierCode);
    },
  );

  it("sells a retired product as its USPS successor, keeping the successor's id and naming both in a warning", async () => {
    const response = await ship(domestic(160));
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.shipment.shipping_service).toMatchObject({
      service_id: 1172,
      service_code: "usps_ground_advantage",
      carrier_code: "usps",
    });
    expect(body.warnings).toEqual([expect.stringMatching(/Standard Post.*retired.*USPS Ground Advantage \(1172\)/)]);

    const rates = await post("/api/v2/rates", rateShipment({ include_services: [160] }));
    expect(rates.statusCode).toBe(201);
    expect(rates.json().service_rates.map((r: { service_id: number }) => r.service_id)).toEqual([1172]);
    expect(rates.json().warnings).toEqual([expect.stringContaining("USPS Ground Advantage (1172)")]);
  });

  it("sells UPS SurePost and Mail Innovations ids as UPS Ground, with a warning", async () => {
    for (const id of [806, 1051, 680, 777]) {
      const response = await ship(domestic(id));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().shipment.shipping_service).toMatchObject({ service_id: 666, service_code: "ups_ground" });
      expect(response.json().warnings).toEqual([expect.stringContaining(`(${id})`)]);
    }
  });

  it("buys a plain other listing under its own id and code, with no warning", async () => {
    const response = await ship(domestic(1173, [{ ...SMALL_BOX, weight: 12 }]));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().shipment.shipping_service).toMatchObject({
      service_id: 1173,
      service_code: "usps_ground_advantage_under_1lb",
    });
    expect(response.json()).not.toHaveProperty("warnings");
  });

  describe("DHL Express products", () => {
    const rateAbroad = (include_services: number[]) =>
      post(
        "/api/v2/rates",
        rateShipment({
          to_location: TORONTO_RESIDENCE,
          parcels: [{ ...SMALL_BOX, parcel_items: [T_SHIRT] }],
          include_services,
        }),
      );
    const rateOf = (rates: { service_id: number; rate: string | number; errors?: string }[], id: number) =>
      rates.find((r) => r.service_id === id);

    it("rates each product under its own id; the time-definite ones cost more than Worldwide, Economy Select less", async () => {
      const response = await rateAbroad([300, 287, 291, 294, 295, 297, 303]);
      expect(response.statusCode).toBe(201);
      const rates = response.json().service_rates;
      const price = (id: number) => Number(rateOf(rates, id)?.rate);
      for (const id of [300, 287, 291, 294, 295, 297, 303]) expect(price(id), `${id}`).toBeGreaterThan(0);
      expect(price(287)).toBeLessThan(price(300));
      expect(price(300)).toBeLessThan(price(294));
      expect(price(294)).toBeLessThan(price(291));
      expect(price(291)).toBeLessThan(price(295));
    });

    it("answers a product's non-document twin under the product's id", async () => {
      const response = await rateAbroad([288, 292]);
      expect(
        response
          .json()
          .service_rates.map((r: { service_id: number }) => r.service_id)
          .sort(),
      ).toEqual([287, 291]);
    });

    it("refuses, with the reason, a domestic product abroad and a product DHL arranges by contract", async () => {
      const rates = (await rateAbroad([284, 307])).json().service_rates;
      expect(rateOf(rates, 284)?.errors).toMatch(/within one country/);
      expect(rateOf(rates, 307)?.errors).toMatch(/arranged with DHL Express/);
    });

    it("buys Economy Select under its own id", async () => {
      const response = await ship(abroad(287));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().shipment.shipping_service).toMatchObject({
        service_id: 287,
        service_code: "economy_select",
        carrier_code: "dhl_express",
      });
    });
  });
});

describe("a First-Class Mail parcel, as eHub sold it after July 2023", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
  });
  afterAll(() => t.close());

  const ship = (shipment: object) =>
    t.app.inject({ method: "POST", url: "/api/v2/shipments/ship", headers: merchant.auth, payload: { shipment } });
  // A request a real eHub client sent, and eHub bought, in August 2023 (addresses are the tests' own).
  const recorded = (weight: number, package_type = "parcel") =>
    domestic(683, [
      {
        length: 9,
        width: 6,
        height: 2,
        weight,
        package_type,
        parcel_items: [{ name: "Guitar strings", quantity: 1, price: 14.99, weight }],
      },
    ]);

  it("buys a 13 oz parcel under 683 as USPS Ground Advantage, with a warning naming it", async () => {
    const response = await ship(recorded(13));
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.shipment.shipping_service).toMatchObject({ service_id: 1172, service_code: "usps_ground_advantage" });
    expect(body.warnings).toEqual([
      expect.stringMatching(/First-Class Package Service is retired: sold as USPS Ground Advantage \(1172\)/),
    ]);
  });

  it("takes parcels up to 15.99 oz; a heavier one is refused, saying which parcels go", async () => {
    expect((await ship(recorded(15.99))).statusCode).toBe(201);
    const heavy = await ship(recorded(16));
    expect(heavy.statusCode).toBe(422);
    expect(heavy.json()).toMatchObject({ error_code: "shipment.package_type_unavailable" });
    expect(heavy.json().error_message).toContain("up to 15.99 oz is sold as USPS Ground Advantage (1172)");
  });

  it("still sells letters and flats as First-Class Mail under 683, with no warning", async () => {
    const flat = await ship(
      domestic(683, [{ length: 12, width: 9, height: 0.5, weight: 6, package_type: "large_envelope" }]),
    );
    expect(flat.statusCode, flat.body).toBe(201);
    expect(flat.json().shipment.shipping_service).toMatchObject({ service_id: 683, service_code: "usps_first_class" });
    expect(flat.json()).not.toHaveProperty("warnings");
  });

  it("rates 683 for such a parcel as Ground Advantage, with the warning", async () => {
    const { parcels } = recorded(13);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/rates",
      headers: merchant.auth,
      payload: rateShipment({ parcels, include_services: [683] }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().service_rates.map((r: { service_id: number }) => r.service_id)).toEqual([1172]);
    expect(response.json().warnings).toEqual([expect.stringContaining("First-Class Package Service is retired")]);
  });
});
