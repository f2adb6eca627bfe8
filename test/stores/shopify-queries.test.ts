import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.js";
import { OutboundClient, OutboundPolicy } from "../../src/net/outbound-guard.js";
import { ShopifyConnector, shopifyCredentials } from "../../src/stores/shopify/shopify-connector.js";
import * as wire from "../../src/stores/shopify/shopify-wire.js";
import {
  deprecatedFields,
  requestedCost,
  schemaViolations,
  shopifySchema,
  shopifySchemaAvailable,
} from "../contracts/shopify-schema.js";
import { ShopifyStandIn, standInOrder } from "../stand-ins/shopify/shopify-stand-in.js";

/** Every document Porter sends, with the largest variables it sends it with. */
const DOCUMENTS: [string, string, Record<string, unknown>][] = [
  ["orders", wire.ORDERS_QUERY, { first: wire.MAX_ORDERS_PER_PAGE, after: "c", query: "updated_at:>='x'" }],
  ["line items", wire.LINE_ITEMS_QUERY, { id: "gid://shopify/Order/1", after: "c" }],
  ["fulfillment orders", wire.FULFILLMENT_ORDERS_QUERY, { id: "gid://shopify/Order/1", after: "c" }],
  ["fulfillment order lines", wire.FULFILLMENT_ORDER_LINES_QUERY, { id: "gid://shopify/FulfillmentOrder/1" }],
  ["fulfillment create", wire.FULFILLMENT_CREATE, { fulfillment: {} }],
  ["fulfillment cancel", wire.FULFILLMENT_CANCEL, { id: "gid://shopify/Fulfillment/1" }],
  ["shop", wire.SHOP_QUERY, {}],
];

describe.runIf(shopifySchemaAvailable())("Shopify's Admin schema and query cost", () => {
  it("counts cost by Shopify's published rules", () => {
    const schema = shopifySchema();
    // A connection is 2 + first × one node; an object 1; a scalar 0.
    expect(
      requestedCost(
        "query($n: Int!) { orders(first: $n) { pageInfo { hasNextPage } nodes { id customer { id } lineItems(first: 10) { nodes { id } } } } }",
        { n: 50 },
        schema,
      ),
    ).toBe(2 + 50 * (1 + 1 + 2 + 10 * 1));
    expect(requestedCost("mutation { fulfillmentCancel(id: 1) { userErrors { message } } }", {}, schema)).toBe(10);
    expect(requestedCost("query { shop { name } }", {}, schema)).toBe(1);
  });

  it.each(DOCUMENTS)(
    "the %s document validates, reads no deprecated field, and requests at most 1,000 points",
    (_, query, variables) => {
      const schema = shopifySchema();
      expect(schemaViolations(schema, query)).toEqual([]);
      expect(deprecatedFields(schema, query)).toEqual([]);
      expect(requestedCost(query, variables, schema)).toBeLessThanOrEqual(wire.MAX_QUERY_COST);
    },
  );

  it("every orders page size the connector sends stays under the limit", () => {
    const schema = shopifySchema();
    for (let first = 1; first <= wire.MAX_ORDERS_PER_PAGE; first += 1) {
      expect(requestedCost(wire.ORDERS_QUERY, { first }, schema)).toBeLessThanOrEqual(wire.MAX_QUERY_COST);
    }
  });
});

describe("the Shopify connector's requests", () => {
  const standIn = new ShopifyStandIn();
  beforeAll(() => standIn.start());
  afterAll(() => standIn.stop());

  it("pages orders, line items and fulfillment orders under the cost limit, whatever page size is asked", async () => {
    const item = standInOrder(1, "x").lineItems[0]!;
    // 60 line items over 16 locations, 45 of them at one: every nested connection takes more than one page.
    const lineItems = Array.from({ length: 60 }, (_, i) => ({
      ...item,
      id: 5000 + i,
      sku: `S-${i}`,
      quantity: 1,
      locationId: i < 45 ? 1 : i - 43,
    }));
    const orders = Array.from({ length: 23 }, (_, n) =>
      standInOrder(n + 1, `2026-01-01T00:00:${String(n).padStart(2, "0")}Z`, n === 0 ? { lineItems } : {}),
    );
    const shop = standIn.addShop({ orders });
    const connector = new ShopifyConnector(
      shopifyCredentials({ shop_domain: shop.domain, access_token: shop.accessToken }),
      {
        clock: new ManualClock(),
        timeoutMs: 5000,
        baseUrl: standIn.baseUrl,
        outbound: new OutboundClient(new OutboundPolicy(false)),
        wait: async () => undefined,
      },
    );
    const seen = [];
    let cursor: string | null = null;
    do {
      const page = await connector.fetchOrders({ updatedSince: null, cursor, pageSize: 250 });
      seen.push(...page.orders);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(23);
    expect(seen[0]?.items.map((i) => i.sku)).toEqual(lineItems.map((i) => i.sku));
    const ref = { platformOrderId: String(orders[0]!.id), orderNumber: orders[0]!.name };
    const written = await connector.writeShipment(ref, {
      trackingNumber: "1Z",
      carrier: "ups",
      service: "ground",
      trackingUrl: null,
      shipDate: "2026-01-02T00:00:00.000Z",
      notify: false,
      items: lineItems.map((line) => ({ platformLineItemId: String(line.id), quantity: 1 })),
    });
    expect(written.platformShipmentId.split(",")).toHaveLength(16);
    expect(shop.fulfillments.flatMap((f) => f.lineItems)).toHaveLength(60);
    const operations = new Set(standIn.requests.map((r) => /(?:query|mutation) (\w+)/.exec(r.query)?.[1]));
    expect(operations).toEqual(
      new Set([
        "PorterOrders",
        "PorterOrderLineItems",
        "PorterFulfillmentOrders",
        "PorterFulfillmentOrderLines",
        "PorterFulfillmentCreate",
      ]),
    );
    expect(Math.max(...standIn.requests.map((r) => r.cost))).toBeLessThanOrEqual(wire.MAX_QUERY_COST);
  });

  it("is refused as Shopify refuses a query over 1,000 points", async () => {
    const shop = standIn.addShop();
    const response = await fetch(`${standIn.baseUrl}/admin/api/2025-01/graphql.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-access-token": shop.accessToken },
      body: JSON.stringify({
        query:
          "query PorterOrders($first: Int!) { orders(first: $first) { nodes { id lineItems(first: 10) { nodes { id } } } } }",
        variables: { first: 100 },
      }),
    });
    const body = (await response.json()) as { data?: unknown; errors: { extensions: unknown }[] };
    expect(body.errors[0]?.extensions).toMatchObject({ code: "MAX_COST_EXCEEDED", cost: 2 + 100 * 13, maxCost: 1000 });
    expect(body.data).toBeUndefined();
  });
});
