import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { rateShipment, TORONTO_RESIDENCE } from "../helpers/shipments.js";

/** The keys of a `service_rates[]` element as real eHub answers them, in its order. */
const EHUB_RATE_KEYS = [
  "service",
  "service_id",
  "service_code",
  "carrier_code",
  "rate",
  "rate_details",
  "meter_rate",
  "meter_rate_details",
  "retail_rate",
  "std_rates",
  "errors",
  "delivery_days",
  "min_delivery_days",
  "max_delivery_days",
  "delivery_date",
  "delivery_guaranteed",
  "rate_calc_type",
  "price_group",
];
/** Porter's own breakdown, kept after eHub's keys. */
const PORTER_RATE_KEYS = ["package_type", "zone", "billable_weight", "shipping_cost_details"];

interface RateDetail {
  cost_type: string;
  description: string | null;
  rate: number;
}
interface RateEntry {
  service_id: number;
  carrier_code: string;
  rate: number | null;
  rate_details: RateDetail[] | null;
  meter_rate: number | null;
  meter_rate_details: RateDetail[] | null;
  retail_rate: number | null;
  std_rates: null;
  errors: string | null;
  delivery_days: number | null;
  min_delivery_days: number | null;
  max_delivery_days: number | null;
  rate_calc_type: string[];
  price_group: string | null;
  zone: string | null;
}

const cents = (dollars: number) => Math.round(dollars * 100);

describe("rate entries as real eHub writes them", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
  });
  afterAll(() => t.close());

  const rates = async (overrides: Record<string, unknown> = {}) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/rates",
      headers: merchant.auth,
      payload: rateShipment(overrides),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().service_rates as RateEntry[];
  };

  it("carries every key eHub writes, then Porter's, in every entry: priced, refused, at home and abroad", async () => {
    const heavy = { length: 12, width: 12, height: 12, weight: 71 * 16 };
    const entries = [
      ...(await rates()),
      ...(await rates({ to_location: TORONTO_RESIDENCE })),
      ...(await rates({ parcels: [heavy], include_services: [1172] })),
    ];
    expect(entries.some((entry) => entry.errors !== null)).toBe(true);
    for (const entry of entries) expect(Object.keys(entry)).toEqual([...EHUB_RATE_KEYS, ...PORTER_RATE_KEYS]);
  });

  it("breaks the rate into a std line and surcharges that add up to it to the cent, for the meter too", async () => {
    const entries = await rates();
    const ups = entries.find((entry) => entry.service_id === 666)!;
    expect(ups.rate_details![0]).toMatchObject({ cost_type: "std" });
    expect(ups.rate_details!.map((d) => d.cost_type)).toContain("fuel");
    for (const entry of entries) {
      expect(entry.rate_details!.reduce((sum, detail) => sum + cents(detail.rate), 0)).toBe(cents(entry.rate!));
      expect(entry.meter_rate_details).toEqual(entry.rate_details);
      expect(entry.std_rates).toBeNull();
    }
  });

  it("gives USPS's retail price and none for carriers without a published retail price", async () => {
    const entries = await rates();
    const usps = entries.filter((entry) => entry.carrier_code === "usps");
    expect(usps.length).toBeGreaterThan(0);
    // The sandbox's USPS tables are the retail ones, so an account pays the retail price.
    for (const entry of usps) expect(entry.retail_rate).toBe(entry.rate);
    for (const entry of entries.filter((e) => e.carrier_code !== "usps")) expect(entry.retail_rate).toBeNull();
  });

  it("names the delivery window and the price group: the zone at home, the price group abroad", async () => {
    const ground = (await rates()).find((entry) => entry.service_id === 1172)!;
    expect(ground).toMatchObject({
      zone: "04",
      price_group: "4",
      min_delivery_days: 2,
      max_delivery_days: 5,
      delivery_days: 5,
    });
    const abroad = (await rates({ to_location: TORONTO_RESIDENCE, include_services: [691] }))[0]!;
    expect(abroad).toMatchObject({ zone: null, price_group: "1" });
  });

  it.each([
    [{ length: 10, width: 8, height: 4, weight: 24 }, ["standard"]],
    [{ length: 12, width: 3, height: 10, weight: 8, package_type: "flat_rate_envelope" }, ["flat_rate"]],
    [{ length: 10, width: 8, height: 2, weight: 24, package_type: "softpack" }, ["cubic"]],
  ])("says how Priority Mail priced %o: %o", async (parcel, calcType) => {
    const [priority] = await rates({ parcels: [parcel], include_services: [684] });
    expect(priority).toMatchObject({ service_id: 684, errors: null, rate_calc_type: calcType });
  });

  it("lists each parcel's way of pricing once, in parcel order", async () => {
    const [onePak] = await rates({
      parcels: [
        { length: 12, width: 15, height: 2, weight: 32, package_type: "fedex_pak" },
        { length: 10, width: 8, height: 4, weight: 24 },
        { length: 12, width: 15, height: 2, weight: 16, package_type: "fedex_pak" },
      ],
      include_services: [393],
    });
    expect(onePak).toMatchObject({ service_id: 393, errors: null, rate_calc_type: ["flat_rate", "standard"] });
  });
});
