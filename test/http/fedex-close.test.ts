import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/carriers/sandbox/carrier-calendar.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX } from "../helpers/shipments.js";
import { FedexStandIn } from "../stand-ins/fedex/fedex-stand-in.js";
import { rasterisePdf, readPdf, scanRaster } from "../unit/labels/label-tools.js";

const CLIENT_SECRET = "fedex-close-s3cr3t";
const ACCOUNT_NUMBER = "740561073";
const REAL_FEDEX = {
  carrier_code: "fed_ex",
  credentials: { client_id: "l7xx-porter-close", client_secret: CLIENT_SECRET, account_number: ACCOUNT_NUMBER },
};
const GROUND = 392;
const HOME_DELIVERY = 402;
const EXPRESS_SAVER = 395;
const DELAY_MS = 60_000;
const HOUR = 3_600_000;

describe("FedEx Ground end-of-day close through a real FedEx connection (against the FedEx stand-in)", () => {
  let standIn: FedexStandIn;
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let sandboxed: TestAccount;
  let worker: Worker;

  beforeAll(async () => {
    standIn = await new FedexStandIn({
      clientId: "l7xx-porter-close",
      clientSecret: CLIENT_SECRET,
      accountNumber: ACCOUNT_NUMBER,
    }).start();
    t = await buildTestApp({
      config: { fedexApiBaseUrl: standIn.baseUrl, carrierApiTimeoutMs: 5000, manifestDelayMs: DELAY_MS },
    });
    merchant = await createTestAccount(t.services);
    other = await createTestAccount(t.services);
    sandboxed = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, sandboxed.accountId);
    for (const account of [merchant, other]) {
      const connected = await post("/api/v2/carrier_accounts", { carrier_account: REAL_FEDEX }, account.auth);
      expect(connected.statusCode, connected.body).toBe(201);
    }
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
  });
  afterAll(async () => {
    await t.close();
    await standIn.stop();
  });

  const get = (url: string, auth = merchant.auth) => t.app.inject({ method: "GET", url, headers: auth });
  const post = (url: string, payload: object, auth = merchant.auth) =>
    t.app.inject({ method: "POST", url, headers: auth, payload });
  const file = async (url: string) => (await t.app.inject({ method: "GET", url: new URL(url).pathname })).rawPayload;
  const generate = async (wait = DELAY_MS) => {
    t.clock.advance(wait);
    await worker.drain();
  };
  async function ship(
    service_id: number,
    parcels: object[] = [SMALL_BOX],
    auth = merchant.auth,
    extra: Record<string, unknown> = {},
  ): Promise<{ id: number; ship_date: string; trackingNumbers: string[] }> {
    const response = await post(
      "/api/v2/shipments/ship",
      {
        shipment: {
          service_id,
          label_format: "pdf",
          label_size: "4x6",
          to_location: service_id === GROUND ? { ...SALT_LAKE_RESIDENCE, company: "Lee Dental" } : SALT_LAKE_RESIDENCE,
          from_location: LOS_ANGELES_WAREHOUSE,
          parcels,
          ...extra,
        },
      },
      auth,
    );
    expect(response.statusCode, response.body).toBe(201);
    const shipment = response.json().shipment;
    return {
      id: shipment.id,
      ship_date: shipment.ship_date,
      trackingNumbers: shipment.parcels.map((p: { tracking_number: string }) => p.tracking_number),
    };
  }

  it("closes the day's Ground and Home Delivery shipments at FedEx and stores the manifest FedEx returns", async () => {
    const home = await ship(HOME_DELIVERY, [SMALL_BOX, SMALL_BOX]);
    const ground = await ship(GROUND);
    const created = await post("/api/v2/shipments/batches", { shipments_ids: [home.id, ground.id] });
    expect(created.statusCode, created.body).toBe(201);
    const [batch] = created.json().shipments_batches;
    expect(created.json().shipments_batches).toHaveLength(1);
    expect(batch).toMatchObject({ status: "pending", carrier_code: "fed_ex", shipments_ids: [home.id, ground.id] });
    const closesBefore = standIn.callsTo("close");

    await generate();
    expect(standIn.callsTo("close")).toBe(closesBefore + 1);
    // FedEx closes by ship date: the shipments' own, as Porter sent it to FedEx when buying.
    expect(standIn.lastBody("close")).toMatchObject({
      closeReqType: "GCDR",
      groundServiceCategory: "GROUND",
      accountNumber: { value: ACCOUNT_NUMBER },
      closeDate: home.ship_date,
      closeDocumentSpecification: { closeDocumentTypes: ["MANIFEST"] },
    });
    const done = (await get(`/api/v2/shipments/batches/${batch.id}`)).json();
    expect(done).toMatchObject({ status: "generated", errors: null });
    expect(done.tracking_number).toMatch(new RegExp(`^${home.ship_date.replaceAll("-", "")}\\d{4}$`));
    const { text, warnings } = readPdf(await file(done.bol_url));
    expect(warnings).toEqual([]);
    expect(text).toContain(`FEDEX GROUND MANIFEST ${done.tracking_number}`);
    for (const number of [...home.trackingNumbers, ...ground.trackingNumbers]) expect(text).toContain(number);
    for (const { trackingNumbers } of [home, ground]) {
      expect(standIn.shipments.get(trackingNumbers[0] as string)?.closed).toBe(true);
    }
    const shipment = (await get(`/api/v2/shipments/${home.id}`)).json().shipment;
    expect(shipment.status).toBe("manifested");
    expect(shipment.parcels.every((p: { status: string }) => p.status === "manifested")).toBe(true);
  });

  it("draws Porter's own close document when FedEx answers its manifest as printer text", async () => {
    standIn.closeManifest = "printer";
    try {
      const home = await ship(HOME_DELIVERY);
      const [batch] = (await post("/api/v2/shipments/batches", { shipments_ids: [home.id] })).json().shipments_batches;
      await generate();
      const done = (await get(`/api/v2/shipments/batches/${batch.id}`)).json();
      expect(done.status).toBe("generated");
      const pdf = await file(done.bol_url);
      const { text, warnings } = readPdf(pdf);
      expect(warnings).toEqual([]);
      expect(text).toContain("FedEx Ground – End-of-Day Close");
      expect(text).toContain(`Shipping cycle: ${done.tracking_number}`);
      expect(text).toContain(`${home.trackingNumbers[0]}   FedEx Home Delivery`);
      expect(text).toContain("TEST DOCUMENT – NOT VALID FOR MAILING");
      expect(await scanRaster(rasterisePdf(pdf, 300, 0))).toEqual([
        { symbology: "Code 128", text: `${done.tracking_number}-1` },
      ]);
    } finally {
      standIn.closeManifest = "pdf";
    }
  });

  it("refuses an Express shipment: FedEx closes Ground only, Express needs no close", async () => {
    const express = await ship(EXPRESS_SAVER);
    const home = await ship(HOME_DELIVERY);
    const refused = await post("/api/v2/shipments/batches", { shipments_ids: [home.id, express.id] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ status: "error", error_code: "batch.shipment_ineligible" });
    expect(refused.json().error_message).toContain(`shipment ${express.id}: FedEx's end-of-day close is for`);
    expect(refused.json().error_message).toContain("Express shipments need no close");
    expect(refused.json().error_message).not.toContain(`shipment ${home.id}`);
    expect((await get(`/api/v2/shipments/${home.id}`)).json().shipment.batch_id).toBeNull();
  });

  it("closes one ship date at a time: the batch is dated its shipments' ship date", async () => {
    const today = await ship(HOME_DELIVERY);
    const later = addDays(today.ship_date, 3);
    const ahead = await ship(HOME_DELIVERY, [SMALL_BOX], merchant.auth, { ship_date: later });
    expect(ahead.ship_date).toBe(later);
    const mixed = await post("/api/v2/shipments/batches", { shipments_ids: [today.id, ahead.id] });
    expect(mixed.statusCode).toBe(422);
    expect(mixed.json().error_message).toContain(
      `shipment ${ahead.id}: its ship date is ${later}, and FedEx closes one ship date at a time (this close is for ${today.ship_date})`,
    );
    const [batch] = (await post("/api/v2/shipments/batches", { shipments_ids: [ahead.id] })).json().shipments_batches;
    await generate();
    expect(standIn.lastBody("close")).toMatchObject({ closeDate: later });
    expect((await get(`/api/v2/shipments/batches/${batch.id}`)).json().status).toBe("generated");
    expect(standIn.shipments.get(today.trackingNumbers[0] as string)?.closed).toBe(false);
  });

  it("daily batches close the Ground and Home Delivery shipments of the date and leave Express out", async () => {
    const day = addDays(t.clock.now().toISOString().slice(0, 10), 5);
    const on = (service: number) => ship(service, [SMALL_BOX], merchant.auth, { ship_date: day });
    const home = await on(HOME_DELIVERY);
    const ground = await on(GROUND);
    const express = await on(EXPRESS_SAVER);
    const response = await post("/api/v2/shipments/batches/daily", { shipment_date: day });
    expect(response.statusCode, response.body).toBe(201);
    const batches = response.json().shipments_batches as {
      id: string;
      carrier_code: string;
      shipments_ids: number[];
    }[];
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ carrier_code: "fed_ex", shipments_ids: [home.id, ground.id] });
    await generate();
    expect(standIn.lastBody("close")).toMatchObject({ closeDate: day });
    expect((await get(`/api/v2/shipments/${express.id}`)).json().shipment).toMatchObject({
      status: "shipped",
      batch_id: null,
    });
    expect((await post("/api/v2/shipments/batches/daily", { shipment_date: day })).json().shipments_batches).toEqual(
      [],
    );
  });

  it("takes every open Ground and Home Delivery shipment of the connection and date, named or not, and no other account's", async () => {
    const day = addDays(t.clock.now().toISOString().slice(0, 10), 7);
    const on = (service: number, auth = merchant.auth) => ship(service, [SMALL_BOX], auth, { ship_date: day });
    const named = await on(HOME_DELIVERY);
    const unnamed = await on(GROUND);
    const express = await on(EXPRESS_SAVER);
    const elsewhere = await ship(HOME_DELIVERY, [SMALL_BOX], merchant.auth, { ship_date: addDays(day, 1) });
    const theirs = await on(HOME_DELIVERY, other.auth);
    const created = await post("/api/v2/shipments/batches", { shipments_ids: [named.id] });
    expect(created.statusCode, created.body).toBe(201);
    const [batch] = created.json().shipments_batches;
    expect(batch.shipments_ids).toEqual([named.id, unnamed.id]);
    // Bought for the same date after the batch was made: FedEx's close takes it as well.
    const late = await on(HOME_DELIVERY);

    await generate();
    expect(standIn.lastBody("close")).toMatchObject({ closeDate: day });
    const done = (await get(`/api/v2/shipments/batches/${batch.id}`)).json();
    expect(done).toMatchObject({ status: "generated", shipments_ids: [named.id, unnamed.id, late.id] });
    const { text } = readPdf(await file(done.bol_url));
    for (const { trackingNumbers } of [named, unnamed, late]) expect(text).toContain(trackingNumbers[0]);
    for (const { id } of [named, unnamed, late]) {
      expect((await get(`/api/v2/shipments/${id}`)).json().shipment).toMatchObject({
        status: "manifested",
        batch_id: Number(batch.id),
      });
    }
    for (const { id } of [express, elsewhere]) {
      expect((await get(`/api/v2/shipments/${id}`)).json().shipment).toMatchObject({
        status: "shipped",
        batch_id: null,
      });
    }
    expect((await get(`/api/v2/shipments/${theirs.id}`, other.auth)).json().shipment).toMatchObject({
      status: "shipped",
      batch_id: null,
    });

    const again = await post("/api/v2/shipments/batches", { shipments_ids: [unnamed.id] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: "error", error_code: "batch.already_batched" });
  });

  it("records FedEx's 'nothing to close' once and does not retry it", async () => {
    // Both accounts connect the same FedEx account: closing one's day closed the other's at FedEx.
    const day = addDays(t.clock.now().toISOString().slice(0, 10), 9);
    const mine = await ship(HOME_DELIVERY, [SMALL_BOX], merchant.auth, { ship_date: day });
    const theirs = await ship(HOME_DELIVERY, [SMALL_BOX], other.auth, { ship_date: day });
    await post("/api/v2/shipments/batches", { shipments_ids: [mine.id] });
    await generate();
    expect(standIn.shipments.get(theirs.trackingNumbers[0] as string)?.closed).toBe(true);
    const created = await post("/api/v2/shipments/batches", { shipments_ids: [theirs.id] }, other.auth);
    expect(created.statusCode, created.body).toBe(201);
    const [batch] = created.json().shipments_batches;
    const closesBefore = standIn.callsTo("close");

    await generate();
    expect(standIn.callsTo("close")).toBe(closesBefore + 1);
    const refused = (await get(`/api/v2/shipments/batches/${batch.id}`, other.auth)).json();
    expect(refused).toMatchObject({ status: "refused", bol_url: null, shipments_ids: [] });
    expect(refused.errors).toContain(`FedEx refused the close of ${day}`);
    expect(refused.errors).toContain("No Ground shipments to close for this date");
    expect(refused.errors).toContain("not retried");
    expect((await get(`/api/v2/shipments/${theirs.id}`, other.auth)).json().shipment).toMatchObject({
      status: "shipped",
      batch_id: null,
    });
    for (const wait of [HOUR, 24 * HOUR]) await generate(wait);
    expect(standIn.callsTo("close")).toBe(closesBefore + 1);
    expect((await get(`/api/v2/shipments/${mine.id}`)).json().shipment.status).toBe("manifested");
  });

  it("keeps the batch pending with FedEx's words while the close fails, and closes once FedEx answers", async () => {
    const home = await ship(HOME_DELIVERY);
    const [batch] = (await post("/api/v2/shipments/batches", { shipments_ids: [home.id] })).json().shipments_batches;
    standIn.fail("500", { operation: "close", times: 1 });
    await generate();
    const failing = (await get(`/api/v2/shipments/batches/${batch.id}`)).json();
    expect(failing).toMatchObject({ status: "pending", bol_url: null });
    expect(failing.errors).toMatch(/FedEx/);
    expect(failing.errors).toContain("retried");
    expect((await get(`/api/v2/shipments/${home.id}`)).json().shipment.status).toBe("shipped");

    await generate(HOUR);
    expect((await get(`/api/v2/shipments/batches/${batch.id}`)).json()).toMatchObject({
      status: "generated",
      errors: null,
    });
    expect((await get(`/api/v2/shipments/${home.id}`)).json().shipment.status).toBe("manifested");
  });

  it("keeps tenants apart: another account can neither close a shipment of this one nor see its batch", async () => {
    const home = await ship(HOME_DELIVERY);
    const [batch] = (await post("/api/v2/shipments/batches", { shipments_ids: [home.id] })).json().shipments_batches;
    const theirs = await post("/api/v2/shipments/batches", { shipments_ids: [home.id] }, other.auth);
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json()).toMatchObject({ status: "error", error_code: "batch.shipment_unavailable" });
    expect(theirs.json().error_message).toContain(`shipment ${home.id} is not a shipment of this account`);
    const seen = await get(`/api/v2/shipments/batches/${batch.id}`, other.auth);
    expect(seen.statusCode).toBe(404);
    expect(seen.json().error_code).toBe("batch.not_found");
    const today = t.clock.now().toISOString().slice(0, 10);
    const listed = async (auth: TestAccount["auth"]) =>
      (
        (await get(`/api/v2/shipments/batches?date_from=${today}&date_to=${today}`, auth)).json().shipments_batches as {
          id: string;
        }[]
      ).map((b) => b.id);
    expect(await listed(merchant.auth)).toContain(batch.id);
    expect(await listed(other.auth)).not.toContain(batch.id);
    await generate();
    expect((await get(`/api/v2/shipments/batches/${batch.id}`)).json().status).toBe("generated");
  });

  it("refuses a close through the sandbox FedEx, naming what it needs", async () => {
    const sandboxHome = await ship(HOME_DELIVERY, [SMALL_BOX], sandboxed.auth);
    const refused = await post("/api/v2/shipments/batches", { shipments_ids: [sandboxHome.id] }, sandboxed.auth);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ status: "error", error_code: "batch.carrier_not_supported" });
    expect(refused.json().error_message).toContain("only through a real FedEx connection");
  });
});
