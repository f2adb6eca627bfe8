import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.js";
import { OutboundClient, OutboundPolicy } from "../../src/net/outbound-guard.js";
import { ShopifyConnector, shopifyCredentials } from "../../src/stores/shopify/shopify-connector.js";
import type { StoreConnector } from "../../src/stores/store-connector.js";
import {
  ShopifyStandIn,
  type StandInOrder,
  type StandInShop,
  standInOrder,
} from "../stand-ins/shopify/shopify-stand-in.js";
import { describeConnectorContract, type SeedOrder } from "./connector-contract.js";

const standIn = new ShopifyStandIn();
const waits: number[] = [];
let shop: StandInShop;

const dollars = (cents: number) => (cents / 100).toFixed(2);

function toStandIn(seed: SeedOrder): StandInOrder {
  const itemsCents = seed.items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
  return standInOrder(seed.n, seed.updatedAt, {
    subtotal: dollars(itemsCents),
    tax: dollars(seed.taxCents),
    shipping: dollars(seed.shippingCents),
    total: dollars(itemsCents + seed.taxCents + seed.shippingCents),
    shippingAddress: { ...standInOrder(seed.n, seed.updatedAt).shippingAddress!, zip: seed.postalCode },
    lineItems: seed.items.map((item, index) => ({
      id: (450_000_000 + seed.n) * 10 + index,
      name: `Item ${item.sku}`,
      sku: item.sku,
      quantity: item.quantity,
      price: dollars(item.priceCents),
      grams: 100,
      productId: 8000 + index,
      variantId: 9000 + index,
      variantTitle: null,
      locationId: 1,
    })),
  });
}

/** Shopify's host is its own (or the operator's override): no user-given address to guard. */
const unused = new OutboundClient(new OutboundPolicy(false));

function connectorTo(target: StandInShop): ShopifyConnector {
  return new ShopifyConnector(
    shopifyCredentials({
      shop_domain: target.domain,
      access_token: target.accessToken,
      webhook_secret: target.webhookSecret,
    }),
    {
      clock: new ManualClock(),
      timeoutMs: 5000,
      baseUrl: standIn.baseUrl,
      outbound: unused,
      wait: async (ms) => {
        waits.push(ms);
      },
    },
  );
}

describeConnectorContract("Shopify", {
  start: async () => void (await standIn.start()),
  stop: () => standIn.stop(),
  shopWith: (orders) => {
    shop = standIn.addShop({ orders: orders.map(toStandIn) });
    return connectorTo(shop);
  },
  refusedConnector: () => connectorTo({ ...standIn.addShop(), accessToken: `shpat_${"0".repeat(32)}` }),
  throttle: (times) => standIn.fail("throttled", times),
  signedWebhook: (n, kind, deliveryId) => {
    const order = (shop.orders as StandInOrder[]).find((o) => o.id === 450_000_000 + n) as StandInOrder;
    const delivery = standIn.webhook(shop, kind === "created" ? "orders/create" : "orders/updated", order, deliveryId);
    return { rawBody: Buffer.from(delivery.body), headers: delivery.headers };
  },
  trackingNumbersOf: (n) =>
    shop.fulfillments
      .filter((f) => f.orderId === 450_000_000 + n && f.status === "SUCCESS")
      .map((f) => f.trackingInfo.number ?? ""),
  refOf: (n) => ({ platformOrderId: String(450_000_000 + n), orderNumber: `#${1000 + n}` }),
});

