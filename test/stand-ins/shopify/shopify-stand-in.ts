import { createHmac, randomUUID } from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import type { GraphQLSchema } from "graphql";
import { requestedCost, SHOPIFY_SCHEMA_FILE, schemaViolations, shopifySchema } from "../../contracts/shopify-schema.js";
import { FaultQueue, StandInServer, sendJson } from "../stand-in-server.js";

/**
 * A local Shopify Admin GraphQL API of ours, written from Shopify's documentation: `POST
 * /admin/api/{version}/graphql.json` with the `X-Shopify-Access-Token` header, answering the
 * operations Porter sends (recognised by their operation names): orders by update time with cursor
 * pagination and the `updated_at:>=` search filter, an order's further line items, its fulfillment
 * orders, `fulfillmentCreate` and `fulfillmentCancel`, and the shop. Every answer carries
 * `extensions.cost` with a throttle status; the requested cost is Shopify's published arithmetic
 * (the one the cost test uses), and a query over 1,000 points is refused with `MAX_COST_EXCEEDED`
 * as Shopify does. Where Shopify's Admin schema is at hand, a document that does not validate
 * against it is refused too. On demand it answers as Shopify does when throttled
 * (`THROTTLED`, or HTTP 429 with `Retry-After`), for a revoked token (401), and for a missing
 * access scope or protected customer data not granted (`ACCESS_DENIED`). It also signs webhook
 * deliveries as Shopify does.
 */

export interface StandInLineItem {
  id: number;
  name: string;
  sku: string | null;
  quantity: number;
  /** Unit price, decimal text as Shopify sends it. */
  price: string;
  grams: number;
  productId: number;
  variantId: number;
  variantTitle: string | null;
  /** The location the item is assigned to: one fulfillment order per location. */
  locationId: number;
  /** Units refunded or removed since the order was placed (`quantity` still counts them). */
  removedQuantity?: number;
}

export interface StandInOrder {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  financialStatus: string;
  cancelledAt: string | null;
  closed: boolean;
  note: string | null;
  tags: string[];
  email: string | null;
  customerId: number | null;
  shippingAddress: {
    firstName: string;
    lastName: string;
    address1: string;
    city: string;
    provinceCode: string;
    countryCodeV2: string;
    zip: string;
  } | null;
  shippingTitle: string | null;
  /** The shop's currency (the amounts' currency) and the buyer's; USD unless told. */
  currency?: string;
  presentmentCurrency?: string;
  /** Whether the prices and the subtotal include the tax. */
  taxesIncluded?: boolean;
  subtotal: string;
  tax: string;
  shipping: string;
  total: string;
  lineItems: StandInLineItem[];
}

export interface StandInFulfillment {
  id: number;
  orderId: number;
  fulfillmentOrderIds: string[];
  lineItems: { lineItemId: number; quantity: number }[];
  status: "SUCCESS" | "CANCELLED";
  trackingInfo: { company?: string; number?: string; url?: string };
  notifyCustomer: boolean;
}

export type ShopifyFault = "401" | "429" | "500" | "throttled";

/** Orders the shop has: a list, or a generated run of orders (a large shop) that is never held in memory. */
export interface OrderSource {
  count: number;
  /** The i-th order, oldest update first. */
  at(index: number): StandInOrder;
}

export interface StandInShop {
  domain: string;
  /** A legacy custom app's static token, or the last token granted to the Dev Dashboard app. */
  accessToken: string;
  /** The Dev Dashboard app installed on the shop, which gets tokens by the client credentials grant. */
  clientId: string;
  clientSecret: string;
  /** Tokens granted so far. */
  tokenGrants: number;
  /** The app's client secret, which signs webhooks. */
  webhookSecret: string;
  orders: StandInOrder[] | OrderSource;
  /** Scopes granted; `read_orders` and `write_merchant_managed_fulfillment_orders` unless told otherwise. */
  scopes: Set<string>;
  /** Whether the app was granted protected customer data access (to read `customer`). */
  customerDataAccess: boolean;
  /** Points left in the cost bucket after each call, as the throttle status reports. */
  bucketAfterCall: number;
  fulfillments: StandInFulfillment[];
}

