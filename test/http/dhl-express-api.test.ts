import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { realCarrierCalls } from "../helpers/real-carrier-calls.js";
import {
  itRefusesRejectedCredentials,
  itWarnsWhenRatingFails,
  type RealCarrier,
} from "../helpers/real-carrier-tests.js";
import { LOS_ANGELES_WAREHOUSE, SMALL_BOX, T_SHIRT, TORONTO_RESIDENCE } from "../helpers/shipments.js";
import { DhlExpressStandIn } from "../stand-ins/dhl-express/dhl-express-stand-in.js";

const API_SECRET = "dhl-s3cr3t-value";
const ACCOUNT = { apiKey: "porter-dhl-key", apiSecret: API_SECRET, accountNumber: "123456789" };
const REAL_DHL = {
  carrier_code: "dhl_express",
  credentials: { api_key: ACCOUNT.apiKey, api_secret: API_SECRET, account_number: ACCOUNT.accountNumber },
};
const DHL: RealCarrier = { name: "DHL Express", account: REAL_DHL, secret: API_SECRET, beside: "ups" };
const EXPRESS_WORLDWIDE = 300;
const MINUTE = 60_000;

describe("a real DHL Express connection (against the MyDHL API stand-in)", () => {
  let standIn: DhlExpressStandIn;
  let t: TestApp;
  let merchant: TestAccount;
  let worker: Worker;

  beforeAll(async () => {
    standIn = await new DhlExpressStandIn(ACCOUNT).start();
    t = await buildTestApp({ config: { dhlExpressApiBaseUrl: standIn.baseUrl, carrierApiTimeoutMs: 5000 } });
    merchant = await createTestAccount(t.services);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
  });
  afterAll(async () => {
    await t.close();
    await standIn.stop();
  });

  const calls = realCarrierCalls(
    () => t,
    () => merchant,
    { to_location: TORONTO_RESIDENCE },
  );
  const { post, get, connect, rate } = calls;
  const buy = (overrides: Record<string, unknown> = {}) =>
    calls.buy({
      service_id: EXPRESS_WORLDWIDE,
      to_location: TORONTO_RESIDENCE,
      parcels: [{ ...SMALL_BOX, parcel_items: [T_SHIRT] }],
      label_format: "zpl",
      label_size: "4x6",
      ...overrides,
    });
  const read = (id: number) => get(`/api/v2/shipments/${id}`);

  it("refuses credentials without the account number, naming what is missing", async () => {
    const response = await connect({ carrier_code: "dhl_express", credentials: { api_key: "k", api_secret: "s" } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ status: "error", error_code: "carrier_account.credentials_invalid" });
    expect(response.json().error_message).toContain("account_number");
  });

  itRefusesRejectedCredentials(() => t, calls, DHL, { api_secret: "wrong" }, "Invalid Credentials");

  it("connects once DHL accepts the key and secret; the credentials stay sealed and are never returned", async () => {
    const response = await connect(REAL_DHL);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().carrier_account).toMatchObject({
      carrier_code: "dhl_express",
      mode: "test",
      has_credentials: true,
    });
    expect(standIn.lastRequest("address-validate")?.authorization).toMatch(/^Basic /);
    expect(response.body).not.toContain(API_SECRET);
    const stored = await t.services.db.selectFrom("carrier_accounts").selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(API_SECRET);
    expect((await connect({ carrier_code: "ups" })).statusCode).toBe(201);
  });

  it("rates DHL Express through MyDHL API beside the sandbox carriers, with DHL's breakdown and date", async () => {
    const { response, rates, warnings } = await rate();
    expect(response.statusCode, response.body).toBe(201);
    expect(warnings).toEqual([]);
    const worldwide = rates.find((r) => r.service_id === EXPRESS_WORLDWIDE)!;
    // The stand-in's table: 3 lb billed (volumetric), $61.50 + 2 × $6.40, plus 27.5 % fuel.
    expect(worldwide).toMatchObject({ carrier_code: "dhl_express", rate: 94.73, errors: null });
    expect(worldwide.rate_details?.map((d) => [d.cost_type, d.rate])).toEqual([
      ["std", 74.3],
      ["fuel", 20.43],
    ]);
    // DHL's estimate: the stand-in's Express Worldwide takes three days from the planned hand-over.
    expect(worldwide.delivery_date).toBe("2026-01-18");
    expect(rates.some((r) => r.carrier_code === "ups" && r.rate !== null)).toBe(true);
  });

  itWarnsWhenRatingFails(
    calls,
    DHL,
    (fault) => standIn.fail(fault, { operation: "rates", times: 5 }),
    () => standIn.clearFaults(),
  );

  it("refuses a label format DHL does not make, naming the ones it does", async () => {
    const response = await buy({ label_format: "png" });
    expect(response.statusCode).toBe(422);
    expect(response.json().error_code).toBe("shipment.label_format_unavailable");
    expect(response.json().error_message).toContain("pdf, zpl, epl2");
  });

  it("buys a waybill with DHL's own ZPL label and declares the goods; tracking then reads DHL; cancelling asks nothing of DHL", async () => {
    const shipmentsBefore = standIn.callsTo("shipments");
    const response = await buy();
    expect(response.statusCode, response.body).toBe(201);
    expect(standIn.callsTo("shipments")).toBe(shipmentsBefore + 1);
    const shipment = response.json().shipment;
    const waybill = shipment.parcels[0].tracking_number as string;
    expect(waybill).toMatch(/^\d{10}$/);
    expect(shipment.shipping_service).toMatchObject({ rate: 94.73 });
    const postageLabel = shipment.parcels[0].postage_label;
    expect(postageLabel).toMatchObject({ file_format: "zpl", dims: "4x6", resolution: 300 });
    const label = await t.app.inject({ method: "GET", url: new URL(postageLabel.image_url).pathname });
    expect(label.body).toContain(`DHL ${waybill} 1`);
    expect(standIn.lastRequest("shipments")?.body).toMatchObject({
      productCode: "P",
      content: {
        isCustomsDeclarable: true,
        declaredValue: 25,
        exportDeclaration: { lineItems: [{ description: "Cotton T-shirt", price: 12.5, quantity: { value: 2 } }] },
      },
    });

    const invoice = await t.app.inject({
      method: "GET",
      url: `/api/v2/shipments/${shipment.id}/customs_form`,
      headers: merchant.auth,
    });
    expect(invoice.statusCode).toBe(200);
    expect(invoice.headers["content-type"]).toBe("application/pdf");
    expect(invoice.body).toContain(`commercial invoice ${waybill}`);

    standIn.addEvent(waybill, { typeCode: "PU", description: "Shipment picked up" });
    t.clock.advance(2 * MINUTE);
    await worker.drain();
    const tracked = (await read(shipment.id)).json().shipment;
    expect(tracked.parcels[0].tracking_info.tracking_events.map((e: { code: string }) => e.code)).toEqual(["PU"]);

    const another = (await buy()).json().shipment;
    const before = standIn.requests.length;
    const cancelled = await t.app.inject({
      method: "PUT",
      url: `/api/v2/shipments/${another.id}/cancel`,
      headers: merchant.auth,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().shipment.status).toBe("cancel_pending");
    expect(standIn.requests.slice(before).filter((r) => r.operation !== "tracking")).toEqual([]);
  });

  it("asks DHL for a waybill once when DHL answers 503, and answers the outage without buying again", async () => {
    const before = standIn.callsTo("shipments");
    standIn.fail("503", { operation: "shipments" });
    const response = await buy();
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toMatchObject({ status: "error", error_code: "carrier.unavailable" });
    expect(response.headers["retry-after"]).toBeDefined();
    expect(standIn.callsTo("shipments")).toBe(before + 1);
  });

  describe("pickups", () => {
    const remove = (id: number, auth = merchant.auth) =>
      t.app.inject({ method: "DELETE", url: `/api/v2/pickups/${id}`, headers: auth });

    it("books a DHL Express courier for the waybill in the shipper's local time, and cancels it at DHL", async () => {
      t.clock.set("2026-01-15T15:00:00.000Z");
      const bought = await buy();
      expect(bought.statusCode, bought.body).toBe(201);
      const shipment = bought.json().shipment;
      const tooFar = await post("/api/v2/pickups/availability", {
        location: LOS_ANGELES_WAREHOUSE,
        pickup_date: "2026-01-30",
        carrier_code: "dhl_express",
      });
      expect(tooFar.json()).toMatchObject({ available: false });
      expect(tooFar.json().reason).toContain("up to 10 days ahead");

      const booked = await post("/api/v2/pickups", {
        pickup: { shipment_ids: [shipment.id], pickup_date: "2026-01-16", location_detail: "reception" },
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const pickup = booked.json().pickup;
      expect(pickup).toMatchObject({ carrier_code: "dhl_express", package_count: 1 });
      expect(pickup.external_id).toMatch(/^PRG\d{12}$/);
      const atDhl = standIn.pickups.get(pickup.external_id);
      expect(atDhl?.request).toMatchObject({
        // Los Angeles in January: Pacific Standard Time.
        plannedPickupDateAndTime: "2026-01-16T09:00:00GMT-08:00",
        closeTime: "17:00",
        location: "reception",
        locationType: "business",
        accounts: [{ typeCode: "shipper", number: ACCOUNT.accountNumber }],
        customerDetails: {
          shipperDetails: { contactInformation: { companyName: "Acme Fulfillment", phone: "3105550100" } },
        },
        shipmentDetails: [
          {
            productCode: "P",
            isCustomsDeclarable: true,
            unitOfMeasurement: "imperial",
            shipmentTrackingNumber: shipment.parcels[0].tracking_number,
          },
        ],
      });
      expect(standIn.lastRequest("pickups")?.version).toBe("3.1.0");

      const other = await createTestAccount(t.services);
      expect((await remove(pickup.id, other.auth)).statusCode).toBe(404);
      expect(atDhl?.cancelled).toBe(false);
      const cancelled = await remove(pickup.id);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(atDhl?.cancelled).toBe(true);
      expect(standIn.lastRequest("pickup-cancel")?.query.get("requestorName")).toBe("Acme Fulfillment");
    });

    it("answers DHL's refusal as a 422 in DHL's words", async () => {
      t.clock.set("2026-01-15T15:00:00.000Z");
      const id = (await buy()).json().shipment.id;
      standIn.pickupsAllowed = false;
      const refused = await post("/api/v2/pickups", { pickup: { shipment_ids: [id], pickup_date: "2026-01-16" } });
      standIn.pickupsAllowed = true;
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ error_code: "carrier.rejected" });
      expect(refused.json().error_message).toContain("8003: Account not allowed for this service.");
    });
  });
});
