import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWorker } from "../../src/app.js";
import { createOrderStore } from "../../src/domain/orders/order-stores.js";
import {
  RECONCILE_STORES_JOB,
  reconcileAllStores,
  SYNC_ALL_STORES_JOB,
  syncAllStores,
} from "../../src/domain/orders/store-sync-schedule.js";
import { SYNC_ORDER_STORE_JOB, syncOrderStore } from "../../src/domain/orders/sync-order-store.js";
import { StoreConnectors } from "../../src/stores/registry.js";
import { buildTestApp, createTestAccount, type TestApp } from "../helpers/app.js";
import { importedOrder, MemoryPlatform } from "./memory-platform.js";

let t: TestApp;
let platform: MemoryPlatform;
let storeId: number;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

beforeEach(async () => {
  platform = new MemoryPlatform();
  t.services.storeConnectors = new StoreConnectors({ clock: t.clock, timeoutMs: 1000 }, [platform.platform()]);
  const account = await createTestAccount(t.services);
  const store = await createOrderStore(t.services, { accountId: account.accountId, mode: "test" }, "shopify", {
    name: "Shop",
    credentials: { shop_domain: "example.myshopify.com", access_token: `shpat_${"0".repeat(32)}` },
  });
  storeId = store.id;
});

const ordersOf = (id: number) =>
  t.services.db.selectFrom("orders").selectAll().where("order_store_id", "=", id).orderBy("order_number").execute();

describe("syncing a platform store", () => {
  it("imports every page, and a second run creates no duplicates", async () => {
    platform.orders = Array.from({ length: 7 }, (_, n) => importedOrder(n, `2026-02-0${1 + (n % 5)}T00:00:00.000Z`));
    const first = await syncOrderStore(t.services, { storeId }, { pageSize: 3 });
    expect(first).toMatchObject({
      sync_status: "succeeded",
      sync_error: null,
      sync_cursor: "2026-02-05T00:00:00.000Z",
    });
    expect(first?.last_synced_at).not.toBeNull();
    await syncOrderStore(t.services, { storeId, since: null }, { pageSize: 2 });
    const orders = await ordersOf(storeId);
    expect(orders).toHaveLength(7);
    expect(orders[0]).toMatchObject({
      order_number: "#1000",
      store_order_id: "5000000",
      total_cents: 3305,
      shipment_status: "pending",
      external_customer_email: "ada@example.com",
    });
    const items = await t.services.db
      .selectFrom("order_items")
      .selectAll()
      .where("order_id", "=", orders[0]!.id)
      .execute();
    expect(items).toMatchObject([{ sku: "MUG-1", variant_id: "78", price_cents: 1250, cost_cents: 2500, quantity: 2 }]);
  });

  it("never lets an older version overwrite a newer one", async () => {
    platform.orders = [importedOrder(1, "2026-03-02T00:00:00.000Z", { paymentStatus: "refunded" })];
    await syncOrderStore(t.services, { storeId });
    platform.orders = [importedOrder(1, "2026-03-01T00:00:00.000Z", { paymentStatus: "paid" })];
    await syncOrderStore(t.services, { storeId, since: null });
    expect((await ordersOf(storeId))[0]).toMatchObject({ payment_status: "refunded" });
    platform.orders = [
      importedOrder(1, "2026-03-03T00:00:00.000Z", { paymentStatus: "paid", shipmentStatus: "shipped" }),
    ];
    await syncOrderStore(t.services, { storeId });
    expect((await ordersOf(storeId))[0]).toMatchObject({ payment_status: "paid", shipment_status: "shipped" });
  });

  it("marks the store failed with the platform's words and keeps the pages already imported; the next sync resumes", async () => {
    platform.orders = Array.from({ length: 6 }, (_, n) => importedOrder(n, `2026-04-0${1 + n}T00:00:00.000Z`));
    platform.failAfterPages = 1;
    const failed = await syncOrderStore(t.services, { storeId }, { pageSize: 2 });
    expect(failed).toMatchObject({
      sync_status: "failed",
      sync_cursor: "2026-04-02T00:00:00.000Z",
      last_synced_at: null,
    });
    expect(failed?.sync_error).toMatch(/credentials.*Invalid API key/);
    expect(await ordersOf(storeId)).toHaveLength(2);
    platform.failAfterPages = undefined;
    platform.pagesServed = 0;
    const resumed = await syncOrderStore(t.services, { storeId }, { pageSize: 2 });
    expect(resumed).toMatchObject({ sync_status: "succeeded", sync_error: null });
    expect(await ordersOf(storeId)).toHaveLength(6);
    // Resumed from the cursor: the first page (orders 0 and 1) was not read again.
    expect(platform.pagesServed).toBe(3);
  });
});

describe("the sync schedule", () => {
  const schedule = { syncIntervalMs: 900_000, reconcileWindowMs: 86_400_000, webhookReconcileIntervalMs: 300_000 };
  const queued = (kind: string) =>
    t.services.db
      .selectFrom("jobs")
      .select(["payload", "run_at"])
      .where("kind", "=", kind)
      .where("state", "=", "queued")
      .orderBy("id")
      .execute();

  it("queues one sync per platform store each round, never two for a store, and the next round", async () => {
    await t.services.db.deleteFrom("jobs").execute();
    t.clock.set(new Date("2026-06-01T00:00:00.000Z"));
    const count = await syncAllStores(t.services, schedule);
    expect(count).toBeGreaterThan(0);
    await syncAllStores(t.services, schedule);
    const syncs = await queued(SYNC_ORDER_STORE_JOB);
    expect(syncs.filter((job) => job.payload === JSON.stringify({ storeId }))).toHaveLength(1);
    expect(syncs).toHaveLength(count);
    expect(await queued(SYNC_ALL_STORES_JOB)).toEqual([
      { payload: expect.any(String), run_at: "2026-06-01T00:15:00.000Z" },
    ]);
  });

  it("re-reads the reconciliation window whatever the store's cursor says, catching an order whose webhook never came", async () => {
    await t.services.db.deleteFrom("jobs").execute();
    t.clock.set(new Date("2026-06-02T12:00:00.000Z"));
    platform.orders = [importedOrder(1, "2026-06-02T10:00:00.000Z")];
    await syncOrderStore(t.services, { storeId });
    // Became visible late, with an update time older than the cursor: an incremental sync misses it.
    platform.orders.push(importedOrder(2, "2026-06-02T09:00:00.000Z"));
    await syncOrderStore(t.services, { storeId });
    expect(await ordersOf(storeId)).toHaveLength(1);
    await reconcileAllStores(t.services, schedule);
    await createWorker(t.services).drain();
    expect((await ordersOf(storeId)).map((order) => order.order_number)).toEqual(["#1001", "#1002"]);
    expect(await queued(RECONCILE_STORES_JOB)).toEqual([
      { payload: expect.any(String), run_at: "2026-06-02T13:00:00.000Z" },
    ]);
  });
});