const API_PATH = /^\/admin\/api\/(\d{4}-\d{2})\/graphql\.json$/;
const RESTORE_RATE = 50;
const MAX_AVAILABLE = 1000;
/** The most a single query may request. */
const MAX_COST = 1000;

export function standInOrder(n: number, updatedAt: string, changes: Partial<StandInOrder> = {}): StandInOrder {
  const id = 450_000_000 + n;
  return {
    id,
    name: `#${1000 + n}`,
    createdAt: "2026-01-05T10:00:00Z",
    updatedAt,
    financialStatus: "PAID",
    cancelledAt: null,
    closed: false,
    note: null,
    tags: [],
    email: `buyer${n}@example.com`,
    customerId: 700 + n,
    shippingAddress: {
      firstName: "Ada",
      lastName: "Lovelace",
      address1: "1 Main St",
      city: "Austin",
      provinceCode: "TX",
      countryCodeV2: "US",
      zip: "78701",
    },
    shippingTitle: "Standard",
    subtotal: "25.00",
    tax: "2.06",
    shipping: "5.99",
    total: "33.05",
    lineItems: [
      {
        id: id * 10 + 1,
        name: "Mug - Blue",
        sku: "MUG-1",
        quantity: 2,
        price: "12.50",
        grams: 340,
        productId: 8001,
        variantId: 9001,
        variantTitle: "Blue",
        locationId: 1,
      },
    ],
    ...changes,
  };
}

function isSource(orders: StandInOrder[] | OrderSource): orders is OrderSource {
  return !Array.isArray(orders);
}

export class ShopifyStandIn {
  readonly #server = new StandInServer((req, res, raw) => this.#handle(req, res, raw));
  readonly #shops = new Map<string, StandInShop>();
  readonly #faults = new FaultQueue<ShopifyFault, string>();
  /** Operation names received, in order. */
  readonly operations: string[] = [];
  /** Every document received with its variables and its requested cost. */
  readonly requests: { query: string; variables: Record<string, unknown>; cost: number }[] = [];
  readonly #schema: GraphQLSchema | undefined = fs.existsSync(SHOPIFY_SCHEMA_FILE) ? shopifySchema() : undefined;
  baseUrl = "";
  #nextFulfillmentId = 1;

  async start(): Promise<this> {
    this.baseUrl = await this.#server.start();
    return this;
  }

  stop(): Promise<void> {
    return this.#server.stop();
  }

  /** A shop reached with its own access token. */
  addShop(changes: Partial<StandInShop> = {}): StandInShop {
    const shop: StandInShop = {
      domain: `shop-${this.#shops.size + 1}.myshopify.com`,
      accessToken: `shpat_${randomUUID().replaceAll("-", "")}`,
      clientId: randomUUID().replaceAll("-", ""),
      clientSecret: `shpss_${randomUUID().replaceAll("-", "")}`,
      tokenGrants: 0,
      webhookSecret: `secret_${randomUUID()}`,
      orders: [],
      scopes: new Set(["read_orders", "write_merchant_managed_fulfillment_orders"]),
      customerDataAccess: true,
      bucketAfterCall: MAX_AVAILABLE,
      fulfillments: [],
      ...changes,
    };
    this.#shops.set(shop.accessToken, shop);
    return shop;
  }

  /** The next `times` calls (of the named operation, or of any) fail as `kind` says. */
  fail(kind: ShopifyFault, times = 1, operation?: string): void {
    this.#faults.add(kind, operation, times);
  }

