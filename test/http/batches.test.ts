import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isValidImpb } from "../../src/carriers/usps/tracking-number.js";
import { setCarrierApiStatus } from "../../src/domain/carriers/service-status.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, SMALL_BOX, shipmentToBuy, TORONTO_RESIDENCE } from "../helpers/shipments.js";
import { readPdf } from "../unit/labels/label-tools.js";

const DELAY_MS = 60_000;
const CUSTOMS_ITEM = {
  name: "Wool sweater",
  description: "Knitted wool sweater",
  quantity: 1,
  weight: 8,
  price: 20,
  country_of_origin: "US",
  customs_data: { content_type: "merchandise", hs_tariff_code: "6110.11", eel_pfc: "NOEEI 30.37(a)" },
};

describe("batches: manifests of USPS and DHL eCommerce shipments", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let worker: Worker;
  const serviceIds: Record<string, number> = {};
  /** What the worker logged as a warning. */
  const warnings: unknown[] = [];

  beforeAll(async () => {
    t = await buildTestApp({ config: { manifestDelayMs: DELAY_MS } });
    merchant = await createTestAccount(t.services);
    await fundMeter(t.services, merchant);
    await connectSandboxCarriers(t.services, merchant.accountId);
    other = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, other.accountId);
    worker = new Worker(
      t.services.jobs,
      jobHandlers(t.services, { warn: (details: unknown) => warnings.push(details) }),
      {
        leaseMs: 30_000,
        pollMs: 10,
      },
    );
    for (const carrier of ["usps", "ups", "dhl_ecommerce"]) {
      const services = (await get(`/api/v2/services?carrier_code=${carrier}`)).json().services as {
        service_id: number;
        service_code: string;
      }[];
      for (const s of services) serviceIds[s.service_code] = s.service_id;
    }
  });
  afterAll(() => t.close());

  const get = (url: string, auth = merchant.auth) => t.app.inject({ method: "GET", url, headers: auth });
  const post = (url: string, payload: object, auth = merchant.auth) =>
    t.app.inject({ method: "POST", url, headers: auth, payload });
  const file = (url: string) => t.app.inject({ method: "GET", url: new URL(url).pathname });

  async function ship(overrides: Record<string, unknown> = {}, auth = merchant.auth): Promise<number> {
    const response = await post("/api/v2/shipments/ship", { shipment: shipmentToBuy(overrides) }, auth);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().shipment.id;
  }
  const shipAbroad = () =>
    ship({
      to_location: TORONTO_RESIDENCE,
      service_id: serviceIds.usps_intl_priority,
      parcels: [{ ...SMALL_BOX, parcel_items: [CUSTOMS_ITEM] }],
    });
  const generate = async () => {
    t.clock.advance(DELAY_MS);
    await worker.drain();
  };

  it("makes one batch per document, pending until the carrier's delay has passed, then a SCAN form", async () => {
    const domestic = [await ship(), await ship({ service_id: serviceIds.usps_priority })];
    const abroad = await shipAbroad();
    const created = await post("/api/v2/shipments/batches", { shipments_ids: [...domestic, abroad] });
    expect(created.statusCode, created.body).toBe(201);
    const [home, international] = created.json().shipments_batches;
    expect(created.json().merged_docs).toBeNull();
    expect(home).toMatchObject({
      bol_url: null,
      tracking_number: null,
      errors: null,
      status: "pending",
      carrier_code: "usps",
      shipments_ids: domestic,
    });
    expect(typeof home.id).toBe("string");
    expect(international.shipments_ids).toEqual([abroad]);

    // Not before the carrier would have answered.
    t.clock.advance(DELAY_MS - 1);
    await worker.drain();
    expect((await get(`/api/v2/shipments/batches/${home.id}`)).json()).toMatchObject({
      status: "pending",
      bol_url: null,
    });
    expect((await get(`/api/v2/shipments/${domestic[0]}`)).json().shipment).toMatchObject({
      status: "shipped",
      batch_id: Number(home.id),
    });

    await generate();
    const done = (await get(`/api/v2/shipments/batches/${home.id}`)).json();
    expect(done).toMatchObject({ status: "generated", shipments_ids: domestic });
    expect(isValidImpb(done.tracking_number)).toBe(true);
    expect(done.tracking_number).toMatch(/^94750/);
    const pdf = await file(done.bol_url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const otherDocument = (await get(`/api/v2/shipments/batches/${international.id}`)).json();
    expect(otherDocument.tracking_number).not.toBe(done.tracking_number);

    const shipment = (await get(`/api/v2/shipments/${domestic[1]}`)).json().shipment;
    expect(shipment.status).toBe("manifested");
    expect(shipment.parcels.map((p: { status: string }) => p.status)).toEqual(["manifested"]);
    const cancel = await t.app.inject({
      method: "PUT",
      url: `/api/v2/shipments/${domestic[0]}/cancel`,
      headers: merchant.auth,
    });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error_code).toBe("shipment.cancel_window_closed");
  });

  it("merges the documents and every label into one PDF when asked", async () => {
    const ids = [await ship(), await ship()];
    const created = (await post("/api/v2/shipments/batches", { shipment_ids: ids, include_merged: true })).json();
    expect(created.merged_docs).toMatch(/^http.*\/files\/[\w-]{22}\.pdf$/);
    expect(created.shipments_batches[0].merged_docs).toBeNull();
    await generate();
    const batch = (await get(`/api/v2/shipments/batches/${created.shipments_batches[0].id}`)).json();
    expect(batch.merged_docs).toBe(created.merged_docs);
    const merged = (await file(created.merged_docs)).rawPayload.toString("latin1");
    // The SCAN form's one page, then one page per label.
    expect(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(merged)?.[1]).toBe("3");
  });

  it("leaves a stored label that is no readable PDF out of the merged file, and warns naming it", async () => {
    const ids = [await ship(), await ship()];
    // Stored files are written once: the label is pointed at a damaged copy instead.
    const damaged = "damaged-label.pdf";
    await t.services.files.put(damaged, Buffer.from("%PDF-1.4\n% cut short by a failing disk", "latin1"));
    await t.services.db
      .updateTable("labels")
      .set({ file_name: damaged })
      .where("shipment_id", "=", ids[1] as number)
      .execute();
    const created = (await post("/api/v2/shipments/batches", { shipment_ids: ids, include_merged: true })).json();
    warnings.length = 0;
    await generate();
    const batch = (await get(`/api/v2/shipments/batches/${created.shipments_batches[0].id}`)).json();
    expect(batch.status).toBe("generated");
    const merged = readPdf((await file(created.merged_docs)).rawPayload);
    expect(merged.warnings).toEqual([]);
    // The SCAN form's page and the sound label's.
    expect(merged.pageCount).toBe(2);
    expect(warnings).toEqual([expect.objectContaining({ file: damaged })]);
  });

  it("makes a DHL eCommerce manifest", async () => {
    const ids = [
      await ship({ service_id: serviceIds.dhl_parcel_ground }),
      await ship({ service_id: serviceIds.dhl_parcel_expedited }),
    ];
    const [batch] = (await post("/api/v2/shipments/batches", { shipments_ids: ids })).json().shipments_batches;
    expect(batch.carrier_code).toBe("dhl_ecommerce");
    await generate();
    const done = (await get(`/api/v2/shipments/batches/${batch.id}`)).json();
    expect(done.tracking_number).toMatch(/^5399999\d{10}$/);
    expect((await file(done.bol_url)).statusCode).toBe(200);
    expect((await get(`/api/v2/shipments/${ids[0]}`)).json().shipment.status).toBe("manifested");
  });

  it("keeps a batch pending, saying why, while the operator has the carrier's manifest API offline", async () => {
    const [batch] = (await post("/api/v2/shipments/batches", { shipments_ids: [await ship()] })).json()
      .shipments_batches;
    await setCarrierApiStatus(t.services, "usps", "manifest", "offline", "maintenance");
    await generate();
    const waiting = (await get(`/api/v2/shipments/batches/${batch.id}`)).json();
    expect(waiting).toMatchObject({ status: "pending", bol_url: null });
    expect(waiting.errors).toContain("The USPS manifest service is offline (maintenance)");
    await setCarrierApiStatus(t.services, "usps", "manifest", "online", null);
    await generate();
    expect((await get(`/api/v2/shipments/batches/${batch.id}`)).json()).toMatchObject({
      status: "generated",
      errors: null,
    });
  });

  describe("refusals name the shipment and the reason", () => {
    it("refuses carriers without manifests, and mixed carriers", async () => {
      const ups = await ship({ service_id: serviceIds.ups_ground });
      const refused = await post("/api/v2/shipments/batches", { shipments_ids: [ups] });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ status: "error", error_code: "batch.carrier_not_supported" });
      const mixed = await post("/api/v2/shipments/batches", {
        shipments_ids: [await ship(), await ship({ service_id: serviceIds.dhl_parcel_ground })],
      });
      expect(mixed.statusCode).toBe(422);
      expect(mixed.json().error_code).toBe("batch.mixed_carriers");
    });

    it("refuses cancelled, foreign and already batched shipments with 409", async () => {
      const cancelled = await ship();
      await t.app.inject({ method: "PUT", url: `/api/v2/shipments/${cancelled}/cancel`, headers: merchant.auth });
      const theirs = await ship({}, other.auth);
      const mine = await ship();
      const refused = await post("/api/v2/shipments/batches", { shipments_ids: [mine, cancelled, theirs] });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error_code).toBe("batch.shipment_unavailable");
      expect(refused.json().error_message).toContain(`shipment ${cancelled} is cancel_pending`);
      expect(refused.json().error_message).toContain(`shipment ${theirs} is not a shipment of this account`);

      const [batch] = (await post("/api/v2/shipments/batches", { shipments_ids: [mine] })).json().shipments_batches;
      const again = await post("/api/v2/shipments/batches", { shipments_ids: [mine] });
      expect(again.statusCode).toBe(409);
      expect(again.json().error_code).toBe("batch.already_batched");
      expect(again.json().error_message).toContain(`shipment ${mine} (batch ${batch.id})`);
    });

    it("refuses a shipment the carrier already has", async () => {
      const dhl = await ship({ service_id: serviceIds.dhl_parcel_ground });
      const advanced = await post(`/api/v2/sandbox/shipments/${dhl}/advance`, { to: "delivered" });
      expect(advanced.statusCode, advanced.body).toBe(200);
      const refused = await post("/api/v2/shipments/batches", { shipments_ids: [dhl] });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error_message).toContain(`shipment ${dhl} is delivered`);
    });

    it("names ineligible shipments up front: another origin ZIP, a label dated after the form", async () => {
      const first = await ship();
      const elsewhere = await ship({
        from_location: {
          ...LOS_ANGELES_WAREHOUSE,
          address1: "2 Broadway",
          city: "New York",
          state: "NY",
          postal_code: "10004",
        },
      });
      const tomorrow = new Date(t.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
      const later = await ship({ ship_date: tomorrow });
      const refused = await post("/api/v2/shipments/batches", { shipments_ids: [first, elsewhere, later] });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error_code).toBe("batch.shipment_ineligible");
      expect(refused.json().error_message).toContain(`shipment ${elsewhere}: it is mailed from ZIP 10004`);
      expect(refused.json().error_message).toContain(`shipment ${later}: its label is dated ${tomorrow}`);
      // Nothing was taken: the eligible one can still be batched.
      expect((await post("/api/v2/shipments/batches", { shipments_ids: [first] })).statusCode).toBe(201);
    });

    it("names ids no shipment can have", async () => {
      const refused = await post("/api/v2/shipments/batches", { shipments_ids: ["9999999999"] });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error_message).toContain("shipment 9999999999 is not a shipment of this account");
      const pickup = await post("/api/v2/pickups", {
        pickup: { shipment_ids: ["9999999999"], shipment_batch_ids: ["9999999999"] },
      });
      expect(pickup.statusCode).toBe(404);
    });

    it("answers 400 for an empty list and unreadable dates", async () => {
      expect((await post("/api/v2/shipments/batches", { shipments_ids: [] })).statusCode).toBe(400);
      expect((await post("/api/v2/shipments/batches", {})).statusCode).toBe(400);
      expect((await post("/api/v2/shipments/batches/daily", { shipment_date: "tomorrow" })).statusCode).toBe(400);
      expect((await get("/api/v2/shipments/batches?date_from=2026-01-01")).statusCode).toBe(400);
    });
  });

  it("daily: one batch per manifesting carrier from every unbatched shipment of the date", async () => {
    const day = t.clock.now().toISOString().slice(0, 10);
    const usps = await ship();
    const dhl = await ship({ service_id: serviceIds.dhl_parcel_ground });
    await ship({ service_id: serviceIds.ups_ground });
    const response = await post("/api/v2/shipments/batches/daily", {
      shipment_date: day.split("-").reverse().join("-"),
    });
    expect(response.statusCode, response.body).toBe(201);
    const batches = response.json().shipments_batches as { carrier_code: string; shipments_ids: number[] }[];
    // One USPS batch per origin ZIP: the New York shipment refused above is still unbatched.
    expect(new Set(batches.map((b) => b.carrier_code))).toEqual(new Set(["dhl_ecommerce", "usps"]));
    expect(batches.flatMap((b) => b.shipments_ids)).toContain(usps);
    expect(batches.find((b) => b.carrier_code === "dhl_ecommerce")?.shipments_ids).toContain(dhl);
    const none = await post("/api/v2/shipments/batches/daily", { shipment_date: day });
    expect(none.json().shipments_batches).toEqual([]);
  });

  it("lists batches between two dates with pagination headers", async () => {
    const day = t.clock.now().toISOString().slice(0, 10);
    const listed = await get(`/api/v2/shipments/batches?date_from=${day}&date_to=${day}&per_page=2`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().shipments_batches).toHaveLength(2);
    expect(Number(listed.headers["x-total-count"])).toBeGreaterThan(2);
    expect(listed.headers.link).toContain('rel="next"');
    const earlier = await get("/api/v2/shipments/batches?date_from=2020-01-01&date_to=2020-01-02");
    expect(earlier.json().shipments_batches).toEqual([]);
  });

  describe("isolation", () => {
    it("hides batches from other accounts and the other mode", async () => {
      const [batch] = (await post("/api/v2/shipments/batches", { shipments_ids: [await ship()] })).json()
        .shipments_batches;
      expect((await get(`/api/v2/shipments/batches/${batch.id}`, other.auth)).statusCode).toBe(404);
      const live = { authorization: `Bearer ${merchant.keys.production}` };
      const hidden = await get(`/api/v2/shipments/batches/${batch.id}`, live);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().error_code).toBe("batch.not_found");
      const day = t.clock.now().toISOString().slice(0, 10);
      expect((await get(`/api/v2/shipments/batches?date_from=${day}&date_to=${day}`, other.auth)).json()).toEqual({
        shipments_batches: [],
      });
    });

    it("works in the child form for the parent only", async () => {
      const child = await createTestAccount(t.services, { parentId: merchant.accountId });
      await connectSandboxCarriers(t.services, child.accountId);
      const id = await ship({}, child.auth);
      const prefix = `/api/v2/customers/${child.accountId}`;
      const created = await post(`${prefix}/shipments/batches`, { shipments_ids: [id] });
      expect(created.statusCode, created.body).toBe(201);
      const batchId = created.json().shipments_batches[0].id;
      expect((await get(`${prefix}/shipments/batches/${batchId}`)).statusCode).toBe(200);
      expect((await get(`/api/v2/shipments/batches/${batchId}`, child.auth)).statusCode).toBe(200);
      expect((await get(`/api/v2/shipments/batches/${batchId}`)).statusCode).toBe(404);
      const stranger = await get(`${prefix}/shipments/batches/${batchId}`, other.auth);
      expect(stranger.statusCode).toBe(404);
      expect(stranger.json().error_code).toBe("customer.not_found");
    });
  });
});
