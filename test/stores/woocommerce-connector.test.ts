import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.js";
import { OutboundClient, OutboundPolicy } from "../../src/net/outbound-guard.js";
import { oauth1Signature, signOAuth1 } from "../../src/stores/woocommerce/oauth1.js";
import {
  WooCommerceConnector,
  wooCredentials,
  woocommercePlatform,
} from "../../src/stores/woocommerce/woocommerce-connector.js";
import {
  type StandInOrder,
  type StandInSite,
  standInOrder,
  WooCommerceStandIn,
  wooTime,
  wpSpecialcharsDecode,
} from "../stand-ins/woocommerce/woocommerce-stand-in.js";
import { describeConnectorContract, type SeedOrder } from "./connector-contract.js";

const dollars = (cents: number) => (cents / 100).toFixed(2);
const waits: number[] = [];
const clock = new ManualClock(new Date("2026-11-01T00:00:00.000Z"));

function toStandIn(seed: SeedOrder): StandInOrder {
  const itemsCents = seed.items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
  const base = standInOrder(seed.n, seed.updatedAt);
  return {
    ...base,
    shipping_total: dollars(seed.shippingCents),
    total_tax: dollars(seed.taxCents),
    total: dollars(itemsCents + seed.taxCents + seed.shippingCents),
    shipping: { ...base.shipping, postcode: seed.postalCode },
    line_items: seed.items.map((item, index) => ({
      id: seed.n * 100 + index,
      name: `Item ${item.sku}`,
      product_id: 500 + index,
      variation_id: 0,
      quantity: item.quantity,
      subtotal: dollars(item.priceCents * item.quantity),
      total: dollars(item.priceCents * item.quantity),
      sku: item.sku,
      price: item.priceCents / 100,
      image: { id: 0, src: "" },
      meta_data: [],
    })),
  };
}

/** The stand-in listens on this machine: the outbound guard lets every private address through. */
const guardLetsStandInThrough = new OutboundClient(new OutboundPolicy(true));

/** Over plain HTTP, straight to the site (OAuth 1.0a); or as an https site behind an override (basic auth). */
function connectorTo(standIn: WooCommerceStandIn, site: StandInSite, secure = false): WooCommerceConnector {
  return new WooCommerceConnector(
    wooCredentials({
      site_url: secure ? `https://shop.example.com${site.path}` : standIn.siteUrl(site),
      consumer_key: site.consumerKey,
      consumer_secret: site.consumerSecret,
      webhook_secret: site.webhookSecret,
    }),
    {
      clock,
      timeoutMs: 5000,
      baseUrl: secure ? standIn.origin : undefined,
      outbound: guardLetsStandInThrough,
      wait: async (ms) => void waits.push(ms),
    },
  );
}

const contractStandIn = new WooCommerceStandIn();
let site: StandInSite;

describeConnectorContract("WooCommerce", {
  start: async () => void (await contractStandIn.start()),
  stop: () => contractStandIn.stop(),
  shopWith: (orders) => {
    site = contractStandIn.addSite({ orders: orders.map(toStandIn) });
    return connectorTo(contractStandIn, site);
  },
  refusedConnector: () => connectorTo(contractStandIn, { ...contractStandIn.addSite(), consumerSecret: "cs_revoked" }),
  throttle: (times) => contractStandIn.fail("throttled", times),
  signedWebhook: (n, kind, deliveryId) => {
    const order = site.orders.find((o) => o.id === 7000 + n) as StandInOrder;
    const delivery = contractStandIn.webhook(site, `order.${kind}`, order, deliveryId);
    return { rawBody: Buffer.from(delivery.body), headers: delivery.headers };
  },
  trackingNumbersOf: (n) =>
    (site.orders.find((o) => o.id === 7000 + n)?.notes ?? []).flatMap(
      (note) => /Tracking number: (\S+)/.exec(note.note)?.slice(1) ?? [],
    ),
  refOf: (n) => ({ platformOrderId: String(7000 + n), orderNumber: String(7000 + n) }),
});