  /** A webhook delivery as Shopify sends it: the order in its REST shape, signed with the app's secret. */
  webhook(
    shop: StandInShop,
    topic: string,
    order: StandInOrder,
    deliveryId: string = randomUUID(),
  ): { body: string; headers: Record<string, string> } {
    const body = JSON.stringify(restOrder(order));
    return {
      body,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": topic,
        "x-shopify-hmac-sha256": createHmac("sha256", shop.webhookSecret).update(body).digest("base64"),
        "x-shopify-shop-domain": shop.domain,
        "x-shopify-webhook-id": deliveryId,
        "x-shopify-api-version": "2026-10",
      },
    };
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      sendJson(res, status, body, headers);
    if (req.method === "POST" && req.url === "/admin/oauth/access_token") return this.#grant(req, res, raw);
    if (req.method !== "POST" || !API_PATH.test(req.url ?? "")) return send(404, { errors: "Not Found" });
    const shop = this.#shops.get(String(req.headers["x-shopify-access-token"] ?? ""));
    let request: { query?: string; variables?: Record<string, unknown> };
    try {
      request = JSON.parse(raw);
    } catch {
      return send(400, { errors: "Bad Request" });
    }
    const query = request.query ?? "";
    const operation = /^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "anonymous";
    this.operations.push(operation);
    const fault = this.#faults.take(operation);
    if (!shop || fault === "401") {
      return send(401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    }
    if (fault === "429")
      return send(429, { errors: "Exceeded 2 calls per second for api client." }, { "retry-after": "2" });
    if (fault === "500") return send(500, { errors: "Internal Server Error" });
    const variables = request.variables ?? {};
    const invalid = this.#schema ? schemaViolations(this.#schema, query) : [];
    if (invalid.length > 0) {
      return send(200, { errors: invalid.map((message) => ({ message, extensions: { code: "undefinedField" } })) });
    }
    const cost = requestedCost(query, variables, this.#schema);
    this.requests.push({ query, variables, cost });
    if (cost > MAX_COST) {
      return send(200, {
        errors: [
          {
            message: `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_COST}).`,
            extensions: {
              code: "MAX_COST_EXCEEDED",
              cost,
              maxCost: MAX_COST,
              documentation: "https://shopify.dev/api/usage/rate-limits",
            },
          },
        ],
      });
    }
    if (fault === "throttled") {
      return send(200, {
        errors: [
          {
            message: "Throttled",
            extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
          },
        ],
        extensions: { cost: costExtension(cost, null, Math.max(0, cost - 100)) },
      });
    }
    let answer: Record<string, unknown>;
    try {
      answer = this.#answer(shop, operation, query, request.variables ?? {});
    } catch (error) {
      answer = { errors: [{ message: (error as Error).message }] };
    }
    send(200, { ...answer, extensions: { cost: costExtension(cost, cost, shop.bucketAfterCall) } });
  }

  /** The client credentials grant: the app's id and secret for a token that lasts a day. */
  #grant(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const form = new URLSearchParams(raw);
    const shop = [...this.#shops.values()].find((candidate) => candidate.clientId === form.get("client_id"));
    if (!String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) {
      return sendJson(res, 400, { error: "invalid_request" });
    }
    if (form.get("grant_type") !== "client_credentials") {
      return sendJson(res, 400, { error: "unsupported_grant_type" });
    }
    if (!shop || shop.clientId !== form.get("client_id") || shop.clientSecret !== form.get("client_secret")) {
      return sendJson(res, 400, { error: "invalid_client", error_description: "Client credentials are invalid" });
    }
    this.#shops.delete(shop.accessToken);
    shop.accessToken = `shpat_${randomUUID().replaceAll("-", "")}`;
    shop.tokenGrants += 1;
    this.#shops.set(shop.accessToken, shop);
    return sendJson(res, 200, { access_token: shop.accessToken, scope: [...shop.scopes].join(","), expires_in: 86399 });
  }

  #answer(
    shop: StandInShop,
    operation: string,
    query: string,
    variables: Record<string, unknown>,
  ): Record<string, unknown> {
    const denied = (field: string, scope: string) => ({
      errors: [
        {
          message: `Access denied for ${field} field. Required access: \`${scope}\` access scope.`,
          locations: [{ line: 2, column: 3 }],
          path: [field],
          extensions: {
            code: "ACCESS_DENIED",
            documentation: "https://shopify.dev/api/usage/access-scopes",
            requiredAccess: `\`${scope}\` access scope.`,
          },
        },
      ],
      data: null,
    });
    switch (operation) {
      case "PorterShop":
        return { data: { shop: { name: "Stand-in shop", myshopifyDomain: shop.domain } } };
      case "PorterOrders": {
        if (!shop.scopes.has("read_orders")) return denied("orders", "read_orders");
        if (!shop.customerDataAccess && /\bcustomer\s*\{/.test(query)) {
          return {
            errors: [
              {
                message:
                  "This app is not approved to access the Customer object. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.",
                path: ["orders", "nodes", 0, "customer"],
                extensions: { code: "ACCESS_DENIED" },
              },
            ],
            data: null,
          };
        }
        return { data: { orders: this.#ordersPage(shop, query, variables) } };
      }
      case "PorterOrderLineItems": {
        const order = this.#order(shop, String(variables.id));
        if (!order) return { data: { order: null } };
        const items = order.lineItems.map((item) => lineItemNode(order, item));
        return { data: { order: { lineItems: page(items, variables.after, firstOf(query, "lineItems")) } } };
      }
      case "PorterFulfillmentOrders": {
        const order = this.#order(shop, String(variables.id));
        if (!order) return { data: { order: null } };
        const lines = firstOf(query, "lineItems");
        const fulfillmentOrders = this.#fulfillmentOrders(shop, order).map(({ lineItems, ...fulfillmentOrder }) => ({
          ...fulfillmentOrder,
          lineItems: page(lineItems, null, lines),
        }));
        return {
          data: {
            order: { fulfillmentOrders: page(fulfillmentOrders, variables.after, firstOf(query, "fulfillmentOrders")) },
          },
        };
      }
      case "PorterFulfillmentOrderLines": {
        const orderId = Math.floor(Number(String(variables.id).split("/").at(-1)) / 100);
        const order = this.#order(shop, `gid://shopify/Order/${orderId}`);
        const fulfillmentOrder = order && this.#fulfillmentOrders(shop, order).find((fo) => fo.id === variables.id);
        if (!fulfillmentOrder) return { data: { fulfillmentOrder: null } };
        return {
          data: {
            fulfillmentOrder: {
              lineItems: page(fulfillmentOrder.lineItems, variables.after, firstOf(query, "lineItems")),
            },
          },
        };
      }
      case "PorterFulfillmentCreate": {
        if (!shop.scopes.has("write_merchant_managed_fulfillment_orders")) {
          return denied("fulfillmentCreate", "write_merchant_managed_fulfillment_orders");
        }
        return {
          data: { fulfillmentCreate: this.#createFulfillment(shop, variables.fulfillment as FulfillmentInput) },
        };
      }
      case "PorterFulfillmentCancel": {
        const id = Number(String(variables.id).split("/").at(-1));
        const fulfillment = shop.fulfillments.find((f) => f.id === id);
        if (!fulfillment) {
          return {
            data: {
              fulfillmentCancel: {
                fulfillment: null,
                userErrors: [{ field: ["id"], message: "Fulfillment does not exist." }],
              },
            },
          };
        }
        if (fulfillment.status === "CANCELLED") {
          return {
            data: {
              fulfillmentCancel: {
                fulfillment: null,
                userErrors: [{ field: null, message: "Fulfillment is already cancelled." }],
              },
            },
          };
        }
        fulfillment.status = "CANCELLED";
        return {
          data: {
            fulfillmentCancel: { fulfillment: { id: String(variables.id), status: "CANCELLED" }, userErrors: [] },
          },
        };
      }
      default:
        return { errors: [{ message: `Field '${operation}' doesn't exist`, extensions: { code: "undefinedField" } }] };
    }
  }

  #ordersPage(shop: StandInShop, query: string, variables: Record<string, unknown>) {
    const first = Number(variables.first);
    if (!Number.isInteger(first) || first < 1 || first > 250) throw new Error("first must be 1..250");
    if (!/sortKey:\s*UPDATED_AT/.test(query)) throw new Error("the stand-in answers orders sorted by UPDATED_AT only");
    const lineItemsFirst = firstOf(query, "lineItems");
    const since = /updated_at:>=\s*'?([^'\s]+)'?/.exec(String(variables.query ?? ""))?.[1];
    const source = this.#sorted(shop);
    let start = variables.after ? Number(Buffer.from(String(variables.after), "base64url").toString()) : 0;
    if (!variables.after && since) {
      // Orders are in update order: the first one at or after `since`, found by halving.
      let low = 0;
      let high = source.count;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (Date.parse(source.at(mid).updatedAt) < Date.parse(since)) low = mid + 1;
        else high = mid;
      }
      start = low;
    }
    const end = Math.min(start + first, source.count);
    const nodes = [];
    for (let i = start; i < end; i += 1) nodes.push(graphqlOrder(source.at(i), lineItemsFirst));
    const endCursor = end > start ? Buffer.from(String(end)).toString("base64url") : null;
    return { pageInfo: { hasNextPage: end < source.count, endCursor }, nodes };
  }

  #sorted(shop: StandInShop): OrderSource {
    if (isSource(shop.orders)) return shop.orders;
    const sorted = [...shop.orders].sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
    return { count: sorted.length, at: (i) => sorted[i] as StandInOrder };
  }

  #order(shop: StandInShop, globalId: string): StandInOrder | undefined {
    const id = Number(globalId.split("/").at(-1));
    if (isSource(shop.orders)) return undefined;
    return shop.orders.find((order) => order.id === id);
  }

  /** Quantity of a line item live fulfillments carry. */
  #fulfilled(shop: StandInShop, lineItemId: number): number {
    return shop.fulfillments
      .filter((f) => f.status === "SUCCESS")
      .flatMap((f) => f.lineItems)
      .filter((line) => line.lineItemId === lineItemId)
      .reduce((sum, line) => sum + line.quantity, 0);
  }

  #fulfillmentOrders(shop: StandInShop, order: StandInOrder) {
    const locations = [...new Set(order.lineItems.map((item) => item.locationId))];
    return locations.map((locationId) => {
      const lines = order.lineItems
        .filter((item) => item.locationId === locationId)
        .map((item) => ({
          id: `gid://shopify/FulfillmentOrderLineItem/${item.id}`,
          remainingQuantity: item.quantity - this.#fulfilled(shop, item.id),
          totalQuantity: item.quantity,
          lineItem: { id: `gid://shopify/LineItem/${item.id}` },
        }));
      const remaining = lines.reduce((sum, line) => sum + line.remainingQuantity, 0);
      const total = lines.reduce((sum, line) => sum + line.totalQuantity, 0);
      const cancelled = order.cancelledAt !== null;
      const status = cancelled ? "CANCELLED" : remaining === 0 ? "CLOSED" : remaining < total ? "IN_PROGRESS" : "OPEN";
      return {
        id: `gid://shopify/FulfillmentOrder/${order.id * 100 + locationId}`,
        status,
        assignedLocation: { name: `Location ${locationId}`, location: { id: `gid://shopify/Location/${locationId}` } },
        supportedActions: cancelled || remaining === 0 ? [] : [{ action: "CREATE_FULFILLMENT" }, { action: "HOLD" }],
        lineItems: lines,
      };
    });
  }

  #createFulfillment(shop: StandInShop, input: FulfillmentInput) {
    const refuse = (message: string) => ({ fulfillment: null, userErrors: [{ field: ["fulfillment"], message }] });
    const pairs = input?.lineItemsByFulfillmentOrder ?? [];
    if (pairs.length === 0) return refuse("lineItemsByFulfillmentOrder can't be blank");
    const orderId = Math.floor(Number(pairs[0]?.fulfillmentOrderId.split("/").at(-1)) / 100);
    const order = isSource(shop.orders) ? undefined : shop.orders.find((o) => o.id === orderId);
    if (!order) return refuse("Fulfillment order does not exist.");
    const open = this.#fulfillmentOrders(shop, order);
    const locations = new Set<string>();
    const carried: { lineItemId: number; quantity: number }[] = [];
    for (const pair of pairs) {
      const fulfillmentOrder = open.find((fo) => fo.id === pair.fulfillmentOrderId);
      if (!fulfillmentOrder || fulfillmentOrder.supportedActions.length === 0) {
        return refuse("Fulfillment order is not in an open state.");
      }
      locations.add(fulfillmentOrder.assignedLocation.location.id);
      const asked =
        pair.fulfillmentOrderLineItems ??
        fulfillmentOrder.lineItems.map((line) => ({ id: line.id, quantity: line.remainingQuantity }));
      for (const { id, quantity } of asked) {
        const line = fulfillmentOrder.lineItems.find((l) => l.id === id);
        if (!line) return refuse(`Fulfillment order line item ${id} does not exist.`);
        if (quantity > line.remainingQuantity) return refuse("Invalid fulfillment order line item quantity requested.");
        if (quantity > 0) carried.push({ lineItemId: Number(id.split("/").at(-1)), quantity });
      }
    }
    if (locations.size > 1) return refuse("All fulfillment orders must be assigned to the same location.");
    const fulfillment: StandInFulfillment = {
      id: this.#nextFulfillmentId++,
      orderId,
      fulfillmentOrderIds: pairs.map((pair) => pair.fulfillmentOrderId),
      lineItems: carried,
      status: "SUCCESS",
      trackingInfo: input.trackingInfo ?? {},
      notifyCustomer: input.notifyCustomer ?? false,
    };
    shop.fulfillments.push(fulfillment);
    return { fulfillment: { id: `gid://shopify/Fulfillment/${fulfillment.id}`, status: "SUCCESS" }, userErrors: [] };
  }
}

