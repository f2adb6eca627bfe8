import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { S3FileStore } from "../../src/storage/files/s3-file-store.js";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { chunksOf, fileName, readAll } from "../helpers/file-store-contract.js";
import { PROCESS_TEST_TIMEOUT_MS } from "../helpers/processes.js";
import { startS3Server, type TestS3Server } from "../helpers/s3-server.js";
import { shipmentToBuy } from "../helpers/shipments.js";

const UPS_GROUND = 666;

const shipment = (overrides: Record<string, unknown> = {}) =>
  shipmentToBuy({ label_format: "pdf", label_size: "4x6", ...overrides });

describe("labels kept in an S3 bucket (a real S3-compatible server)", () => {
  let server: TestS3Server;
  let store: S3FileStore;
  let t: TestApp;
  let merchant: TestAccount;
  let live: TestAccount["auth"];

  beforeAll(async () => {
    server = await startS3Server();
    // A short timeout, so the hung-store case below fails fast; 12 MiB still streams well within it.
    store = server.store("porter/", { timeoutMs: 1000 });
    t = await buildTestApp({ files: store });
    merchant = await createTestAccount(t.services);
    await fundMeter(t.services, merchant);
    await connectSandboxCarriers(t.services, merchant.accountId);
    live = { authorization: `Bearer ${merchant.keys.production}` };
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const ship = (body: object, auth = merchant.auth) =>
    t.app.inject({ method: "POST", url: "/api/v2/shipments/ship", headers: auth, payload: { shipment: body } });
  const fileOf = (url: string) => t.app.inject({ method: "GET", url: new URL(url, "http://x").pathname });
  const latestShipment = () =>
    t.services.db.selectFrom("shipments").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();

  it.each([
    ["pdf", "application/pdf", "%PDF-"],
    ["zpl", "application/zpl", "^XA"],
    ["png", "image/png", "\x89PNG"],
  ])("buys a %s label whose public URL streams the object from the bucket", async (format, type, magic) => {
    const response = await ship(shipment({ label_format: format, inline_image: true }));
    expect(response.statusCode, response.body).toBe(201);
    const label = response.json().shipment.parcels[0].postage_label;
    const name = new URL(label.image_url).pathname.split("/").pop() as string;
    const stored = (await store.get(name)) as Buffer;
    expect(stored.subarray(0, magic.length).toString("latin1")).toBe(magic);
    expect(Buffer.from(label.base64_image, "base64").equals(stored)).toBe(true);

    const file = await fileOf(label.image_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe(type);
    expect(file.headers["content-length"]).toBe(String(stored.length));
    expect(file.rawPayload.equals(stored)).toBe(true);
  });

  it("streams a large file (a 12 MiB manifest) to the client unchanged, without a redirect", async () => {
    const name = fileName("pdf");
    await store.putChunks(name, chunksOf(48, 256 * 1024, "manifest"));
    const file = await fileOf(`/files/${name}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers.location).toBeUndefined();
    expect(file.headers["content-length"]).toBe(String(12 * 1024 * 1024));
    expect(file.rawPayload.equals(await readAll(chunksOf(48, 256 * 1024, "manifest")))).toBe(true);
  });

  it("answers 404 for a name the bucket does not hold, and for names that are not file tokens", async () => {
    for (const url of [`/files/${fileName("pdf")}`, "/files/short.pdf", `/files/${fileName("constructor")}`]) {
      const response = await fileOf(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error_code).toBe("file.not_found");
    }
  });

  it(
    "during an outage of the store: a purchase is voided, refunded and answered 503 with Retry-After; files 503 too; both work once it is back",
    async () => {
      const bought = (await ship(shipment())).json().shipment.parcels[0].postage_label.image_url as string;
      await server.stop();
      try {
        const refused = await ship(shipment({ service_id: UPS_GROUND }), live);
        expect(refused.statusCode).toBe(503);
        expect(refused.json().error_code).toBe("errors.unavailable");
        expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
        // No shipment points at a file that is not there: it failed, its labels voided, its price back.
        const failed = await latestShipment();
        expect(failed.status).toBe("failed");
        expect(failed.status_reason).toMatch(/voided/);
        expect(
          await t.services.db.selectFrom("labels").where("shipment_id", "=", failed.id).selectAll().execute(),
        ).toEqual([]);
        const entries = await t.services.db
          .selectFrom("meter_entries")
          .selectAll()
          .where("shipment_id", "=", failed.id)
          .orderBy("id")
          .execute();
        expect(entries.map((e) => e.kind)).toEqual(["label_purchase", "refund"]);
        expect(entries.reduce((sum, e) => sum + e.amount_cents, 0)).toBe(0);

        const unavailable = await fileOf(bought);
        expect(unavailable.statusCode).toBe(503);
        expect(unavailable.json().error_code).toBe("errors.unavailable");
        expect(Number(unavailable.headers["retry-after"])).toBeGreaterThan(0);
      } finally {
        await server.start();
      }
      expect((await fileOf(bought)).statusCode).toBe(200);

      // A store that takes connections but never answers: the same 503 after the timeout, not a hang.
      server.pause();
      try {
        const hung = await fileOf(bought);
        expect(hung.statusCode).toBe(503);
        expect(hung.json().error_code).toBe("errors.unavailable");
      } finally {
        server.resume();
      }
      expect((await fileOf(bought)).statusCode).toBe(200);
      const again = await ship(shipment({ service_id: UPS_GROUND }), live);
      expect(again.statusCode, again.body).toBe(201);
      expect((await fileOf(again.json().shipment.parcels[0].postage_label.image_url)).statusCode).toBe(200);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
