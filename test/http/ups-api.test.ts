import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { refuseShipmentStatuses } from "../helpers/failures.js";
import { realCarrierSuite } from "../helpers/real-carrier-calls.js";
import {
  itConnectsWithAToken,
  itRefusesRejectedCredentials,
  itWarnsWhenRatingFails,
  type RealCarrier,
} from "../helpers/real-carrier-tests.js";
import { LOS_ANGELES_WAREHOUSE, SMALL_BOX, shipmentToBuy, T_SHIRT, TORONTO_RESIDENCE } from "../helpers/shipments.js";
import { UpsStandIn } from "../stand-ins/ups/ups-stand-in.js";
import { scanImage, scanPdf } from "../unit/labels/label-tools.js";

const CLIENT_SECRET = "ups-s3cr3t-value";
const REAL_UPS = {
  carrier_code: "ups",
  credentials: { client_id: "porter-ups-app", client_secret: CLIENT_SECRET, shipper_number: "A1B2C3" },
};
const UPS: RealCarrier = { name: "UPS", account: REAL_UPS, secret: CLIENT_SECRET, beside: "usps" };
const UPS_GROUND = 666;
const MINUTE = 60_000;

describe("a real UPS connection (against the UPS stand-in)", () => {
  let standIn: UpsStandIn;
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let worker: Worker;

  beforeAll(async () => {
    standIn = await new UpsStandIn({
      clientId: "porter-ups-app",
      clientSecret: CLIENT_SECRET,
      shipperNumber: "A1B2C3",
    }).start();
    t = await buildTestApp({ config: { upsApiBaseUrl: standIn.baseUrl, carrierApiTimeoutMs: 5000 } });
    standIn.now = () => t.clock.now();
    merchant = await createTestAccount(t.services);
    other = await createTestAccount(t.services);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
  });
  const calls = realCarrierSuite(
    () => t,
    () => merchant,
    () => standIn,
  );
  const { post, get, connect, rate } = calls;
  const buy = (overrides: Record<string, unknown> = {}) =>
    post("/api/v2/shipments/ship", {
      shipment: shipmentToBuy({ service_id: UPS_GROUND, label_format: "zpl", ...overrides }),
    });

  describe("connecting", () => {
    it("refuses credentials without the OAuth secret or shipper number, naming what is missing", async () => {
      const half = await connect({ carrier_code: "ups", credentials: { client_id: "porter-ups-app" } });
      expect(half.statusCode).toBe(422);
      expect(half.json()).toMatchObject({ status: "error", error_code: "carrier_account.credentials_invalid" });
      expect(half.json().error_message).toContain("client_secret");
      const noShipper = await connect({
        carrier_code: "ups",
        credentials: { client_id: "porter-ups-app", client_secret: CLIENT_SECRET },
      });
      expect(noShipper.json().error_message).toContain("shipper_number");
    });

    itRefusesRejectedCredentials(() => t, calls, UPS, { client_secret: "wrong" }, "ClientId is Invalid");

    itConnectsWithAToken(
      () => t,
      calls,
      UPS,
      () => standIn.callsTo("token"),
    );
  });

  describe("rating", () => {
    it("rates UPS through Rating Shop beside the sandbox carriers, with UPS's breakdown and zone", async () => {
      const before = standIn.callsTo("rating");
      const { response, rates, warnings } = await rate();
      expect(response.statusCode, response.body).toBe(201);
      expect(warnings).toEqual([]);
      expect(standIn.callsTo("rating")).toBe(before + 1);
      const ground = rates.find((r) => r.service_id === UPS_GROUND)!;
      // The stand-in's table for 2 lb in zone 3: $9.00 + $1.10 + 3 × $0.40 = $11.30, fuel 18 % = $2.03, residential $5.75.
      expect(ground).toMatchObject({ carrier_code: "ups", rate: 19.08, zone: "03", errors: null });
      expect(ground.rate_details).toEqual([
        expect.objectContaining({ cost_type: "std", rate: 11.3 }),
        expect.objectContaining({ cost_type: "residential", rate: 5.75 }),
        expect.objectContaining({ cost_type: "fuel", rate: 2.03 }),
      ]);
      expect(rates.some((r) => r.carrier_code === "usps" && r.rate !== null)).toBe(true);
      // UPS's time in transit from today's pickup (a Thursday): two business days for Ground, not the catalogue's five.
      expect(standIn.lastRequest("rating")!.path).toBe("/api/rating/v2409/Shoptimeintransit");
      expect(ground).toMatchObject({ delivery_days: 2, delivery_date: "2026-01-19" });
    });

    it("keeps other accounts on their own connections", async () => {
      const before = standIn.callsTo("rating");
      expect((await rate(other.auth)).rates).toEqual([]);
      expect(standIn.callsTo("rating")).toBe(before);
    });

    itWarnsWhenRatingFails(
      calls,
      UPS,
      (fault) => standIn.fail(fault, { operation: "rating", times: 20 }),
      () => {
        standIn.clearFaults();
        t.clock.advance(MINUTE + 1000);
      },
    );

    it("shows a UPS rating API that keeps failing as degraded in GET /status until it answers again", async () => {
      const status = async () =>
        ((await get("/api/v2/status")).json().api_services as { api_service_code: string; status: string }[]).find(
          (row) => row.api_service_code === "ups_rate",
        );
      expect((await status())?.status).toBe("online");
      standIn.fail("500", { operation: "rating", times: 50 });
      for (let attempt = 0; attempt < 5; attempt++) expect((await rate()).warnings[0]).toMatch(/UPS/);
      expect((await status())?.status).toBe("degraded");
      standIn.clearFaults();
      t.clock.advance(MINUTE + 1000);
      expect((await rate()).warnings).toEqual([]);
      expect((await status())?.status).toBe("online");
    });
  });

  describe("labels, tracking and voids", () => {
    it("buys a UPS label: UPS's tracking number, its ZPL stored as is, and what UPS charged", async () => {
      const response = await buy();
      expect(response.statusCode, response.body).toBe(201);
      const shipment = response.json().shipment;
      expect(shipment.shipping_service).toMatchObject({ service_id: UPS_GROUND, carrier_code: "ups", rate: 19.08 });
      const [parcel] = shipment.parcels;
      expect(parcel.tracking_number).toMatch(/^1ZA1B2C303\d{8}$/);
      const file = await t.app.inject({ method: "GET", url: new URL(parcel.postage_label.image_url).pathname });
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe("application/zpl");
      expect(file.rawPayload.toString()).toBe(`^XA^FO50,50^BCN,120,Y,N,N^FD${parcel.tracking_number}^FS^XZ`);
      expect(standIn.lastRequest("ship")!.body).toMatchObject({
        ShipmentRequest: { Shipment: { Shipper: { ShipperNumber: "A1B2C3" }, Service: { Code: "03" } } },
      });
    });

    it("buys one tracking number per parcel, their costs adding up to UPS's total", async () => {
      const response = await buy({ parcels: [SMALL_BOX, { ...SMALL_BOX, weight: 40 }], label_format: "gif" });
      expect(response.statusCode, response.body).toBe(201);
      const shipment = response.json().shipment;
      const numbers = shipment.parcels.map((p: { tracking_number: string }) => p.tracking_number);
      expect(new Set(numbers).size).toBe(2);
      const total = shipment.parcels.reduce(
        (s: number, p: { shipping_cost: number }) => s + Math.round(p.shipping_cost * 100),
        0,
      );
      expect(total).toBe(Math.round(shipment.shipping_service.rate * 100));
    });

    it("refuses a label format UPS does not make, naming the ones it does, without calling UPS", async () => {
      const before = standIn.callsTo("ship");
      const response = await buy({ label_format: "tiff" });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ status: "error", error_code: "shipment.label_format_unavailable" });
      expect(response.json().error_message).toContain("gif, png, pdf, zpl, epl2");
      expect(standIn.callsTo("ship")).toBe(before);
    });

    /** Where the 1Z barcode lies on the upright 4x6 label: UPS's landscape GIF turned a quarter clockwise. */
    const UPRIGHT_BARCODE = { x: 1.5, y: 0.9, width: 2.1, height: 0.8 };

    it.each([
      ["png", "image/png", scanImage],
      ["pdf", "application/pdf", scanPdf],
    ] as const)(
      "sells a %s label made from UPS's GIF, its barcode upright and scanning",
      async (format, type, scan) => {
        const response = await buy({ label_format: format });
        expect(response.statusCode, response.body).toBe(201);
        const [parcel] = response.json().shipment.parcels;
        expect(parcel.postage_label).toMatchObject({ file_format: format });
        expect(standIn.lastRequest("ship")!.body).toMatchObject({
          ShipmentRequest: { LabelSpecification: { LabelImageFormat: { Code: "GIF" } } },
        });
        const file = await t.app.inject({ method: "GET", url: new URL(parcel.postage_label.image_url).pathname });
        expect(file.headers["content-type"]).toBe(type);
        expect(await scan(file.rawPayload, UPRIGHT_BARCODE)).toEqual([
          { symbology: "Code 128", text: parcel.tracking_number },
        ]);
      },
    );

    it("ships abroad with UPS's own commercial invoice as the shipment's customs form", async () => {
      const response = await buy({
        service_id: 668,
        to_location: TORONTO_RESIDENCE,
        parcels: [
          {
            ...SMALL_BOX,
            parcel_items: [T_SHIRT],
          },
        ],
      });
      expect(response.statusCode, response.body).toBe(201);
      const shipment = response.json().shipment;
      const invoice = await get(`/api/v2/shipments/${shipment.id}/customs_form`);
      expect(invoice.statusCode).toBe(200);
      expect(invoice.headers["content-type"]).toBe("application/pdf");
      expect(invoice.body).toContain(`UPS commercial invoice ${shipment.parcels[0].tracking_number}`);
    });

    it("refuses a label size UPS does not print, naming the ones it does", async () => {
      const response = await buy({ label_size: "8.5x11" });
      expect(response.statusCode).toBe(422);
      expect(response.json().error_message).toContain("4x6 or 4x8");
    });

    it("voids at UPS a label UPS sold but Porter could not record", async () => {
      const sold = standIn.shipments.size;
      const restore = await refuseShipmentStatuses(t.database.db, ["shipped"]);
      try {
        expect((await buy()).statusCode).toBe(503);
      } finally {
        await restore();
      }
      expect(standIn.shipments.size).toBe(sold + 1);
      expect([...standIn.shipments.values()].at(-1)?.voided).toBe(true);
      const failed = await t.services.db
        .selectFrom("shipments")
        .selectAll()
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      expect(failed.status).toBe("failed");
      expect(failed.status_reason).toMatch(/voided/);
    });

    it("tracks a UPS label through the refresh job, UPS's activities as Porter's events", async () => {
      const bought = (await buy()).json().shipment;
      const trackingNumber = bought.parcels[0].tracking_number as string;
      standIn.deliver(trackingNumber, t.clock.now(), 1);
      t.clock.advance(5 * 60 * MINUTE);
      await worker.drain();
      const read = (await get(`/api/v2/shipments/${bought.id}`)).json().shipment;
      const events = read.parcels[0].tracking_info.tracking_events as {
        code: string;
        secondary_code: string;
        status: string;
      }[];
      // Newest first, as eHub lists them.
      expect(events.map((e) => [e.code, e.secondary_code, e.status])).toEqual([
        ["D", "011", "delivered"],
        ["I", "021", "out_for_delivery"],
        ["I", "005", "in_transit"],
        ["P", "038", "in_transit"],
        ["M", "003", "pre_transit"],
      ]);
      expect(read.status).toBe("delivered");
      expect(standIn.lastRequest("track")!.path).toBe(`/api/track/v1/details/${trackingNumber}`);
    });

    it("voids a cancelled shipment's label at UPS", async () => {
      const bought = (await buy()).json().shipment;
      const cancel = await t.app.inject({
        method: "PUT",
        url: `/api/v2/shipments/${bought.id}/cancel`,
        headers: merchant.auth,
      });
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(standIn.isVoided(bought.parcels[0].tracking_number)).toBe(true);
    });
  });

  describe("address validation", () => {
    it("validates a US address through UPS XAV, with UPS's candidate and classification", async () => {
      const response = await get(
        "/api/v2/shipping/validate_address?address1=400+South+State+Street&city=Salt+Lake+City&state=UT&postal_code=84111&country=US",
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().validate_address).toMatchObject({
        is_valid: true,
        has_update: true,
        address: {
          address1: "400 SOUTH STATE ST",
          city: "SALT LAKE CITY",
          postal_code: "84111-1234",
          residential: true,
        },
      });
      expect(standIn.lastRequest("xav")!.path).toBe("/api/addressvalidation/v2/3");
    });

    it("says an address UPS cannot find is not valid", async () => {
      const response = await get(
        "/api/v2/shipping/validate_address?address1=1+Nowhere+Lane&city=Salt+Lake+City&state=UT&postal_code=84111&country=US",
      );
      expect(response.json().validate_address.is_valid).toBe(false);
    });
  });

  describe("pickups", () => {
    const remove = (id: number, auth = merchant.auth) =>
      t.app.inject({ method: "DELETE", url: `/api/v2/pickups/${id}`, headers: auth });

    it("books a UPS On-Call pickup for the UPS shipments, and cancels it at UPS by its PRN", async () => {
      t.clock.set("2026-01-15T15:00:00.000Z");
      const bought = await buy();
      expect(bought.statusCode, bought.body).toBe(201);
      const id = bought.json().shipment.id;
      const day = await post("/api/v2/pickups/availability", {
        location: LOS_ANGELES_WAREHOUSE,
        pickup_date: "2026-01-17",
        carrier_code: "ups",
      });
      expect(day.json()).toMatchObject({ available: false, pickup_date: "2026-01-19" });

      const booked = await post("/api/v2/pickups", {
        pickup: {
          shipment_ids: [id],
          pickup_date: "2026-01-16",
          location_detail: "Dock 4",
          special_instructions: "Ring",
        },
      });
      expect(booked.statusCode, booked.body).toBe(201);
      const pickup = booked.json().pickup;
      expect(pickup).toMatchObject({ carrier_code: "ups", status: "REQUESTED", package_count: 1, weight: 24 });
      const atUps = standIn.pickups.get(pickup.external_id);
      expect(atUps?.request).toMatchObject({
        PickupDateInfo: { PickupDate: "20260116", ReadyTime: "0900", CloseTime: "1700" },
        PickupAddress: { CompanyName: "Acme Fulfillment", CountryCode: "US", Phone: { Number: "3105550100" } },
        PickupPiece: [{ ServiceCode: "003", Quantity: "1", DestinationCountryCode: "US", ContainerCode: "01" }],
        Shipper: { Account: { AccountNumber: "A1B2C3", AccountCountryCode: "US" } },
        TotalWeight: { Weight: "1.5", UnitOfMeasurement: "LBS" },
        SpecialInstruction: "Dock 4. Ring",
      });

      // Another account sees nothing of it and cannot cancel it.
      expect((await get(`/api/v2/pickups/${pickup.id}`, other.auth)).statusCode).toBe(404);
      expect((await remove(pickup.id, other.auth)).json().error_code).toBe("pickup.not_found");
      expect(atUps?.cancelled).toBe(false);

      const cancelled = await remove(pickup.id);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json().pickup.status).toBe("CANCELLED");
      expect(atUps?.cancelled).toBe(true);
      expect(standIn.lastRequest("pickupCancel")).toMatchObject({
        path: "/api/shipments/v2409/pickup/02",
        headers: { prn: pickup.external_id },
      });
    });

    it("answers UPS's refusal as a 422 in UPS's words and its outage as a 503, and books nothing", async () => {
      t.clock.set("2026-01-15T15:00:00.000Z");
      const id = (await buy()).json().shipment.id;
      standIn.pickupLeadMinutes = 10 * 60;
      const before = standIn.pickups.size;
      const refused = await post("/api/v2/pickups", { pickup: { shipment_ids: [id], pickup_date: "2026-01-16" } });
      standIn.pickupLeadMinutes = 60;
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error_code).toBe("carrier.rejected");
      expect(refused.json().error_message).toContain("lead time UPS requires");
      standIn.fail("500", { operation: "pickup" });
      const down = await post("/api/v2/pickups", { pickup: { shipment_ids: [id], pickup_date: "2026-01-16" } });
      expect(down.statusCode).toBe(503);
      expect(down.headers["retry-after"]).toBe("30");
      expect(down.json().error_code).toBe("carrier.unavailable");
      expect(down.json().error_message).toContain("Internal Server Error");
      expect(standIn.pickups.size).toBe(before);
      expect((await get("/api/v2/pickups?pickup_date_start=2026-01-16")).json().pickups).toEqual([]);
    });
  });

  /**
   * A UPS that times out, fails with 5xx, or is not called because its breaker is open is
   * unavailable (503 with Retry-After), not a refusal of the request (422): on every path that
   * calls it.
   */
  describe("outages", () => {
    /** Each test starts with UPS answering and every breaker closed. */
    const recover = () => {
      standIn.clearFaults();
      standIn.retryAfterSeconds = 0;
      t.clock.advance(MINUTE + 1000);
    };
    afterEach(recover);
    const expectUnavailable = (response: Awaited<ReturnType<typeof buy>>, retryAfter: string) => {
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers["retry-after"]).toBe(retryAfter);
      expect(response.json()).toMatchObject({ status: "error", error_code: "carrier.unavailable" });
      expect(response.json().error_message).toMatch(/^UPS is unavailable/);
    };

    it("answers 503 to a connection whose token call UPS fails with a 500, and stores nothing", async () => {
      const account = await createTestAccount(t.services);
      standIn.fail("500", { operation: "token" });
      const response = await connect(REAL_UPS, account.auth);
      expectUnavailable(response, "30");
      const stored = t.services.db
        .selectFrom("carrier_accounts")
        .selectAll()
        .where("account_id", "=", account.accountId);
      expect(await stored.execute()).toEqual([]);
      expect((await connect(REAL_UPS, account.auth)).statusCode).toBe(201);
    });

    it("answers 503 to a purchase whose label call times out, the shipment recorded as failed", async () => {
      standIn.fail("timeout", { operation: "ship" });
      const response = await buy();
      expectUnavailable(response, "30");
      const failed = await t.services.db.selectFrom("shipments").selectAll().orderBy("id", "desc").executeTakeFirst();
      expect(failed?.status).toBe("failed");
    });

    it("answers a purchase with UPS's own Retry-After when UPS sends a longer one than Porter waits", async () => {
      standIn.retryAfterSeconds = 120;
      standIn.fail("503", { operation: "ship" });
      const response = await buy();
      expectUnavailable(response, "120");
    });

    it("answers 503 while the breaker is open, Retry-After counting down to when it lets a call through", async () => {
      standIn.fail("500", { operation: "rating", times: 5 });
      for (let attempt = 0; attempt < 5; attempt++) await rate();
      const ratingCalls = standIn.callsTo("rating");
      expectUnavailable(await buy(), "60");
      t.clock.advance(20_000);
      expectUnavailable(await buy(), "40");
      expect(standIn.callsTo("rating")).toBe(ratingCalls);
      recover();
      expect((await buy()).statusCode).toBe(201);
    });

    it("answers 503 to a cancel whose void UPS fails with a 500, and the shipment stays bought", async () => {
      const bought = (await buy()).json().shipment;
      standIn.fail("500", { operation: "void" });
      const response = await t.app.inject({
        method: "PUT",
        url: `/api/v2/shipments/${bought.id}/cancel`,
        headers: merchant.auth,
      });
      // A cancel's failure carries its sentence inside eHub's {"errors": [...]} document.
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers["retry-after"]).toBe("30");
      expect(response.json()).toMatchObject({ status: "error", error_code: "carrier.unavailable" });
      expect(JSON.parse(response.json().error_message).errors).toEqual([expect.stringMatching(/^UPS is unavailable/)]);
      expect(standIn.isVoided(bought.parcels[0].tracking_number)).toBe(false);
    });

    it("warns that UPS is unavailable when its rating times out, beside the other carriers' rates", async () => {
      standIn.fail("timeout", { operation: "rating" });
      const { response, warnings } = await rate();
      expect(response.statusCode).toBe(201);
      expect(warnings).toEqual([expect.stringMatching(/^UPS is unavailable: .*did not answer within \d+ ms/)]);
    });
  });
});