interface FulfillmentInput {
  lineItemsByFulfillmentOrder?: {
    fulfillmentOrderId: string;
    fulfillmentOrderLineItems?: { id: string; quantity: number }[];
  }[];
  notifyCustomer?: boolean;
  trackingInfo?: { company?: string; number?: string; url?: string };
}

function costExtension(requested: number, actual: number | null, available: number) {
  return {
    requestedQueryCost: requested,
    actualQueryCost: actual,
    throttleStatus: { maximumAvailable: MAX_AVAILABLE, currentlyAvailable: available, restoreRate: RESTORE_RATE },
  };
}

function money(order: StandInOrder, amount: string) {
  const currencyCode = order.currency ?? "USD";
  // The stand-in's buyers pay at par: the presentment amount is the shop's, in the buyer's currency.
  return {
    shopMoney: { amount, currencyCode },
    presentmentMoney: { amount, currencyCode: order.presentmentCurrency ?? currencyCode },
  };
}

function lineItemNode(order: StandInOrder, item: StandInLineItem) {
  return {
    id: `gid://shopify/LineItem/${item.id}`,
    name: item.name,
    sku: item.sku,
    quantity: item.quantity,
    currentQuantity: item.quantity - (item.removedQuantity ?? 0),
    variantTitle: item.variantTitle,
    originalUnitPriceSet: money(order, item.price),
    image: null,
    product: { legacyResourceId: String(item.productId) },
    variant: {
      legacyResourceId: String(item.variantId),
      inventoryItem: { measurement: { weight: { unit: "GRAMS", value: item.grams } } },
    },
  };
}

