import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWorker } from "../../src/app.js";
import {
  apiCaller,
  buildTestApp,
  createTestTenants,
  type TestAccount,
  type TestApp,
  type TestTenants,
} from "../helpers/app.js";
import { ShopifyStandIn, type StandInShop, standInOrder } from "../stand-ins/shopify/shopify-stand-in.js";

const SHIPMENT = {
  shipping_cost: 7.25,
  ship_date: "2026-03-02",
  tracking_number: "9400100000000000000001",
  carrier: "usps",
  service: "usps_ground_advantage",
  notify: false,
};

describe("a connected Shopify store", () => {
  const standIn = new ShopifyStandIn();
  let t: TestApp;
  let tenants: TestTenants;
  let shop: StandInShop;
  let storeId: number;
  const call = apiCaller(() => t);

  const connect = async (account: TestAccount, target: StandInShop, prefix = "") => {
    const created = await call(account.auth, "POST", `${prefix}/order_stores`, {
      order_store: {
        name: "Shop",
        service_type: "shopify",
        credentials: {
          shop_domain: target.domain,
          access_token: target.accessToken,
          webhook_secret: target.webhookSecret,
        },
      },
    });
    expect(created.statusCode).toBe(201);
    return created.json().order_store.id as number;
  };
  const sync = async (account: TestAccount, id: number) => {
    const queued = await call(account.auth, "POST", `/order_stores/${id}/sync`);
    expect(queued.statusCode).toBe(202);
    await createWorker(t.services).drain();
    return (await call(account.auth, "GET", `/order_stores/${id}/sync`)).json().sync;
  };
  const orders = async (status = "pending") =>
    (await call(tenants.merchant.auth, "GET", `/order_stores/${storeId}/orders?status=${status}`)).json().orders as {
      order_number: string;
      payment_status: string;
      total: string;
      items: { sku: string; price: string; variant_id: unknown }[];
    }[];
  const deliver = (body: string, headers: Record<string, string>, id = storeId) =>
    t.app.inject({ method: "POST", url: `/api/v2/store_webhooks/${id}`, payload: body, headers });

  beforeAll(async () => {
    await standIn.start();
    t = await buildTestApp({ config: { shopifyApiBaseUrl: standIn.baseUrl } });
    t.clock.set(new Date("2026-03-02T15:00:00.000Z"));
    tenants = await createTestTenants(t.services);
  });
  afterAll(async () => {
    await t.close();
    await standIn.stop();
  });
  beforeEach(async () => {
    shop = standIn.addShop({
      orders: [1, 2, 3].map((n) => standInOrder(n, `2026-03-0${n}T10:00:00-05:00`)),
    });
    storeId = await connect(tenants.merchant, shop);
  });

  it("imports the shop's orders on demand, and again without duplicates", async () => {
    const fresh = await call(tenants.merchant.auth, "GET", `/order_stores/${storeId}/sync`);
    expect(fresh.json()).toEqual({
      sync: { order_store_id: storeId, status: null, error: null, last_synced_at: null },
    });
    const state = await sync(tenants.merchant, storeId);
    expect(state).toEqual({
      order_store_id: storeId,
      status: "succeeded",
      error: null,
      last_synced_at: "2026-03-02T15:00:00.000Z",
    });
    shop.orders = [...(shop.orders as ReturnType<typeof standInOrder>[]), standInOrder(4, "2026-03-04T00:00:00Z")];
    await sync(tenants.merchant, storeId);
    const imported = await orders();
    expect(imported.map((order) => order.order_number)).toEqual(["#1001", "#1002", "#1003", "#1004"]);
    expect(imported[0]).toMatchObject({ payment_status: "paid", total: "33.05" });
    expect(imported[0]?.items[0]).toMatchObject({ sku: "MUG-1", price: "12.5", variant_id: "9001", weight: 11.99 });
    const retrieved = await call(tenants.merchant.auth, "GET", `/order_stores/${storeId}/orders/%231001`);
    expect(retrieved.json().orders[0]).toMatchObject({
      order_id: 450000001,
      shipping_method: "Standard",
      shipping_address: { first_name: "Ada", state: "TX", country: "US", postal_code: "78701", address3: null },
      items: [{ variant_id: 9001, item_id: 8001, external_id: 4500000011, quantity: 2 }],
    });
  });

  it("keeps each order's currency, and the buyer's where it differs", async () => {
    shop.orders = [
      standInOrder(1, "2026-03-01T10:00:00Z", { currency: "CAD", presentmentCurrency: "EUR" }),
      standInOrder(2, "2026-03-02T10:00:00Z", { currency: "CAD" }),
    ];
    await sync(tenants.merchant, storeId);
    const listed = (await call(tenants.merchant.auth, "GET", `/order_stores/${storeId}/orders`)).json().orders;
    expect(listed.map((o: Record<string, unknown>) => [o.order_number, o.currency, o.presentment_currency])).toEqual([
      ["#1001", "CAD", "EUR"],
      ["#1002", "CAD", null],
    ]);
    const retrieved = await call(tenants.merchant.auth, "GET", `/order_stores/${storeId}/orders/%231001`);
    expect(retrieved.json().orders[0]).toMatchObject({ currency: "CAD", presentment_currency: "EUR", total: "33.05" });
  });

  it("ships an imported order as a Shopify fulfillment, and cancelling it cancels the fulfillment", async () => {
    await sync(tenants.merchant, storeId);
    const shipped = await call(
      tenants.merchant.auth,
      "POST",
      `/order_stores/${storeId}/orders/%231001/shipments`,
      SHIPMENT,
    );
    expect(shipped.statusCode).toBe(201);
    const fulfillment = shop.fulfillments[0];
    expect(shipped.json().shipment).toEqual({ id: expect.any(Number), shipment_id: fulfillment?.id });
    expect(fulfillment).toMatchObject({
      status: "SUCCESS",
      notifyCustomer: false,
      trackingInfo: { company: "USPS", number: "9400100000000000000001" },
    });
    const cancelled = await call(
      tenants.merchant.auth,
      "POST",
      `/order_stores/${storeId}/orders/%231001/shipments/cancel`,
    );
    expect(cancelled.statusCode).toBe(201);
    expect(cancelled.json().shipment.shipment_id).toBe(String(fulfillment?.id));
    expect(fulfillment?.status).toBe("CANCELLED");
    expect((await orders()).map((order) => order.order_number)).toContain("#1001");
  });

  it("records nothing when Shopify refuses the write-back, and says why", async () => {
    await sync(tenants.merchant, storeId);
    shop.scopes.delete("write_merchant_managed_fulfillment_orders");
    const refused = await call(
      tenants.merchant.auth,
      "POST",
      `/order_stores/${storeId}/orders/%231002/shipments`,
      SHIPMENT,
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      error_code: "order_store.platform_failed",
      error_message: expect.stringContaining("write_merchant_managed_fulfillment_orders"),
    });
    expect((await orders()).map((order) => order.order_number)).toContain("#1002");
  });

  it("marks the store failed with Shopify's words when its token is refused, keeping what was imported", async () => {
    await sync(tenants.merchant, storeId);
    standIn.fail("401", 1);
    const state = await sync(tenants.merchant, storeId);
    expect(state).toMatchObject({ status: "failed", last_synced_at: "2026-03-02T15:00:00.000Z" });
    expect(state.error).toMatch(/refused the store's credentials.*Invalid API key/);
    expect(await orders()).toHaveLength(3);
    expect((await sync(tenants.merchant, storeId)).status).toBe("succeeded");
  });

  it("reports missing protected customer data access on the store, not as an empty store", async () => {
    shop.customerDataAccess = false;
    const state = await sync(tenants.merchant, storeId);
    expect(state.status).toBe("failed");
    expect(state.error).toMatch(/permission.*Customer object/);
  });

  it("takes signed order webhooks once each, and an older update never overwrites a newer one", async () => {
    const newer = standInOrder(9, "2026-03-05T00:00:00Z", { financialStatus: "REFUNDED" });
    const older = standInOrder(9, "2026-03-04T00:00:00Z", { financialStatus: "PAID" });
    const first = standIn.webhook(shop, "orders/updated", newer, "delivery-new");
    const answer = await deliver(first.body, first.headers);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ received: true, topic: "orders/updated", duplicate: false });
    expect((await deliver(first.body, first.headers)).json().duplicate).toBe(true);
    const late = standIn.webhook(shop, "orders/create", older, "delivery-old");
    expect((await deliver(late.body, late.headers)).json().duplicate).toBe(false);
    const imported = (await orders()).filter((order) => order.order_number === "#1009");
    expect(imported).toHaveLength(1);
    expect(imported[0]?.payment_status).toBe("refunded");
  });

  it("refuses a webhook whose signature does not match, and one for a store that is not there", async () => {
    const delivery = standIn.webhook(shop, "orders/create", standInOrder(8, "2026-03-05T00:00:00Z"));
    const forged = await deliver(delivery.body.replace("78701", "10001"), delivery.headers);
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error_code).toBe("store_webhook.unverified");
    expect((await deliver(delivery.body, delivery.headers, 999_999)).statusCode).toBe(401);
    expect(await orders()).toHaveLength(0);
  });

  it("keeps the sync endpoints to the store's account; a parent reaches its child's", async () => {
    expect((await call(tenants.other.auth, "POST", `/order_stores/${storeId}/sync`)).statusCode).toBe(404);
    expect((await call(tenants.other.auth, "GET", `/order_stores/${storeId}/sync`)).statusCode).toBe(404);
    const childStore = await connect(tenants.child, standIn.addShop());
    const viaParent = await call(
      tenants.merchant.auth,
      "POST",
      `/customers/${tenants.child.accountId}/order_stores/${childStore}/sync`,
    );
    expect(viaParent.statusCode).toBe(202);
    expect(viaParent.json().sync).toMatchObject({ order_store_id: childStore, status: "queued" });
  });

  it("refuses a shop domain that is not the shop's myshopify.com domain when the store is connected", async () => {
    const refused = await call(tenants.merchant.auth, "POST", "/order_stores", {
      order_store: {
        name: "Shop",
        service_type: "shopify",
        credentials: { shop_domain: "shop.example.com", access_token: `shpat_${"a".repeat(32)}` },
      },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      error_code: "order_store.credentials_invalid",
      error_message: expect.stringContaining("myshopify.com"),
    });
  });

  it("refuses a static token that is not an Admin API token, and credentials that name no way in", async () => {
    for (const [credentials, code] of [
      [{ shop_domain: shop.domain, access_token: "shpat_x" }, "order_store.credentials_invalid"],
      [{ shop_domain: shop.domain, access_token: "shpat_…" }, "order_store.credentials_invalid"],
      [{ shop_domain: shop.domain, client_id: "…", client_secret: "…" }, "order_store.credentials_invalid"],
      [
        { shop_domain: shop.domain, client_id: "<Client ID>", client_secret: shop.clientSecret },
        "order_store.credentials_invalid",
      ],
      [{ shop_domain: shop.domain, access_token: shop.clientSecret }, "order_store.credentials_invalid"],
      [{ shop_domain: shop.domain, client_id: shop.clientId }, "order_store.credentials_missing"],
      [{ shop_domain: shop.domain }, "order_store.credentials_missing"],
    ] as const) {
      const refused = await call(tenants.merchant.auth, "POST", "/order_stores", {
        order_store: { name: "Shop", service_type: "shopify", credentials },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error_code).toBe(code);
    }
  });

  it("says a placeholder was pasted where the token goes, instead of failing at the first sync", async () => {
    const refused = await call(tenants.merchant.auth, "POST", "/order_stores", {
      order_store: {
        name: "Shop",
        service_type: "shopify",
        credentials: { shop_domain: shop.domain, access_token: "shpat_…" },
      },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error_message).toBe(
      'The shopify credentials cannot be used: access_token "shpat_…" is a placeholder; paste the app\'s Admin API access token (shpat_ and 32 hex digits).',
    );
  });

  it("connects a Dev Dashboard app by its client id and secret, keeps them sealed, and imports with granted tokens", async () => {
    const created = await call(tenants.merchant.auth, "POST", "/order_stores", {
      order_store: {
        name: "Dev Dashboard shop",
        service_type: "shopify",
        credentials: { shop_domain: shop.domain, client_id: shop.clientId, client_secret: shop.clientSecret },
      },
    });
    expect(created.statusCode).toBe(201);
    expect(JSON.stringify(created.json())).not.toContain(shop.clientSecret);
    const id = created.json().order_store.id as number;
    const row = await t.services.db
      .selectFrom("order_stores")
      .select("credentials_sealed")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(String(row.credentials_sealed)).not.toContain(shop.clientSecret);
    expect(await sync(tenants.merchant, id)).toMatchObject({ status: "succeeded", error: null });
    expect(shop.tokenGrants).toBeGreaterThanOrEqual(1);
    const imported = await call(tenants.merchant.auth, "GET", `/order_stores/${id}/orders?status=pending`);
    expect(imported.json().orders).toHaveLength(3);
  });

  it("refuses a webhook signed with another store's secret", async () => {
    const otherShop = standIn.addShop();
    const otherStore = await connect(tenants.other, otherShop);
    const delivery = standIn.webhook(otherShop, "orders/create", standInOrder(7, "2026-03-05T00:00:00Z"));
    expect((await deliver(delivery.body, delivery.headers, otherStore)).statusCode).toBe(200);
    expect((await deliver(delivery.body, { ...delivery.headers, "x-shopify-webhook-id": "again" })).statusCode).toBe(
      401,
    );
    expect(await orders()).toHaveLength(0);
  });

  it("has nothing to sync in a custom store", async () => {
    const custom = await call(tenants.merchant.auth, "POST", "/order_stores", {
      order_store: { name: "Web", service_type: "custom" },
    });
    const refused = await call(tenants.merchant.auth, "POST", `/order_stores/${custom.json().order_store.id}/sync`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error_code).toBe("order_store.no_connector");
  });
});
