import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { rateShipment, SMALL_BOX, shipmentToBuy } from "../helpers/shipments.js";

const GROUND_ADVANTAGE = 1172;
const UPS_GROUND = 666;
const DHL_ECOMMERCE_GROUND = 1043;

interface RateDetail {
  cost_type: string;
  description: string;
  rate: number;
}
interface ServiceRate {
  service_id: number;
  rate: number | null;
  rate_details: RateDetail[] | null;
  shipping_cost_details: { type: string; description: string; amount: number }[];
  errors: string | null;
}

const insuredBox = (amount: number | string) => ({ ...SMALL_BOX, service_options: { insurance: { amount } } });
const cents = (dollars: number) => Math.round(dollars * 100);

describe("insured value: the carrier's own coverage as a cost line of its own", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await fundMeter(t.services, merchant);
    await connectSandboxCarriers(t.services, merchant.accountId);
  });
  afterAll(() => t.close());

  const rates = async (parcel: object, extra: Record<string, unknown> = {}) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/rates",
      headers: merchant.auth,
      payload: rateShipment({ parcels: [parcel], ...extra }),
    });
    expect(response.statusCode).toBe(201);
    return response.json().service_rates as ServiceRate[];
  };
  const ship = (body: object) =>
    t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: merchant.auth,
      payload: { shipment: body },
    });

  it("adds the coverage's price to the rate, as an `insurance` line in both breakdowns", async () => {
    const plain = await rates(SMALL_BOX);
    const insured = await rates(insuredBox(250));
    for (const [serviceId, price, product] of [
      // Ground Advantage includes 100.00: 2.75 for the first step beyond it, 1.60 for each further 100.00 or part.
      [GROUND_ADVANTAGE, 5.95, "USPS Insurance"],
      [UPS_GROUND, 7.75, "UPS Declared Value"],
    ] as const) {
      const before = plain.find((r) => r.service_id === serviceId)!;
      const after = insured.find((r) => r.service_id === serviceId)!;
      expect(before.rate_details!.some((line) => line.cost_type === "insurance")).toBe(false);
      expect(after.rate_details).toContainEqual({ cost_type: "insurance", description: product, rate: price });
      expect(after.shipping_cost_details).toContainEqual({ type: "insurance", description: product, amount: price });
      expect(cents(after.rate!)).toBe(cents(before.rate!) + cents(price));
      // Every other line is as it was: fuel is not charged on coverage.
      expect(after.rate_details!.filter((line) => line.cost_type !== "insurance")).toEqual(before.rate_details);
    }
  });

  it("charges nothing for value the service already includes, but still shows the line", async () => {
    const ground = (await rates(insuredBox("100.00"))).find((r) => r.service_id === GROUND_ADVANTAGE)!;
    expect(ground.rate_details).toContainEqual({ cost_type: "insurance", description: "USPS Insurance", rate: 0 });
  });

  it("refuses a service whose carrier cannot cover the amount, naming the limit, when asked for it", async () => {
    const answered = await rates(insuredBox(5000.01), { include_services: [GROUND_ADVANTAGE, UPS_GROUND] });
    expect(answered.find((r) => r.service_id === GROUND_ADVANTAGE)).toMatchObject({
      rate: null,
      errors: "USPS Insurance covers at most 5,000.00 per parcel; asked 5,000.01",
    });
    expect(answered.find((r) => r.service_id === UPS_GROUND)?.rate).toBeGreaterThan(0);
  });

  it("buys the coverage with the label: the parcel's and the shipment's breakdowns show it and the meter pays it", async () => {
    const response = await ship(shipmentToBuy({ parcels: [insuredBox(250)] }));
    expect(response.statusCode).toBe(201);
    const { shipment } = response.json();
    const line = { cost_type: "insurance", description: "USPS Insurance", rate: 5.95 };
    expect(shipment.shipping_cost_details).toContainEqual(line);
    expect(shipment.parcels[0].shipping_cost_details).toContainEqual(line);
    expect(shipment.parcels[0].service_options).toEqual({ insurance: { amount: 250 } });
    const total = shipment.shipping_cost_details.reduce((sum: number, l: RateDetail) => sum + cents(l.rate), 0);
    expect(cents(shipment.shipping_service.rate)).toBe(total);
    expect(cents(shipment.payment.amount)).toBe(total);
  });

  it("answers 422 with the error body above the carrier's limit, and buys nothing", async () => {
    const response = await ship(shipmentToBuy({ parcels: [insuredBox(5000.01)] }));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      status: "error",
      error_code: "shipment.insurance_unavailable",
      error_message:
        "shipment.parcels[0].service_options.insurance: USPS Insurance covers at most 5,000.00 per parcel; asked 5,000.01.",
    });
    expect((await ship(shipmentToBuy({ parcels: [insuredBox(5000)] }))).statusCode).toBe(201);
  });

  it("answers 422 for a carrier that sells no coverage", async () => {
    const response = await ship(shipmentToBuy({ service_id: DHL_ECOMMERCE_GROUND, parcels: [insuredBox(50)] }));
    expect(response.statusCode).toBe(422);
    expect(response.json().error_code).toBe("shipment.insurance_unavailable");
  });

  it("refuses a fraction of a cent, naming the parcel's field", async () => {
    const response = await ship(shipmentToBuy({ parcels: [insuredBox(250.005)] }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      status: "error",
      error_code: "request.invalid",
      error_message:
        "shipment.parcels[0].service_options.insurance.amount must be in whole cents (at most two decimals).",
    });
  });

  it("refuses an amount that is not money", async () => {
    for (const amount of [0, -5, "1e3", "twelve"]) {
      const response = await ship(shipmentToBuy({ parcels: [insuredBox(amount as number)] }));
      expect(response.statusCode, String(amount)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, String(amount)).toBeLessThan(500);
      expect(response.json().status).toBe("error");
    }
  });
});
