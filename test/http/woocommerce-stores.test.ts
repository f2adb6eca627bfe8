import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorker } from "../../src/app.js";
import { RECONCILE_WEBHOOK_STORES_JOB, reconcileWebhookStores } from "../../src/domain/orders/store-sync-schedule.js";
import { syncOrderStore } from "../../src/domain/orders/sync-order-store.js";
import { apiCaller, buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import {
  type StandInOrder,
  type StandInSite,
  standInOrder,
  WooCommerceStandIn,
  wooTime,
} from "../stand-ins/woocommerce/woocommerce-stand-in.js";

/** A mug order numbered `n`: two mugs at 12.50, 5.99 shipping, 2.06 tax. */
function mugOrder(n: number, updatedAt: string, changes: Partial<StandInOrder> = {}): StandInOrder {
  return standInOrder(n, updatedAt, {
    total: "33.05",
    total_tax: "2.06",
    shipping_total: "5.99",
    line_items: [
      {
        id: n * 10,
        name: "Mug",
        product_id: 500,
        variation_id: 0,
        quantity: 2,
        subtotal: "25.00",
        total: "25.00",
        sku: "MUG",
        price: 12.5,
        image: { id: 0, src: "" },
        meta_data: [],
      },
    ],
    ...changes,
  });
}

describe("a WooCommerce store", () => {
  const standIn = new WooCommerceStandIn();
  let t: TestApp;
  let merchant: TestAccount;
  let site: StandInSite;
  let storeId: number;
  const call = apiCaller(() => t);

  beforeAll(async () => {
    await standIn.start();
    t = await buildTestApp({ config: { outboundAllowPrivateTargets: true } });
    merchant = await createTestAccount(t.services);
    site = standIn.addSite({
      orders: [mugOrder(1, "2026-06-01T10:00:00Z"), mugOrder(2, "2026-06-02T10:00:00Z")],
      products: [{ id: 500, weight: "350", variations: [] }],
      weightUnit: "g",
    });
    const created = await call(merchant.auth, "POST", "/order_stores", {
      order_store: {
        name: "Woo shop",
        service_type: "woocommerce",
        credentials: {
          site_url: standIn.siteUrl(site),
          consumer_key: site.consumerKey,
          consumer_secret: site.consumerSecret,
          webhook_secret: site.webhookSecret,
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    storeId = created.json().order_store.id;
  });
  afterAll(async () => {
    await t.close();
    await standIn.stop();
  });

  const orders = async (status = "pending") =>
    (await call(merchant.auth, "GET", `/order_stores/${storeId}/orders?status=${status}`)).json().orders;

  it("says a placeholder was pasted where the key goes, instead of failing at the first sync", async () => {
    const refused = await call(merchant.auth, "POST", "/order_stores", {
      order_store: {
        name: "Woo shop",
        service_type: "woocommerce",
        credentials: { site_url: standIn.siteUrl(site), consumer_key: "ck_…", consumer_secret: site.consumerSecret },
      },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error_code).toBe("order_store.credentials_invalid");
    expect(refused.json().error_message).toBe(
      'The woocommerce credentials cannot be used: consumer_key "ck_…" is a placeholder; paste the REST API key\'s Consumer key (ck_ and 40 hex digits).',
    );
  });

  it("imports the site's orders with exact money, items and weights, and a second sync duplicates none", async () => {
    const synced = await syncOrderStore(t.services, { storeId }, { pageSize: 1 });
    expect(synced).toMatchObject({
      sync_status: "succeeded",
      sync_error: null,
      sync_cursor: "2026-06-02T10:00:00.000Z",
    });
    await syncOrderStore(t.services, { storeId, since: null });
    const listed = await orders();
    expect(listed.map((o: { order_number: string }) => o.order_number)).toEqual(["7001", "7002"]);
    expect(listed[0]).toMatchObject({
      order_store_type: "woocommerce",
      order_id: 7001,
      items_total: "25.0",
      tax_total: "2.06",
      shipping_total: "5.99",
      total: "33.05",
      payment_status: "paid",
      order_status: "processing",
      shipping_method: "Flat rate",
      currency: "USD",
      presentment_currency: null,
      external_customer_email: "ada@example.com",
      shipping_address: expect.objectContaining({ address1: "1 Main St", postal_code: "78701", country: "US" }),
    });
    expect(listed[0].items).toEqual([
      expect.objectContaining({
        sku: "MUG",
        quantity: "2.0",
        price: "12.5",
        cost: "25.0",
        weight: 12.35,
        external_id: "10",
      }),
    ]);
  });

  it("picks up a change made on the site since the last sync, and a completed order arrives shipped", async () => {
    const order = site.orders[1] as StandInOrder;
    order.status = "completed";
    order.date_modified_gmt = wooTime("2026-06-03T09:00:00Z");
    site.orders.push(mugOrder(3, "2026-06-03T10:00:00Z"));
    standIn.requests.length = 0;
    await syncOrderStore(t.services, { storeId });
    // Only what changed since the cursor was asked for.
    expect(standIn.requests.filter((r) => r.startsWith("GET orders"))).toHaveLength(1);
    expect((await orders()).map((o: { order_number: string }) => o.order_number)).toEqual(["7001", "7003"]);
    expect(
      (await orders("shipped")).map((o: { order_number: string; order_status: string }) => o.order_status),
    ).toEqual(["completed"]);
  });

  it("marks the store failed with WooCommerce's words when the key is revoked, and keeps the orders", async () => {
    const secret = site.consumerSecret;
    site.consumerSecret = "cs_revoked";
    try {
      const failed = await syncOrderStore(t.services, { storeId });
      expect(failed).toMatchObject({ sync_status: "failed", sync_error: expect.stringContaining("401") });
      expect(await orders()).toHaveLength(2);
    } finally {
      site.consumerSecret = secret;
    }
    expect(await syncOrderStore(t.services, { storeId })).toMatchObject({ sync_status: "succeeded", sync_error: null });
  });
  it("ships an order through Porter: part of it leaves the order open with a note, the rest completes it", async () => {
    const order = site.orders[0] as StandInOrder;
    const ship = (tracking: string, items?: object[]) =>
      call(merchant.auth, "POST", `/order_stores/${storeId}/orders/7001/shipments`, {
        shipping_cost: 7.25,
        ship_date: "2026-06-04",
        tracking_number: tracking,
        carrier: "USPS",
        service: "Ground Advantage",
        ...(items && { items }),
      });
    const part = await ship("9400100000000000000101", [{ sku: "MUG", quantity: 1 }]);
    expect(part.statusCode, part.body).toBe(201);
    expect(order.status).toBe("processing");
    expect(order.notes.at(-1)?.note).toMatch(
      /^Part of the order shipped with USPS Ground Advantage\. Tracking number: 9400100000000000000101/,
    );
    expect((await orders("partial")).map((o: { order_number: string }) => o.order_number)).toEqual(["7001"]);

    const rest = await ship("9400100000000000000102");
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().shipment.shipment_id).toEqual(expect.any(Number));
    expect(order.status).toBe("completed");
    expect(order.notes.at(-1)).toMatchObject({
      customer_note: true,
      note: expect.stringContaining(
        "Track it: https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000102",
      ),
    });

    // Cancelling the last shipment takes its note back and reopens the order on the site.
    const cancelled = await call(merchant.auth, "POST", `/order_stores/${storeId}/orders/7001/shipments/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(201);
    expect(order.status).toBe("processing");
    expect(order.notes.map((n) => n.note).join("\n")).not.toContain("9400100000000000000102");
    expect((await orders("partial")).map((o: { order_number: string }) => o.order_number)).toEqual(["7001"]);
  });

  it("takes signed order webhooks once each, in any order, and refuses a forged one", async () => {
    const hook = (order: StandInOrder, topic: string, deliveryId: string) => {
      const delivery = standIn.webhook(site, topic, order, deliveryId);
      return t.app.inject({
        method: "POST",
        url: `/api/v2/store_webhooks/${storeId}`,
        headers: delivery.headers,
        payload: delivery.body,
      });
    };
    const fresh = mugOrder(4, "2026-06-05T10:00:00Z");
    const created = await hook(fresh, "order.created", "wd-1");
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({ received: true, topic: "order.created", duplicate: false });
    expect((await hook(fresh, "order.created", "wd-1")).json().duplicate).toBe(true);

    // A newer update, then an older one arriving late: the newer stays.
    const newer = { ...fresh, status: "on-hold", date_modified_gmt: wooTime("2026-06-05T12:00:00Z") };
    const older = { ...fresh, status: "cancelled", date_modified_gmt: wooTime("2026-06-05T11:00:00Z") };
    expect((await hook(newer, "order.updated", "wd-2")).statusCode).toBe(200);
    expect((await hook(older, "order.updated", "wd-3")).statusCode).toBe(200);
    const held = (await call(merchant.auth, "GET", `/order_stores/${storeId}/orders/7004`)).json().orders[0];
    expect(held.order_status).toBe("on-hold");

    const delivery = standIn.webhook(site, "order.updated", { ...fresh, total: "0.01" }, "wd-4");
    const forged = await t.app.inject({
      method: "POST",
      url: `/api/v2/store_webhooks/${storeId}`,
      headers: {
        ...delivery.headers,
        "x-wc-webhook-signature": standIn.webhook(site, "order.updated", fresh, "x").headers["x-wc-webhook-signature"],
      },
      payload: delivery.body,
    });
    expect(forged.statusCode).toBe(401);

    // WooCommerce pings a new webhook's address, unsigned, and saves the webhook only if it is answered.
    const ping = await t.app.inject({
      method: "POST",
      url: `/api/v2/store_webhooks/${storeId}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "webhook_id=31",
    });
    expect(ping.statusCode, ping.body).toBe(200);
  });

  it("imports two deliveries WooCommerce sent in one second under one delivery id", async () => {
    standIn.now = "2026-06-07T10:00:00.000Z";
    const deliveries = [mugOrder(11, "2026-06-07T10:00:00Z"), mugOrder(12, "2026-06-07T10:00:00Z")].map((order) =>
      standIn.webhook(site, "order.created", order),
    );
    expect(deliveries[0]?.headers["x-wc-webhook-delivery-id"]).toBe(deliveries[1]?.headers["x-wc-webhook-delivery-id"]);
    for (const delivery of deliveries) {
      const taken = await t.app.inject({
        method: "POST",
        url: `/api/v2/store_webhooks/${storeId}`,
        headers: delivery.headers,
        payload: delivery.body,
      });
      expect(taken.json(), taken.body).toEqual({ received: true, topic: "order.created", duplicate: false });
    }
    for (const id of [7011, 7012]) {
      expect((await call(merchant.auth, "GET", `/order_stores/${storeId}/orders/${id}`)).statusCode).toBe(200);
    }
  });

  it("catches an order whose delivery failed within minutes: the webhook reconciliation reads what changed since the last sync", async () => {
    await syncOrderStore(t.services, { storeId });
    // WooCommerce never retries: this order's delivery failed and nothing brings it again.
    site.orders.push(mugOrder(13, "2026-12-01T10:00:00Z"));
    await t.services.db.deleteFrom("jobs").execute();
    t.clock.set(new Date("2026-12-01T10:01:00.000Z"));
    const schedule = { syncIntervalMs: 900_000, reconcileWindowMs: 86_400_000, webhookReconcileIntervalMs: 300_000 };
    expect(await reconcileWebhookStores(t.services, schedule)).toBe(1);
    await createWorker(t.services).drain();
    expect((await call(merchant.auth, "GET", `/order_stores/${storeId}/orders/7013`)).statusCode).toBe(200);
    const next = await t.services.db
      .selectFrom("jobs")
      .select("run_at")
      .where("kind", "=", RECONCILE_WEBHOOK_STORES_JOB)
      .where("state", "=", "queued")
      .execute();
    expect(next).toEqual([{ run_at: "2026-12-01T10:06:00.000Z" }]);
  });
});