describe("the Shopify connector", () => {
  const own = new ShopifyStandIn();
  const fresh = (changes: Partial<StandInShop> = {}): StoreConnector => {
    shop = own.addShop(changes);
    return new ShopifyConnector(
      shopifyCredentials({
        shop_domain: shop.domain,
        access_token: shop.accessToken,
        webhook_secret: shop.webhookSecret,
      }),
      {
        clock: new ManualClock(),
        timeoutMs: 5000,
        baseUrl: own.baseUrl,
        outbound: unused,
        wait: async (ms) => void waits.push(ms),
      },
    );
  };
  beforeAll(() => own.start());
  afterAll(() => own.stop());

  it("honours the throttle status: waits for the bucket to refill before a call it cannot cover", async () => {
    const connector = fresh({ orders: [standInOrder(1, "2026-01-01T00:00:00Z")], bucketAfterCall: 10 });
    waits.length = 0;
    await connector.fetchOrders({ updatedSince: null, cursor: null, pageSize: 5 });
    await connector.fetchOrders({ updatedSince: null, cursor: null, pageSize: 5 });
    // Cost 2 + 5 × (19 + 5 × 10) = 347 points, 10 left, restoring 50 a second: 6.74 s.
    expect(waits).toEqual([6740]);
    shop.bucketAfterCall = 1000;
    own.fail("throttled", 1);
    waits.length = 0;
    await connector.fetchOrders({ updatedSince: null, cursor: null, pageSize: 5 });
    expect(waits.length).toBe(2);
    own.fail("429", 1);
    waits.length = 0;
    await connector.fetchOrders({ updatedSince: null, cursor: null, pageSize: 5 });
    expect(waits).toEqual([2000]);
  });

  it("reads again after a 5xx, and reports Shopify unavailable when it stays down", async () => {
    const connector = fresh({ orders: [standInOrder(1, "2026-01-01T00:00:00Z")] });
    own.fail("500", 2);
    expect((await connector.fetchOrders({ updatedSince: null, cursor: null })).orders).toHaveLength(1);
    own.fail("500", 3);
    await expect(connector.fetchOrders({ updatedSince: null, cursor: null })).rejects.toMatchObject({
      kind: "unavailable",
    });
  });

  it("does not repeat a fulfillment whose answer was lost", async () => {
    const order = standInOrder(5, "2026-01-01T00:00:00Z");
    const connector = fresh({ orders: [order] });
    const ref = { platformOrderId: String(order.id), orderNumber: order.name };
    await connector.verifyCredentials();
    const before = own.operations.length;
    // The fulfillment orders read succeeds, then the mutation's answer is a 500.
    own.fail("500", 1, "PorterFulfillmentCreate");
    await expect(
      connector.writeShipment(ref, {
        trackingNumber: "1",
        carrier: "ups",
        service: "ground",
        trackingUrl: null,
        shipDate: "2026-01-02T00:00:00.000Z",
        notify: false,
      }),
    ).rejects.toMatchObject({ kind: "unavailable" });
    expect(own.operations.slice(before)).toEqual(["PorterFulfillmentOrders", "PorterFulfillmentCreate"]);
  });

  it("gives up with a throttled failure when Shopify keeps throttling", async () => {
    const connector = fresh();
    own.fail("throttled", 10);
    await expect(connector.fetchOrders({ updatedSince: null, cursor: null })).rejects.toMatchObject({
      kind: "throttled",
    });
  });

  it("reports a missing access scope and protected customer data not granted, not an empty list", async () => {
    const noScope = fresh({ orders: [standInOrder(1, "2026-01-01T00:00:00Z")], scopes: new Set() });
    await expect(noScope.fetchOrders({ updatedSince: null, cursor: null })).rejects.toMatchObject({
      kind: "scope",
      message: expect.stringContaining("read_orders"),
    });
    const noCustomerData = fresh({ orders: [standInOrder(1, "2026-01-01T00:00:00Z")], customerDataAccess: false });
    await expect(noCustomerData.fetchOrders({ updatedSince: null, cursor: null })).rejects.toMatchObject({
      kind: "scope",
      message: expect.stringContaining("Customer object"),
    });
  });

  it("reads every line item of an order with more than the orders query takes", async () => {
    const lineItems = Array.from({ length: 23 }, (_, i) => ({
      ...standInOrder(1, "x").lineItems[0]!,
      id: 1000 + i,
      sku: `S-${i}`,
      grams: 1000,
    }));
    const connector = fresh({ orders: [standInOrder(1, "2026-01-01T00:00:00Z", { lineItems })] });
    const page = await connector.fetchOrders({ updatedSince: null, cursor: null });
    expect(page.orders[0]?.items.map((item) => item.sku)).toEqual(lineItems.map((item) => item.sku));
    expect(page.orders[0]?.items[0]).toMatchObject({
      weightOz: 35.27,
      priceCents: 1250,
      variantId: "9001",
      productId: "8001",
    });
  });

  it("makes one fulfillment per assigned location and cancels them all", async () => {
    const base = standInOrder(2, "2026-01-01T00:00:00Z");
    const order = { ...base, lineItems: [base.lineItems[0]!, { ...base.lineItems[0]!, id: 77, locationId: 2 }] };
    const connector = fresh({ orders: [order] });
    const ref = { platformOrderId: String(order.id), orderNumber: order.name };
    const shipment = {
      trackingNumber: "9400111",
      carrier: "usps",
      service: "Priority",
      trackingUrl: null,
      shipDate: "2026-01-02T00:00:00.000Z",
      notify: true,
      items: [],
    };
    const written = await connector.writeShipment(ref, shipment);
    expect(written.platformShipmentId).toMatch(/^\d+,\d+$/);
    expect(shop.fulfillments.map((f) => [f.trackingInfo, f.notifyCustomer, f.fulfillmentOrderIds.length])).toEqual([
      [{ company: "USPS", number: "9400111" }, true, 1],
      [{ company: "USPS", number: "9400111" }, true, 1],
    ]);
    await expect(connector.writeShipment(ref, shipment)).rejects.toMatchObject({ kind: "rejected" });
    await connector.cancelShipment?.(ref, written.platformShipmentId);
    expect(shop.fulfillments.map((f) => f.status)).toEqual(["CANCELLED", "CANCELLED"]);
  });

  it("refuses a shop domain that is not the shop's myshopify.com domain (the token goes nowhere else)", () => {
    const token = `shpat_${"0f".repeat(16)}`;
    expect(() => shopifyCredentials({ shop_domain: "evil.example.com", access_token: token })).toThrow(/myshopify/);
    expect(shopifyCredentials({ shop_domain: "https://My-Shop.myshopify.com/", access_token: token }).shopDomain).toBe(
      "my-shop.myshopify.com",
    );
    expect(() => shopifyCredentials({ shop_domain: "a.myshopify.com", access_token: "shpat_revoked" })).toThrow(
      /shpat_ and 32 hex/,
    );
  });

  it("gets a token with the Dev Dashboard app's client id and secret, and a new one before it expires", async () => {
    const clock = new ManualClock();
    clock.set(new Date("2026-03-01T00:00:00Z"));
    shop = own.addShop({ orders: [standInOrder(1, "2026-01-01T00:00:00Z")] });
    const connector = new ShopifyConnector(
      shopifyCredentials({ shop_domain: shop.domain, client_id: shop.clientId, client_secret: shop.clientSecret }),
      { clock, timeoutMs: 5000, baseUrl: own.baseUrl, outbound: unused, wait: async () => undefined },
    );
    await connector.verifyCredentials();
    await connector.fetchOrders({ updatedSince: null, cursor: null });
    expect(shop.tokenGrants).toBe(1);
    // Granted for 86,399 s; renewed five minutes before the end.
    clock.advance((86_399 - 5 * 60 - 1) * 1000);
    await connector.verifyCredentials();
    expect(shop.tokenGrants).toBe(1);
    clock.advance(2000);
    await connector.verifyCredentials();
    expect(shop.tokenGrants).toBe(2);
    // A token Shopify stopped taking is replaced once, not reported as a revoked store.
    own.fail("401", 1);
    await connector.verifyCredentials();
    expect(shop.tokenGrants).toBe(3);
    const wrong = new ShopifyConnector(
      shopifyCredentials({ shop_domain: shop.domain, client_id: shop.clientId, client_secret: "shpss_wrong" }),
      { clock, timeoutMs: 5000, baseUrl: own.baseUrl, outbound: unused, wait: async () => undefined },
    );
    await expect(wrong.verifyCredentials()).rejects.toMatchObject({ kind: "auth" });
  });
});
