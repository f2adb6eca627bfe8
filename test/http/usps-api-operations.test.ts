import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_TRACKING_READ_MS } from "../../src/domain/tracking/refresh-tracking.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { rateShipment, shipmentToBuy, TORONTO_RESIDENCE } from "../helpers/shipments.js";
import { STAND_IN_USPS_CREDENTIALS, UspsStandIn } from "../stand-ins/usps/usps-stand-in.js";
import { readPdf } from "../unit/labels/label-tools.js";

const CLIENT_SECRET = STAND_IN_USPS_CREDENTIALS.client_secret;
const REAL_USPS = { carrier_code: "usps", credentials: STAND_IN_USPS_CREDENTIALS };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface TrackingEventOut {
  code: string;
  status: string;
  description: string;
  city: string | null;
}

describe("a real USPS connection's labels, voids, tracking, addresses, pickups, SCAN forms and international rates (against the USPS stand-in)", () => {
  let standIn: UspsStandIn;
  let t: TestApp;
  let worker: Worker;

  beforeAll(async () => {
    standIn = await new UspsStandIn({ clientId: "porter-test-app", clientSecret: CLIENT_SECRET }).start();
    t = await buildTestApp({
      config: { uspsApiBaseUrl: standIn.baseUrl, carrierApiTimeoutMs: 2000, manifestDelayMs: 60_000 },
    });
    standIn.clock = t.clock;
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
  });
  afterAll(async () => {
    await t.close();
    await standIn.stop();
  });

  const post = (url: string, payload: object, auth: TestAccount["auth"]) =>
    t.app.inject({ method: "POST", url, headers: auth, payload });
  const get = (url: string, auth: TestAccount["auth"]) => t.app.inject({ method: "GET", url, headers: auth });

  /** A new account with the real USPS connected in test mode. Each has its own call budgets. */
  async function connectedAccount(): Promise<TestAccount> {
    const account = await createTestAccount(t.services);
    const connected = await post("/api/v2/carrier_accounts", { carrier_account: REAL_USPS }, account.auth);
    expect(connected.statusCode, connected.body).toBe(201);
    return account;
  }

  async function buy(account: TestAccount, overrides: Record<string, unknown> = {}) {
    const response = await post(
      "/api/v2/shipments/ship",
      { shipment: shipmentToBuy({ label_format: "zpl", label_size: "4x6", ...overrides }) },
      account.auth,
    );
    expect(response.statusCode, response.body).toBe(201);
    return response.json().shipment;
  }

  const labelCalls = () => standIn.requests.filter((r) => r.path === "/labels/v3/label" && r.method === "POST");

  describe("labels", () => {
    it("buys the label from USPS with the payment token, and stores the file USPS made", async () => {
      const account = await connectedAccount();
      const paymentsBefore = standIn.callsTo("payments");
      const shipment = await buy(account);
      const trackingNumber = shipment.parcels[0].tracking_number as string;
      expect(standIn.labels.get(trackingNumber)?.status).toBe("active");
      expect(standIn.callsTo("payments")).toBe(paymentsBefore + 1);
      const payment = standIn.requests.findLast((r) => r.path === "/payments/v3/payment-authorization");
      expect(payment?.body).toMatchObject({
        roles: [
          { roleName: "PAYER", CRID: "56982563", accountType: "EPS", accountNumber: "1000405525" },
          { roleName: "LABEL_OWNER", CRID: "56982563", MID: "903476223", manifestMID: "903476223" },
        ],
      });
      const call = labelCalls().at(-1);
      expect(call?.paymentToken).toMatch(/^pat\./);
      expect(call?.body).toMatchObject({
        imageInfo: { imageType: "ZPL203DPI", labelType: "4X6LABEL" },
        packageDescription: {
          mailClass: "USPS_GROUND_ADVANTAGE",
          rateIndicator: "SP",
          mailingDate: shipment.ship_date,
        },
        toAddress: { ZIPCode: "84111", firstName: "Ann", lastName: "Lee" },
      });
      // What USPS charged: the stand-in's 2 lb × $5.20 + zone 2 × $0.35.
      expect(shipment.shipping_service.rate).toBe(11.1);
      expect(shipment.parcels[0].postage_label).toMatchObject({ dims: "4x6", resolution: 203 });
      const file = await t.app.inject({
        method: "GET",
        url: new URL(shipment.parcels[0].postage_label.image_url).pathname,
      });
      expect(file.statusCode).toBe(200);
      expect(file.body).toBe(`^XA^FO50,50^BCN,100,Y,N,N^FD${trackingNumber}^FS^XZ\n`);
    });

    it("reuses the payment token for its eight hours, asking once however many labels want it at once", async () => {
      const account = await connectedAccount();
      const paymentsBefore = standIn.callsTo("payments");
      await Promise.all([buy(account), buy(account), buy(account)]);
      expect(standIn.callsTo("payments")).toBe(paymentsBefore + 1);
      t.clock.advance(4 * HOUR);
      await buy(account);
      expect(standIn.callsTo("payments")).toBe(paymentsBefore + 1);
      t.clock.advance(4 * HOUR);
      await buy(account);
      expect(standIn.callsTo("payments")).toBe(paymentsBefore + 2);
    });

    it("renews a payment token USPS stopped accepting, once, and buys", async () => {
      const account = await connectedAccount();
      await buy(account);
      standIn.revokePaymentTokens();
      const paymentsBefore = standIn.callsTo("payments");
      await buy(account);
      expect(standIn.callsTo("payments")).toBe(paymentsBefore + 1);
    });

    it("refuses a label size USPS does not make, naming those it does, without buying", async () => {
      const account = await connectedAccount();
      const before = labelCalls().length;
      const response = await post(
        "/api/v2/shipments/ship",
        { shipment: shipmentToBuy({ label_format: "pdf", label_size: "8.5x11" }) },
        account.auth,
      );
      expect(response.statusCode).toBe(422);
      expect(response.json().error_message).toContain("4x6");
      expect(labelCalls().length).toBe(before);
    });

    it("answers USPS's refusal of a label in its words, and a connection without a payer cannot buy", async () => {
      const account = await createTestAccount(t.services);
      const { crid: _crid, ...withoutCrid } = REAL_USPS.credentials;
      expect(
        (
          await post(
            "/api/v2/carrier_accounts",
            { carrier_account: { ...REAL_USPS, credentials: withoutCrid } },
            account.auth,
          )
        ).statusCode,
      ).toBe(201);
      const response = await post("/api/v2/shipments/ship", { shipment: shipmentToBuy() }, account.auth);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error_code: "carrier.rejected" });
      expect(response.json().error_message).toMatch(/crid and mid/);
    });

    it("answers a USPS that fails the label call with a 503 in its words, and charges nothing", async () => {
      const account = await connectedAccount();
      await buy(account);
      // The label call and its one retry under the same idempotency key both fail.
      standIn.fail("500", { operation: "labels", times: 2 });
      const response = await post("/api/v2/shipments/ship", { shipment: shipmentToBuy() }, account.auth);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ error_code: "carrier.unavailable" });
      expect(response.json().error_message).toContain("Internal Server Error");
      const failed = await t.services.db
        .selectFrom("shipments")
        .select("id")
        .where("account_id", "=", account.accountId)
        .where("status", "=", "failed")
        .executeTakeFirstOrThrow();
      const entries = await t.services.db
        .selectFrom("meter_entries")
        .select("amount_cents")
        .where("shipment_id", "=", failed.id)
        .execute();
      expect(entries.reduce((sum, entry) => sum + entry.amount_cents, 0)).toBe(0);
    });

    it("buys one label when USPS sold it but its answer was lost: the retry carries the same idempotency key", async () => {
      const account = await connectedAccount();
      const before = labelCalls().length;
      const labelsBefore = standIn.labels.size;
      standIn.fail("sold-then-500", { operation: "labels" });
      const response = await post("/api/v2/shipments/ship", { shipment: shipmentToBuy() }, account.auth);
      expect(response.statusCode, response.body).toBe(201);
      const calls = labelCalls().slice(before);
      expect(calls.map((call) => call.idempotencyKey)).toEqual([calls[0]?.idempotencyKey, calls[0]?.idempotencyKey]);
      expect(standIn.labels.size).toBe(labelsBefore + 1);
      expect(standIn.labels.has(response.json().shipment.parcels[0].tracking_number)).toBe(true);
    });

    it("answers a cancel whose void USPS fails with a 500 as a 503, the label kept", async () => {
      const account = await connectedAccount();
      const shipment = await buy(account);
      const trackingNumber = shipment.parcels[0].tracking_number as string;
      standIn.fail("500", { operation: "labels" });
      const response = await t.app.inject({
        method: "PUT",
        url: `/api/v2/shipments/${shipment.id}/cancel`,
        headers: account.auth,
      });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers["retry-after"]).toBe("30");
      expect(response.json()).toMatchObject({ error_code: "carrier.unavailable" });
      expect(standIn.labels.get(trackingNumber)?.status).not.toBe("canceled");
    });

    it("voids at USPS a label it sold when Porter cannot record the purchase", async () => {
      const account = await connectedAccount();
      const files = t.services.files;
      const put = files.put;
      files.put = async () => {
        throw new Error("the disk is full");
      };
      try {
        const response = await post("/api/v2/shipments/ship", { shipment: shipmentToBuy() }, account.auth);
        expect(response.statusCode).toBeGreaterThanOrEqual(500);
      } finally {
        files.put = put;
      }
      const sold = labelCalls().length;
      const trackingNumber = [...standIn.labels.keys()].at(-1) as string;
      expect(sold).toBeGreaterThan(0);
      expect(standIn.labels.get(trackingNumber)?.status).toBe("canceled");
      const failed = await t.services.db
        .selectFrom("shipments")
        .select(["status", "status_reason"])
        .where("account_id", "=", account.accountId)
        .executeTakeFirstOrThrow();
      expect(failed.status).toBe("failed");
      expect(failed.status_reason).toContain(trackingNumber);
    });
  });

  describe("the whole flow", () => {
    it("connects, rates, buys, tracks and voids through USPS", async () => {
      const account = await connectedAccount();
      const rated = await post("/api/v2/rates", rateShipment({ reference: "flow" }), account.auth);
      expect(rated.statusCode, rated.body).toBe(201);
      const ground = (rated.json().service_rates as { service_id: number; rate: number }[]).find(
        (r) => r.service_id === 1172,
      );
      expect(ground?.rate).toBe(11.1);

      const shipment = await buy(account);
      expect(shipment.shipping_service.rate).toBe(11.1);
      const trackingNumber = shipment.parcels[0].tracking_number as string;
      // The first tracking read comes a minute after purchase, the last moment a test label can be voided.
      t.clock.advance(FIRST_TRACKING_READ_MS);
      await worker.drain();
      const read = (await get(`/api/v2/shipments/${shipment.id}`, account.auth)).json().shipment;
      const events = read.parcels[0].tracking_info.tracking_events as TrackingEventOut[];
      expect(events).toEqual([
        expect.objectContaining({ code: "GX", description: "Shipping Label Created, USPS Awaiting Item" }),
      ]);
      expect(
        standIn.requests.some(
          (r) => r.path === `/tracking/v3/tracking/${trackingNumber}` && r.query.get("expand") === "DETAIL",
        ),
      ).toBe(true);

      const cancelled = await t.app.inject({
        method: "PUT",
        url: `/api/v2/shipments/${shipment.id}/cancel`,
        headers: account.auth,
      });
      expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);
      expect(standIn.labels.get(trackingNumber)?.status).toBe("canceled");
    });

    it("does not let the sandbox's advance control move a real USPS parcel", async () => {
      const account = await connectedAccount();
      const shipment = await buy(account);
      const advanced = await post(`/api/v2/sandbox/shipments/${shipment.id}/advance`, {}, account.auth);
      expect(advanced.statusCode, advanced.body).toBe(422);
      expect(advanced.json()).toMatchObject({ status: "error", error_code: "sandbox.real_carrier" });
      expect(advanced.json().error_message).toContain("real USPS connection");
    });

    it("follows a USPS parcel to delivery through the tracking job", async () => {
      const account = await connectedAccount();
      const shipment = await buy(account);
      const trackingNumber = shipment.parcels[0].tracking_number as string;
      const now = t.clock.now().getTime();
      const scans = [
        ["03", "USPS in possession of item", "LOS ANGELES", "CA", "90035"],
        ["OF", "Out for Delivery", "SALT LAKE CITY", "UT", "84111"],
        ["01", "Delivered, Front Door/Porch", "SALT LAKE CITY", "UT", "84111"],
      ] as const;
      for (const [index, [eventCode, eventType, city, state, ZIP]] of scans.entries()) {
        standIn.scan(trackingNumber, {
          eventCode,
          eventType,
          at: new Date(now + (index + 1) * MINUTE),
          city,
          state,
          ZIP,
        });
      }
      t.clock.advance(10 * MINUTE);
      await worker.drain();
      const read = (await get(`/api/v2/shipments/${shipment.id}`, account.auth)).json().shipment;
      const events = read.parcels[0].tracking_info.tracking_events as TrackingEventOut[];
      expect(events.map((e) => e.code).sort()).toEqual(["01", "03", "GX", "OF"]);
      expect(events.find((e) => e.code === "01")).toMatchObject({ city: "SALT LAKE CITY" });
      expect(read.status).toBe("delivered");
    });
  });

  describe("address validation", () => {
    it("answers validate_address with USPS's standardized address", async () => {
      const account = await connectedAccount();
      const before = standIn.callsTo("addresses");
      const response = await get(
        "/api/v2/shipping/validate_address?address1=220+South+State+Street&city=Salt+Lake+City&state=UT&postal_code=84111&country=US",
        account.auth,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().validate_address).toMatchObject({
        is_valid: true,
        has_update: true,
        address: { address1: "220 S STATE ST", city: "SALT LAKE CITY", postal_code: "84111-1234" },
      });
      expect(standIn.callsTo("addresses")).toBe(before + 1);
    });

    it("says an address USPS cannot find is invalid, in USPS's words", async () => {
      const account = await connectedAccount();
      const response = await get(
        "/api/v2/shipping/validate_address?address1=1+Nowhere+Lane&city=Salt+Lake+City&state=UT&postal_code=84111&country=US",
        account.auth,
      );
      expect(response.json().validate_address.is_valid).toBe(false);
      expect(JSON.stringify(response.json().validate_address.messages)).toContain(
        "There is no match for the address requested.",
      );
    });
  });

  describe("pickups and SCAN forms", () => {
    it("books a USPS carrier pickup for the account's shipments, and cancels it with the pickup's ETag", async () => {
      const account = await connectedAccount();
      const shipment = await buy(account);
      const booked = await post("/api/v2/pickups", { pickup: { shipment_ids: [shipment.id] } }, account.auth);
      expect(booked.statusCode, booked.body).toBe(201);
      const pickup = booked.json().pickup;
      const atUsps = standIn.pickups.get(pickup.confirmation_number ?? pickup.external_id);
      expect(atUsps?.request).toMatchObject({
        pickupAddress: { firm: "Acme Fulfillment", contact: [{ cellNumber: "3105550100" }] },
        packages: [{ packageCount: 1 }],
      });
      const removed = await t.app.inject({
        method: "DELETE",
        url: `/api/v2/pickups/${pickup.id}`,
        headers: account.auth,
      });
      expect(removed.statusCode, removed.body).toBeLessThan(300);
      expect(atUsps?.cancelled).toBe(true);
    });

    it("files a SCAN form with USPS for a batch and keeps its EFN and USPS's own form", async () => {
      const account = await connectedAccount();
      // USPS's label and form are PDFs with object streams and a cross-reference stream, as USPS writes them.
      const shipment = await buy(account, { label_format: "pdf" });
      const created = await post(
        "/api/v2/shipments/batches",
        { shipment_ids: [shipment.id], include_merged: true },
        account.auth,
      );
      expect(created.statusCode, created.body).toBe(201);
      t.clock.advance(61_000);
      await worker.drain();
      const trackingNumber = shipment.parcels[0].tracking_number as string;
      const efn = standIn.labels.get(trackingNumber)?.manifestNumber;
      expect(efn).toMatch(/^9275011/);
      const batchId = JSON.stringify(created.json()).match(/"id":"?(\d+)/)?.[1];
      const batch = await get(`/api/v2/shipments/batches/${batchId}`, account.auth);
      expect(batch.statusCode, batch.body).toBe(200);
      expect(batch.body).toContain(efn as string);
      const form = await get(new URL(batch.json().bol_url).pathname, account.auth);
      expect(form.statusCode).toBe(200);
      expect(form.headers["content-type"]).toBe("application/pdf");
      expect(form.rawPayload.toString("latin1")).toContain(`/Title (USPS SCAN Form ${efn})`);
      const merged = await get(new URL(created.json().merged_docs).pathname, account.auth);
      expect(merged.statusCode).toBe(200);
      const reading = readPdf(merged.rawPayload);
      expect(reading.warnings).toEqual([]);
      expect(reading.pageCount).toBe(2);
      expect(reading.text).toContain(`USPS SCAN Form ${efn}`);
      expect(reading.text).toContain(`USPS stand-in label ${trackingNumber}`);
      const filing = standIn.requests.findLast((r) => r.path === "/scan-forms/v3/scan-form");
      expect(filing?.body).toMatchObject({
        entryFacilityZIPCode: "90035",
        shipment: { trackingNumbers: [trackingNumber] },
        fromAddress: { firm: "Acme Fulfillment", ZIPCode: "90035" },
      });
    });
  });

  describe("international labels", () => {
    it("buys a Priority Mail International label with the customs form USPS prints from the parcel's items, and voids it", async () => {
      const account = await connectedAccount();
      const item = {
        name: "Wool sweater",
        description: "Knitted wool sweater",
        quantity: 2,
        weight: 8,
        price: 20,
        country_of_origin: "US",
        customs_data: { content_type: "merchandise", hs_tariff_code: "6110.11", eel_pfc: "NOEEI 30.37(a)" },
      };
      const shipment = await buy(account, {
        to_location: TORONTO_RESIDENCE,
        service_id: 691,
        label_format: "pdf",
        parcels: [{ length: 10, width: 8, height: 4, weight: 24, parcel_items: [item] }],
      });
      const trackingNumber = shipment.parcels[0].tracking_number as string;
      expect(trackingNumber).toMatch(/^CP\d{9}US$/);
      const call = standIn.requests.findLast((r) => r.path === "/international-labels/v3/international-label");
      expect(call?.body).toMatchObject({
        toAddress: { country: "Canada", countryISOAlpha2Code: "CA", postalCode: "M5H 2N2", province: "ON" },
        packageDescription: { mailClass: "PRIORITY_MAIL_INTERNATIONAL" },
        customsForm: {
          customsContentType: "MERCHANDISE",
          AESITN: "NOEEI 30.37(a)",
          contents: [{ itemDescription: expect.any(String), itemQuantity: 2, countryofOrigin: "US" }],
        },
      });
      const cancelled = await t.app.inject({
        method: "PUT",
        url: `/api/v2/shipments/${shipment.id}/cancel`,
        headers: account.auth,
      });
      expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);
      expect(standIn.labels.get(trackingNumber)?.status).toBe("canceled");
    });
  });

  describe("international rates", () => {
    it("rates USPS's international services through International Prices", async () => {
      const account = await connectedAccount();
      const before = standIn.callsTo("international-prices");
      const response = await post("/api/v2/rates", rateShipment({ to_location: TORONTO_RESIDENCE }), account.auth);
      expect(response.statusCode, response.body).toBe(201);
      const rates = response.json().service_rates as {
        service_id: number;
        carrier_code: string;
        rate: number | null;
      }[];
      // The stand-in's table: 2 lb × $32.00 + price group 1 × $1.50.
      expect(rates.find((r) => r.service_id === 691)?.rate).toBe(65.5);
      expect(standIn.callsTo("international-prices")).toBeGreaterThan(before);
      const query = standIn.requests.findLast((r) => r.path === "/international-prices/v3/base-rates/search");
      expect(query?.body).toMatchObject({ destinationCountryCode: "CA", foreignPostalCode: "M5H 2N2" });
    });
  });
});