describe("the WooCommerce connector", () => {
  const standIn = new WooCommerceStandIn();
  beforeAll(() => standIn.start());
  afterAll(() => standIn.stop());

  it("uses basic auth for an https site and OAuth 1.0a for a plain-HTTP one; a bad secret is an auth failure", async () => {
    const shop = standIn.addSite({ orders: [standInOrder(1, "2026-01-01T00:00:00Z")] });
    expect(
      (await connectorTo(standIn, shop, true).fetchOrders({ updatedSince: null, cursor: null })).orders,
    ).toHaveLength(1);
    expect((await connectorTo(standIn, shop).fetchOrders({ updatedSince: null, cursor: null })).orders).toHaveLength(1);
    for (const secure of [true, false]) {
      const refused = connectorTo(standIn, { ...shop, consumerSecret: "cs_wrong" }, secure);
      await expect(refused.fetchOrders({ updatedSince: null, cursor: null })).rejects.toMatchObject({
        kind: "auth",
        status: 401,
        // The site is an address a user gave: its words stay out, its status and a fixed message go on.
        message: "WooCommerce answered 401: the site refused the consumer key and secret",
      });
    }
  });

  it("signs OAuth requests as RFC 5849 asks: the query sorted and encoded, the signature left out of its own base", () => {
    const url = new URL("http://Shop.Example.com:80/wp-json/wc/v3/orders?per_page=5&a=b%20c");
    const signed = signOAuth1("get", url, {
      consumerKey: "ck",
      consumerSecret: "cs",
      timestamp: 1_700_000_000,
      nonce: "n1",
    });
    expect(signed.searchParams.get("oauth_signature_method")).toBe("HMAC-SHA256");
    expect(signed.searchParams.get("oauth_signature")).toBe(oauth1Signature("GET", signed, "cs"));
    // Another nonce is another signature; the port 80 and the host's case do not count.
    const other = signOAuth1("GET", url, {
      consumerKey: "ck",
      consumerSecret: "cs",
      timestamp: 1_700_000_000,
      nonce: "n2",
    });
    expect(other.searchParams.get("oauth_signature")).not.toBe(signed.searchParams.get("oauth_signature"));
    expect(signed.origin).toBe("http://shop.example.com");
  });

  it("pages by X-WP-TotalPages, asks for modified orders oldest first, and reads from a second before updatedSince", async () => {
    const shop = standIn.addSite({
      orders: [3, 1, 2].map((n) => standInOrder(n, `2026-02-0${n}T10:00:00Z`)),
    });
    const connector = connectorTo(standIn, shop);
    standIn.requests.length = 0;
    const first = await connector.fetchOrders({ updatedSince: "2026-02-02T10:00:00.000Z", cursor: null, pageSize: 1 });
    expect(first.orders.map((o) => o.orderNumber)).toEqual(["7002"]);
    expect(first.nextCursor).toBe("2");
    const second = await connector.fetchOrders({ updatedSince: "2026-02-02T10:00:00.000Z", cursor: "2", pageSize: 1 });
    expect(second.orders.map((o) => o.orderNumber)).toEqual(["7003"]);
    expect(second.nextCursor).toBeNull();
    expect(standIn.requests.filter((r) => r.startsWith("GET orders"))).toHaveLength(2);
  });

  it("waits out 429 as Retry-After says and 503 with backoff, then gives up saying why", async () => {
    const shop = standIn.addSite({ orders: [standInOrder(1, "2026-01-01T00:00:00Z")] });
    const connector = connectorTo(standIn, shop);
    waits.length = 0;
    standIn.fail("throttled", 1);
    standIn.fail("unavailable", 2);
    expect((await connector.fetchOrders({ updatedSince: null, cursor: null })).orders).toHaveLength(1);
    expect(waits).toEqual([2000, 2000, 4000]);
    standIn.fail("throttled", 5);
    await expect(connector.fetchOrders({ updatedSince: null, cursor: null })).rejects.toMatchObject({
      kind: "throttled",
    });
    standIn.fail("unavailable", 5);
    await expect(connector.verifyCredentials()).rejects.toMatchObject({ kind: "unavailable", status: 503 });
  });

  it("maps an order exactly: cents from decimal text, variations, weights from the products in the store's unit", async () => {
    const order = standInOrder(5, "2026-03-01T12:30:00Z", {
      number: "A-1005",
      total: "61.13",
      total_tax: "3.14",
      shipping_total: "7.99",
      customer_note: "Leave at the door",
      line_items: [
        {
          id: 11,
          name: "Tee - Large",
          product_id: 40,
          variation_id: 41,
          quantity: 3,
          subtotal: "30.00",
          total: "30.00",
          sku: "TEE-L",
          price: 10,
          image: { id: 1, src: "https://shop.example.com/tee.png" },
          meta_data: [
            { id: 1, key: "pa_size", value: "large", display_key: "Size", display_value: "Large" },
            { id: 2, key: "_reduced_stock", value: "3", display_key: "_reduced_stock", display_value: "3" },
          ],
        },
        {
          id: 12,
          name: "Mug",
          product_id: 50,
          variation_id: 0,
          quantity: 1,
          subtotal: "20.00",
          total: "20.00",
          sku: "",
          price: 20,
          image: { id: 0, src: "" },
          meta_data: [],
        },
      ],
    });
    const shop = standIn.addSite({
      orders: [order],
      weightUnit: "lbs",
      products: [
        { id: 40, weight: "", variations: [{ id: 41, weight: "0.5" }] },
        { id: 50, weight: "1.25", variations: [] },
      ],
    });
    const [mapped] = (await connectorTo(standIn, shop).fetchOrders({ updatedSince: null, cursor: null })).orders;
    expect(mapped).toMatchObject({
      platformOrderId: "7005",
      orderNumber: "A-1005",
      createdAt: "2026-03-01T12:30:00.000Z",
      updatedAt: "2026-03-01T12:30:00.000Z",
      paymentStatus: "paid",
      orderStatus: "processing",
      shipmentStatus: "pending",
      shippingMethod: "Flat rate",
      notes: "Leave at the door",
      customer: { platformCustomerId: "12", email: "ada@example.com" },
      totals: { itemsCents: 5000, taxCents: 314, shippingCents: 799, totalCents: 6113 },
      shippingAddress: { address1: "1 Main St", city: "Austin", state: "TX", postal_code: "78701", country: "US" },
    });
    expect(mapped?.items).toEqual([
      {
        platformLineItemId: "11",
        name: "Tee - Large",
        sku: "TEE-L",
        productId: "40",
        variantId: "41",
        variantName: "Large",
        quantity: 3,
        priceCents: 1000,
        weightOz: 8,
        imageUrl: "https://shop.example.com/tee.png",
      },
      {
        platformLineItemId: "12",
        name: "Mug",
        sku: null,
        productId: "50",
        variantId: null,
        variantName: null,
        quantity: 1,
        priceCents: 2000,
        weightOz: 20,
        imageUrl: null,
      },
    ]);
  });

  it("writes a shipment back as status completed with a tracking note, and reverses it to processing", async () => {
    const shop = standIn.addSite({ orders: [standInOrder(8, "2026-04-01T00:00:00Z")] });
    const connector = connectorTo(standIn, shop);
    const ref = { platformOrderId: "7008", orderNumber: "7008" };
    const written = await connector.writeShipment(ref, {
      trackingNumber: "1Z999AA10123456784",
      carrier: "UPS",
      service: "Ground",
      trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
      shipDate: "2026-04-02T00:00:00.000Z",
      notify: true,
    });
    const order = shop.orders[0] as StandInOrder;
    expect(order.status).toBe("completed");
    expect(order.notes).toEqual([
      expect.objectContaining({
        id: Number(written.platformShipmentId),
        customer_note: true,
        note: expect.stringMatching(/UPS Ground.*1Z999AA10123456784[\s\S]*https:\/\/www\.ups\.com/),
      }),
    ]);
    await connector.cancelShipment(ref, written.platformShipmentId);
    expect(order.status).toBe("processing");
    expect(order.notes).toEqual([
      expect.objectContaining({ customer_note: false, note: expect.stringContaining("cancelled") }),
    ]);
    await expect(
      connector.writeShipment(
        { platformOrderId: "9999", orderNumber: "9999" },
        {
          trackingNumber: "1",
          carrier: "UPS",
          service: "Ground",
          trackingUrl: null,
          shipDate: "2026-04-02T00:00:00.000Z",
          notify: false,
        },
      ),
    ).rejects.toMatchObject({ kind: "not_found" });
  });

  it("verifies webhooks: order topics mapped, other topics taken without an order, the unsigned ping known apart", () => {
    const order = standInOrder(9, "2026-05-01T00:00:00Z");
    const shop = standIn.addSite({ orders: [order] });
    const connector = connectorTo(standIn, shop);
    const created = standIn.webhook(shop, "order.created", order, "d-1");
    expect(connector.verifyWebhook(Buffer.from(created.body), created.headers)).toMatchObject({
      ok: true,
      topic: "order.created",
      deliveryId: "order.created:7009:2026-05-01T00:00:00",
      order: { platformOrderId: "7009", updatedAt: "2026-05-01T00:00:00.000Z" },
    });
    const product = standIn.webhook(shop, "product.updated", order, "d-2");
    expect(connector.verifyWebhook(Buffer.from(product.body), product.headers)).toEqual({
      ok: true,
      topic: "product.updated",
      deliveryId: "product.updated:7009:2026-05-01T00:00:00",
      order: null,
    });
    // The ping is recognised before any store is read, and is no signed delivery.
    expect(woocommercePlatform.isUnsignedPing?.(Buffer.from("webhook_id=31"))).toBe(true);
    expect(woocommercePlatform.isUnsignedPing?.(Buffer.from(`webhook_id=${"1".repeat(21)}`))).toBe(false);
    expect(connector.verifyWebhook(Buffer.from("webhook_id=31"), {})).toMatchObject({ ok: false });
    const forged = { ...created.headers, "x-wc-webhook-signature": Buffer.from("forged").toString("base64") };
    expect(connector.verifyWebhook(Buffer.from(created.body), forged)).toMatchObject({ ok: false });
    const noSecret = new WooCommerceConnector(
      wooCredentials({ site_url: standIn.siteUrl(shop), consumer_key: "ck", consumer_secret: "cs" }),
      { clock, timeoutMs: 1000, outbound: guardLetsStandInThrough, wait: async () => {} },
    );
    expect(noSecret.verifyWebhook(Buffer.from(created.body), created.headers)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("webhook_secret"),
    });
  });

  it("falls back to consumer_key and consumer_secret in the query over HTTPS when the host strips Authorization", async () => {
    const shop = standIn.addSite({ orders: [standInOrder(1, "2026-01-01T00:00:00Z")], stripsAuthorization: true });
    const connector = connectorTo(standIn, shop, true);
    const before = standIn.requests.length;
    expect((await connector.fetchOrders({ updatedSince: null, cursor: null })).orders).toHaveLength(1);
    // Refused once as anonymous, then asked again with the key in the query; later calls go straight there.
    expect(standIn.requests.slice(before)).toEqual(["GET orders", "GET orders"]);
    await connector.verifyCredentials();
    expect(standIn.requests.slice(before)).toHaveLength(3);

    // A key the site refuses is refused in the query too: one more try, not a loop.
    const refused = connectorTo(standIn, { ...shop, consumerSecret: "cs_wrong" }, true);
    const tried = standIn.requests.length;
    await expect(refused.verifyCredentials()).rejects.toMatchObject({ kind: "auth", status: 401 });
    expect(standIn.requests.length - tried).toBe(2);
    // A site that saw the key and refused it is not asked again.
    const seen = standIn.addSite();
    const wrong = connectorTo(standIn, { ...seen, consumerSecret: "cs_wrong" }, true);
    const once = standIn.requests.length;
    await expect(wrong.verifyCredentials()).rejects.toMatchObject({ kind: "auth", status: 401 });
    expect(standIn.requests.length - once).toBe(1);
    // Over plain HTTP the OAuth signature is in the query already: no header to lose.
    const plain = connectorTo(standIn, shop);
    const signed = standIn.requests.length;
    await plain.verifyCredentials();
    expect(standIn.requests.length - signed).toBe(1);
  });

  it("is refused by the stand-in, as by WordPress, for a list argument outside the route's schema", async () => {
    const shop = standIn.addSite();
    const listed = (query: string) =>
      fetch(
        `${standIn.siteUrl(shop)}/wp-json/wc/v3/orders?${query}&consumer_key=${shop.consumerKey}&consumer_secret=${shop.consumerSecret}`,
      );
    expect((await listed("modified_after=2026-01-01T00:00:00&order=asc&dates_are_gmt=true")).status).toBe(200);
    for (const bad of ["modified_after=yesterday", "order=up", "dates_are_gmt=yes", "page=0"]) {
      expect((await listed(bad)).status, bad).toBe(400);
    }
  });

  it("checks a webhook signed with a secret holding HTML entities as WooCommerce signs it: decoded once", () => {
    const secret = "s&amp;cr&#039;t&#x3c;&amp;lt;&#0062;&AMP;";
    expect(wpSpecialcharsDecode(secret)).toBe("s&cr't&#x3c;&lt;>&AMP;");
    const order = standInOrder(3, "2026-05-01T00:00:00Z");
    const shop = standIn.addSite({ orders: [order], webhookSecret: secret });
    const delivery = standIn.webhook(shop, "order.updated", order, "d-1");
    expect(connectorTo(standIn, shop).verifyWebhook(Buffer.from(delivery.body), delivery.headers)).toMatchObject({
      ok: true,
      order: { platformOrderId: "7003" },
    });
  });

  it("keys a delivery by its topic, resource and modification time, not by WooCommerce's delivery id", () => {
    const first = standInOrder(1, "2026-05-01T00:00:00Z");
    const second = standInOrder(2, "2026-05-01T00:00:00Z");
    const shop = standIn.addSite({ orders: [first, second] });
    const connector = connectorTo(standIn, shop);
    const key = (topic: string, order: StandInOrder, deliveryId?: string) => {
      const delivery = standIn.webhook(shop, topic, order, deliveryId);
      const verdict = connector.verifyWebhook(Buffer.from(delivery.body), delivery.headers);
      if (!verdict.ok) throw new Error(verdict.reason);
      return { key: verdict.deliveryId, header: delivery.headers["x-wc-webhook-delivery-id"] };
    };
    // WooCommerce gives two deliveries in one second the same id: they are two changes all the same.
    const a = key("order.created", first);
    const b = key("order.created", second);
    expect(a.header).toBe(b.header);
    expect(a.key).not.toBe(b.key);
    // The same change delivered again under another id is the same delivery.
    expect(key("order.created", first, "other").key).toBe(a.key);
    // A later change of the same order, or another topic about it, is not.
    const later = { ...first, date_modified_gmt: wooTime("2026-05-01T00:00:01Z") };
    expect(key("order.created", later).key).not.toBe(a.key);
    expect(key("order.updated", first).key).not.toBe(a.key);
  });

  it("refuses credentials of the wrong shape before any call", () => {
    expect(() => wooCredentials({ site_url: "shop", consumer_key: "ck", consumer_secret: "cs" })).toThrow(/site_url/);
    expect(() =>
      wooCredentials({ site_url: "ftp://shop.example.com", consumer_key: "ck", consumer_secret: "cs" }),
    ).toThrow(/http/);
    expect(() => wooCredentials({ site_url: "https://shop.example.com", consumer_key: "ck" })).toThrow(/consumer/);
  });
});
