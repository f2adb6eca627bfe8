import { Value } from "typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_SERVICES } from "../../src/carriers/registry.js";
import { setCarrierApiStatus } from "../../src/domain/carriers/service-status.js";
import { getRates } from "../../src/domain/rates/get-rates.js";
import { RateResponse, ServiceRateOut } from "../../src/http/routes/rates/rates.schemas.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import {
  LOS_ANGELES_WAREHOUSE,
  rateShipment,
  SALT_LAKE_RESIDENCE,
  SMALL_BOX,
  TORONTO_RESIDENCE,
} from "../helpers/shipments.js";

interface ServiceRate {
  service_id: number;
  service_code: string;
  carrier_code: string;
  rate: number | null;
  meter_rate: number | null;
  zone: string | null;
  delivery_days: number | null;
  delivery_date: string | null;
  package_type: string;
  billable_weight: number | null;
  shipping_cost_details: { type: string; amount: number }[];
  errors: string | null;
}

describe("POST /rates", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let child: TestAccount;
  let bare: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
    child = await createTestAccount(t.services, { parentId: merchant.accountId });
    bare = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const rate = async (body: unknown, auth = merchant.auth, url = "/api/v2/rates") => {
    const response = await t.app.inject({ method: "POST", url, headers: auth, payload: body as object });
    return { response, rates: (response.json().service_rates ?? []) as ServiceRate[], body: response.json() };
  };

  it("rates every connected carrier, cheapest first, with zones, delivery dates and a price breakdown", async () => {
    const { response, rates, body } = await rate(rateShipment());
    expect(response.statusCode).toBe(201);
    expect(body.warnings).toEqual([]);
    expect(new Set(rates.map((r) => r.carrier_code))).toEqual(new Set(["usps", "ups", "fed_ex", "dhl_ecommerce"]));
    const totals = rates.map((r) => r.rate as number);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const ground = rates.find((r) => r.service_id === 1172)!;
    expect(ground).toMatchObject({
      service_code: "usps_ground_advantage",
      zone: "04",
      package_type: "parcel",
      errors: null,
    });
    expect(ground.delivery_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const r of rates) {
      const sum = r.shipping_cost_details.reduce((cents, line) => cents + Math.round(line.amount * 100), 0);
      expect(sum).toBe(Math.round((r.rate as number) * 100));
      expect(r.meter_rate).toBe(r.rate);
    }
  });

  it("answers in the documented shape, the same answer to the same question, new dates for a new day", async () => {
    const first = await rate(rateShipment());
    expect(Value.Check({ ServiceRate: ServiceRateOut }, RateResponse, first.body)).toBe(true);
    expect(first.response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect((await rate(rateShipment())).response.body).toBe(first.response.body);
    const later = await rate(rateShipment({ ship_date: "2026-01-20" }));
    const ground = (rates: ServiceRate[]) => rates.find((r) => r.service_id === 1172)?.delivery_date;
    expect(ground(later.rates)).not.toBe(ground(first.rates));
    expect(ground(later.rates)! > "2026-01-20").toBe(true);
  });

  it("sends an answer asked for again byte for byte as the first time, with the same headers", async () => {
    // A question no other test asks: its first answer is sent as text, the later ones as kept bytes.
    const question = rateShipment({ parcels: [{ ...SMALL_BOX, weight: 31 }] });
    const [first, second, third] = [await rate(question), await rate(question), await rate(question)];
    for (const { response } of [second, third]) {
      expect(response.statusCode).toBe(201);
      expect(response.body).toBe(first.response.body);
      for (const header of ["content-type", "content-length"]) {
        expect(response.headers[header]).toBe(first.response.headers[header]);
      }
    }
  });

  it("keeps an answer only once its question is asked a second time", async () => {
    // A question asked once is not kept, so a spread of distinct questions does not fill the heap.
    const scope = { accountId: merchant.accountId, mode: "test" as const };
    const question = {
      to_location: SALT_LAKE_RESIDENCE,
      from_location: LOS_ANGELES_WAREHOUSE,
      parcels: [{ ...SMALL_BOX, weight: 37, package_type: "parcel" }],
    };
    const first = await getRates(t.services, scope, question);
    const second = await getRates(t.services, scope, { ...question });
    const third = await getRates(t.services, scope, { ...question });
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(third).toBe(second);
  });

  it("answers the same text on a new day with that day's delivery dates", async () => {
    const today = t.clock.now();
    const ground = (rates: ServiceRate[]) => rates.find((r) => r.service_id === 1172)?.delivery_date;
    const before = ground((await rate(rateShipment())).rates);
    t.clock.advance(7 * 24 * 3600 * 1000);
    try {
      const after = ground((await rate(rateShipment())).rates);
      expect(after! > before!).toBe(true);
    } finally {
      t.clock.set(today);
    }
  });

  it("refuses a bad body every time it is sent, however often the same text comes", async () => {
    const post = (payload: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/v2/rates",
        headers: { ...merchant.auth, "content-type": "application/json" },
        payload,
      });
    const noName = JSON.stringify(rateShipment({ to_location: { ...SALT_LAKE_RESIDENCE, first_name: undefined } }));
    const poisoned = JSON.stringify(rateShipment()).replace("{", '{"__proto__":{"admin":true},');
    for (const [payload, status, code] of [
      ['{"shipment": ', 400, "request.malformed_body"],
      ["", 400, "request.invalid"],
      [poisoned, 400, "request.malformed_body"],
      [noName, 400, "request.invalid"],
      [JSON.stringify(rateShipment({ parcels: "x".repeat(1_100_000) })), 413, "request.too_large"],
    ] as const) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await post(payload);
        expect(response.statusCode, payload.slice(0, 40)).toBe(status);
        expect(response.json()).toMatchObject({ status: "error", error_code: code });
      }
    }
    expect((await post(JSON.stringify(rateShipment()))).statusCode).toBe(201);
  });

  it("offers FedEx Home Delivery to a residence and FedEx Ground to a business, never both", async () => {
    const home = (await rate(rateShipment())).rates.map((r) => r.service_code);
    expect(home).toContain("fedex_ground_home");
    expect(home).not.toContain("fedex_ground");
    const business = (
      await rate(
        rateShipment({ to_location: { ...SALT_LAKE_RESIDENCE, company: "Utah Widgets", address2: "Ste 400" } }),
      )
    ).rates.map((r) => r.service_code);
    expect(business).toContain("fedex_ground");
    expect(business).not.toContain("fedex_ground_home");
  });

  it("adds the residential surcharge for UPS to a residence and not to a business", async () => {
    const upsGround = async (to: object) =>
      (await rate(rateShipment({ to_location: to, include_services: [666] }))).rates[0]!;
    const home = await upsGround(SALT_LAKE_RESIDENCE);
    const office = await upsGround({ ...SALT_LAKE_RESIDENCE, company: "Utah Widgets" });
    expect(home.shipping_cost_details.map((l) => l.type)).toContain("residential");
    expect(office.shipping_cost_details.map((l) => l.type)).not.toContain("residential");
    expect(home.rate!).toBeGreaterThan(office.rate!);
  });

  it("filters by include_services (integers or numeric strings), include_carriers and exclude_carriers", async () => {
    const byService = await rate(rateShipment({ include_services: [1172, "686"] }));
    expect(byService.rates.map((r) => r.service_id).sort((a, b) => a - b)).toEqual([686, 1172]);
    const byCarrier = await rate(rateShipment({ include_carriers: ["ups"] }));
    expect(new Set(byCarrier.rates.map((r) => r.carrier_code))).toEqual(new Set(["ups"]));
    const excluded = await rate(rateShipment({ exclude_carriers: ["usps", "dhl_ecommerce"] }));
    expect(excluded.rates.some((r) => r.carrier_code === "usps" || r.carrier_code === "dhl_ecommerce")).toBe(false);
    expect(excluded.rates.length).toBeGreaterThan(0);
  });

  it("leaves out services the parcel does not fit, unless asked for by id: then it says why", async () => {
    const heavy = { length: 12, width: 12, height: 12, weight: 71 * 16 };
    const all = await rate(rateShipment({ parcels: [heavy] }));
    expect(all.rates.map((r) => r.service_id)).not.toContain(1172);
    const asked = await rate(rateShipment({ parcels: [heavy], include_services: [1172] }));
    expect(asked.rates).toHaveLength(1);
    expect(asked.rates[0]).toMatchObject({ service_id: 1172, rate: null });
    expect(asked.rates[0]!.errors).toMatch(/Weight exceeds 70 lb limit/);
  });

  it("prices flat-rate packaging regardless of weight and zone", async () => {
    const flat = async (weight: number, postal_code: string, city: string, state: string) =>
      (
        await rate(
          rateShipment({
            to_location: { ...SALT_LAKE_RESIDENCE, postal_code, city, state },
            parcels: [{ length: 12, width: 3, height: 10, weight, package_type: "flat_rate_envelope" }],
            include_services: [684],
          }),
        )
      ).rates[0]!;
    const near = await flat(8, "90036", "Los Angeles", "CA");
    const far = await flat(60, "10001", "New York", "NY");
    expect(near.rate).toBe(far.rate);
    expect(near.package_type).toBe("flat_rate_envelope");
  });

  it("prices FedEx One Rate for 393 with fedex_pak", async () => {
    const { rates } = await rate(
      rateShipment({
        parcels: [{ length: 12, width: 15, height: 2, weight: 32, package_type: "fedex_pak" }],
        include_services: [393],
      }),
    );
    expect(rates).toHaveLength(1);
    expect(rates[0]).toMatchObject({ service_id: 393, package_type: "fedex_pak", errors: null });
    expect(rates[0]!.rate).toBeGreaterThan(0);
  });

  it("rates international destinations with international services only", async () => {
    const { rates } = await rate(
      rateShipment({
        to_location: TORONTO_RESIDENCE,
      }),
    );
    expect(rates.length).toBeGreaterThan(0);
    const international = new Set(ALL_SERVICES.filter((s) => s.scope === "international").map((s) => s.serviceId));
    expect(rates.filter((r) => !international.has(r.service_id))).toEqual([]);
    expect(rates.map((r) => r.carrier_code)).toContain("dhl_express");
  });

  it("turns a failing carrier into a warning while the others still answer", async () => {
    const { response, rates, body } = await rate(
      rateShipment({ to_location: { ...SALT_LAKE_RESIDENCE, address2: "sandbox-fault:fed_ex" } }),
    );
    expect(response.statusCode).toBe(201);
    expect(body.warnings).toEqual(["FedEx returned error: Service temporarily unavailable (sandbox fault)"]);
    expect(rates.some((r) => r.carrier_code === "fed_ex")).toBe(false);
    expect(rates.some((r) => r.carrier_code === "usps")).toBe(true);
  });

  it("warns about an unknown destination ZIP instead of failing", async () => {
    const { response, body } = await rate(
      rateShipment({ to_location: { ...SALT_LAKE_RESIDENCE, postal_code: "00000" }, include_carriers: ["usps"] }),
    );
    expect(response.statusCode).toBe(201);
    expect(body.warnings).toEqual(["USPS returned error: Postal code 00000 missing or invalid"]);
  });

  it("warns when the operator marked a carrier's rate API offline, and rates through it when degraded", async () => {
    await setCarrierApiStatus(t.services, "ups", "rate", "offline", "maintenance until 06:00 UTC");
    const offline = await rate(rateShipment());
    expect(offline.body.warnings).toEqual(["UPS rate service is offline: maintenance until 06:00 UTC"]);
    expect(offline.rates.some((r) => r.carrier_code === "ups")).toBe(false);
    await setCarrierApiStatus(t.services, "ups", "rate", "degraded", null);
    const degraded = await rate(rateShipment());
    expect(degraded.body.warnings).toEqual(["UPS rate service is degraded"]);
    expect(degraded.rates.some((r) => r.carrier_code === "ups")).toBe(true);
    await setCarrierApiStatus(t.services, "ups", "rate", "online", null);
  });

  it("refuses malformed shipments with 400 naming the field", async () => {
    const cases: [object, RegExp][] = [
      [rateShipment({ parcels: [] }), /shipment\.parcels/],
      [rateShipment({ parcels: [{ length: 1, width: 1, height: 1, weight: 0 }] }), /shipment\.parcels\[0\]\.weight/],
      [
        rateShipment({ to_location: { ...SALT_LAKE_RESIDENCE, first_name: undefined } }),
        /shipment\.to_location needs first_name or company/,
      ],
      [rateShipment({ to_location: { ...SALT_LAKE_RESIDENCE, state: "Utah" } }), /shipment\.to_location\.state/],
      [
        rateShipment({ from_location: { ...LOS_ANGELES_WAREHOUSE, country: "USA" } }),
        /shipment\.from_location\.country/,
      ],
      [rateShipment({ include_services: ["ground"] }), /shipment\.include_services\[0\]/],
      [{ shipment: { parcels: [] } }, /shipment\.to_location is required/],
    ];
    for (const [body, message] of cases) {
      const { response } = await rate(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error_code).toBe("request.invalid");
      expect(response.json().error_message).toMatch(message);
    }
  });

  it("rates a parcel that has only its weight by weight alone, and warns so", async () => {
    const weightOnly = await rate(rateShipment({ parcels: [{ weight: 24 }] }));
    expect(weightOnly.response.statusCode, weightOnly.response.body).toBe(201);
    expect(weightOnly.body.warnings).toEqual([
      "Parcel 1 has no length, width and height: rated by weight only (no dimensional weight or size surcharges).",
    ]);
    // The same prices as a box too small for any dimensional weight to count.
    const tiny = await rate(rateShipment({ parcels: [{ length: 2, width: 2, height: 2, weight: 24 }] }));
    const priceOf = (rates: ServiceRate[]) => Object.fromEntries(rates.map((r) => [r.service_id, r.rate]));
    expect(weightOnly.rates.length).toBeGreaterThan(5);
    expect(priceOf(weightOnly.rates)).toEqual(priceOf(tiny.rates));
    // A big light box pays for its size; the same weight without sides does not.
    const big = await rate(rateShipment({ parcels: [{ length: 24, width: 20, height: 20, weight: 24 }] }));
    const upsOf = (rates: ServiceRate[]) => rates.find((r) => r.carrier_code === "ups" && r.rate !== null)!;
    const upsService = upsOf(weightOnly.rates).service_id;
    const bigUps = big.rates.find((r) => r.service_id === upsService)!;
    expect(bigUps.rate!).toBeGreaterThan(upsOf(weightOnly.rates).rate!);
    expect(upsOf(weightOnly.rates).billable_weight).toBe(32);
  });

  it("warns once per parcel without sides, and refuses packaging priced by size alone", async () => {
    const softpackService = ALL_SERVICES.find((s) => s.packageTypes.some((p) => p.type === "softpack"))!;
    const { response, rates, body } = await rate(
      rateShipment({
        parcels: [{ weight: 10, package_type: "softpack" }],
        include_services: [softpackService.serviceId],
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(body.warnings).toHaveLength(1);
    expect(rates).toHaveLength(1);
    expect(rates[0]).toMatchObject({ rate: null, errors: expect.stringContaining("send length, width and height") });
    const two = await rate(rateShipment({ parcels: [{ weight: 10 }, { ...SMALL_BOX }, { weight: 4, length: 3 }] }));
    expect(two.body.warnings.map((w: string) => w.slice(0, 9))).toEqual(["Parcel 1 ", "Parcel 3 "]);
  });

  it("rates addresses without a phone number", async () => {
    const { phone: _to, ...toNoPhone } = SALT_LAKE_RESIDENCE;
    const { phone: _from, ...fromNoPhone } = LOS_ANGELES_WAREHOUSE;
    const { response, rates } = await rate(rateShipment({ to_location: toNoPhone, from_location: fromNoPhone }));
    expect(response.statusCode, response.body).toBe(201);
    expect(rates.find((r) => r.service_id === 1172)?.rate).toEqual(expect.any(Number));
  });

  it("rates only the account's own connected carriers: none connected, no rates", async () => {
    const { response, rates } = await rate(rateShipment(), bare.auth);
    expect(response.statusCode).toBe(201);
    expect(rates).toEqual([]);
  });

  it("works in the child form with the child's own carriers", async () => {
    const before = await rate(rateShipment(), merchant.auth, `/api/v2/customers/${child.accountId}/rates`);
    expect(before.response.statusCode).toBe(201);
    expect(before.rates).toEqual([]);
    await t.app.inject({
      method: "POST",
      url: `/api/v2/customers/${child.accountId}/carrier_accounts`,
      headers: merchant.auth,
      payload: { carrier_account: { carrier_code: "usps" } },
    });
    const after = await rate(rateShipment(), merchant.auth, `/api/v2/customers/${child.accountId}/rates`);
    expect(new Set(after.rates.map((r) => r.carrier_code))).toEqual(new Set(["usps"]));
    const stranger = await rate(rateShipment(), bare.auth, `/api/v2/customers/${child.accountId}/rates`);
    expect(stranger.response.statusCode).toBe(404);
  });

  it("uses the connections of the key's mode only", async () => {
    const production = { authorization: `Bearer ${bare.keys.production}` };
    await t.app.inject({
      method: "POST",
      url: "/api/v2/carrier_accounts",
      headers: production,
      payload: { carrier_account: { carrier_code: "ups" } },
    });
    expect((await rate(rateShipment(), production)).rates.length).toBeGreaterThan(0);
    expect((await rate(rateShipment(), bare.auth)).rates).toEqual([]);
  });
});