/** The `first` a document asks of the named connection (its page size is a literal in Porter's documents). */
function firstOf(query: string, connection: string): number {
  const first = Number(new RegExp(`${connection}\\(first:\\s*(\\d+)`).exec(query)?.[1]);
  if (!Number.isInteger(first) || first < 1 || first > 250) throw new Error(`${connection}: first must be 1..250`);
  return first;
}

/** One page of a list, its cursor being the index where the next page starts. */
function page<T>(list: readonly T[], after: unknown, first: number) {
  const start = after ? Number(after) : 0;
  const end = Math.min(start + first, list.length);
  return {
    pageInfo: { hasNextPage: end < list.length, endCursor: String(end) },
    nodes: list.slice(start, end),
  };
}

function fulfillmentStatus(order: StandInOrder): string {
  return order.financialStatus === "FULFILLED" ? "FULFILLED" : "UNFULFILLED";
}

function graphqlOrder(order: StandInOrder, lineItemsFirst: number) {
  const address = order.shippingAddress && {
    ...order.shippingAddress,
    company: null,
    address2: null,
    phone: null,
  };
  return {
    id: `gid://shopify/Order/${order.id}`,
    legacyResourceId: String(order.id),
    name: order.name,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    cancelledAt: order.cancelledAt,
    closed: order.closed,
    displayFinancialStatus: order.financialStatus,
    displayFulfillmentStatus: fulfillmentStatus(order),
    note: order.note,
    tags: order.tags,
    email: order.email,
    taxesIncluded: order.taxesIncluded ?? false,
    currencyCode: order.currency ?? "USD",
    presentmentCurrencyCode: order.presentmentCurrency ?? order.currency ?? "USD",
    customer: order.customerId === null ? null : { legacyResourceId: String(order.customerId) },
    shippingAddress: address,
    billingAddress: address,
    shippingLine: order.shippingTitle === null ? null : { title: order.shippingTitle },
    currentSubtotalPriceSet: money(order, order.subtotal),
    currentTotalTaxSet: money(order, order.tax),
    currentShippingPriceSet: money(order, order.shipping),
    currentTotalPriceSet: money(order, order.total),
    lineItems: page(
      order.lineItems.map((item) => lineItemNode(order, item)),
      null,
      lineItemsFirst,
    ),
  };
}

/** The order as webhooks carry it (Shopify's REST shape). */
function restOrder(order: StandInOrder) {
  const address = order.shippingAddress && {
    first_name: order.shippingAddress.firstName,
    last_name: order.shippingAddress.lastName,
    company: null,
    address1: order.shippingAddress.address1,
    address2: null,
    city: order.shippingAddress.city,
    province_code: order.shippingAddress.provinceCode,
    country_code: order.shippingAddress.countryCodeV2,
    zip: order.shippingAddress.zip,
    phone: null,
  };
  return {
    id: order.id,
    admin_graphql_api_id: `gid://shopify/Order/${order.id}`,
    name: order.name,
    order_number: Number(order.name.replace(/\D/g, "")),
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    cancelled_at: order.cancelledAt,
    closed_at: order.closed ? order.updatedAt : null,
    financial_status: order.financialStatus.toLowerCase(),
    fulfillment_status: null,
    note: order.note,
    tags: order.tags.join(", "),
    email: order.email,
    customer: order.customerId === null ? null : { id: order.customerId, email: order.email },
    shipping_address: address,
    billing_address: address,
    shipping_lines: order.shippingTitle === null ? [] : [{ title: order.shippingTitle }],
    subtotal_price: order.subtotal,
    total_tax: order.tax,
    total_price: order.total,
    taxes_included: order.taxesIncluded ?? false,
    currency: order.currency ?? "USD",
    presentment_currency: order.presentmentCurrency ?? order.currency ?? "USD",
    total_shipping_price_set: { shop_money: { amount: order.shipping, currency_code: "USD" } },
    line_items: order.lineItems.map((item) => ({
      id: item.id,
      name: item.name,
      title: item.name,
      sku: item.sku,
      quantity: item.quantity,
      current_quantity: item.quantity - (item.removedQuantity ?? 0),
      price: item.price,
      grams: item.grams,
      product_id: item.productId,
      variant_id: item.variantId,
      variant_title: item.variantTitle,
    })),
  };
}
