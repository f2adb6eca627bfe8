import { refusePlaceholder } from "../credential-shape.js";
import {
  type ConnectorSettings,
  type FetchOrdersRequest,
  type OrderPage,
  type PlatformOrderRef,
  type ShipmentWriteBack,
  type StoreConnector,
  StoreConnectorError,
  type StorePlatform,
  type WebhookHeaders,
  type WebhookVerdict,
} from "../store-connector.js";
import { base64HmacSha256Matches, headerValue } from "../webhook-signature.js";
import { type ShopifyAuth, ShopifyClient } from "./shopify-client.js";
import { orderFromGraphql, orderFromWebhook } from "./shopify-orders.js";
import {
  FULFILLMENT_CANCEL,
  FULFILLMENT_CREATE,
  FULFILLMENT_ORDER_LINES_QUERY,
  FULFILLMENT_ORDERS_QUERY,
  type FulfillmentCancelAnswer,
  type FulfillmentCreateAnswer,
  type FulfillmentOrderLinesAnswer,
  type FulfillmentOrderNode,
  type FulfillmentOrdersAnswer,
  gid,
  LINE_ITEMS_QUERY,
  type LineItemNode,
  type LineItemsAnswer,
  MAX_ORDERS_PER_PAGE,
  numericId,
  ORDERS_QUERY,
  type OrderNode,
  type OrdersAnswer,
  SHOP_QUERY,
  type UserError,
  type WebhookOrder,
} from "./shopify-wire.js";

const ORDER_TOPICS = new Set(["orders/create", "orders/updated"]);
/** A shop's own domain: the only host a store's token is ever sent to. */
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
/** A legacy custom app's Admin API access token. */
const STATIC_TOKEN = /^shpat_[0-9a-f]{32}$/;

/** The names Shopify recognises for tracking companies (it builds the tracking URL for them). */
const TRACKING_COMPANIES: Record<string, string> = {
  usps: "USPS",
  ups: "UPS",
  fedex: "FedEx",
  dhl: "DHL Express",
  dhl_express: "DHL Express",
  dhl_ecommerce: "DHL eCommerce",
};

export interface ShopifyCredentials {
  shopDomain: string;
  auth: ShopifyAuth;
  /** The app's client secret, which signs the shop's webhooks; without it webhooks are refused. */
  webhookSecret: string | null;
}

/** A Dev Dashboard app's client id and secret, or else a legacy custom app's static token. */
function shopifyAuth(credentials: Record<string, string>): ShopifyAuth {
  const clientId = credentials.client_id?.trim();
  const clientSecret = credentials.client_secret?.trim();
  if (clientId || clientSecret) {
    if (!clientId || !clientSecret) throw new StoreConnectorError("auth", "client_id and client_secret go together");
    refusePlaceholder("client_id", clientId, "the app's Client ID as the Dev Dashboard shows it");
    refusePlaceholder("client_secret", clientSecret, "the app's Client secret as the Dev Dashboard shows it");
    return { kind: "client_credentials", clientId, clientSecret };
  }
  const accessToken = credentials.access_token?.trim();
  if (!accessToken) {
    throw new StoreConnectorError(
      "auth",
      "give client_id and client_secret (a Dev Dashboard app) or access_token (a legacy custom app)",
    );
  }
  refusePlaceholder("access_token", accessToken, "the app's Admin API access token (shpat_ and 32 hex digits)");
  if (!STATIC_TOKEN.test(accessToken)) {
    throw new StoreConnectorError("auth", "access_token must be an Admin API access token: shpat_ and 32 hex digits");
  }
  return { kind: "static", accessToken };
}

export function shopifyCredentials(credentials: Record<string, string>): ShopifyCredentials {
  const shopDomain = (credentials.shop_domain ?? "")
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/+$/, "");
  if (!SHOP_DOMAIN.test(shopDomain)) {
    throw new StoreConnectorError("auth", `shop_domain must be the shop's myshopify.com domain, got "${shopDomain}"`);
  }
  const auth = shopifyAuth(credentials);
  // A Dev Dashboard app's client secret is also the key Shopify signs its webhooks with.
  const webhookSecret =
    credentials.webhook_secret?.trim() || (auth.kind === "client_credentials" ? auth.clientSecret : null);
  return { shopDomain, auth, webhookSecret };
}

function userErrorText(errors: readonly UserError[]): string {
  return errors.map((error) => (error.field ? `${error.field.join(".")}: ${error.message}` : error.message)).join("; ");
}

interface FulfillmentOrderLineItemsInput {
  fulfillmentOrderId: string;
  fulfillmentOrderLineItems?: { id: string; quantity: number }[];
}

/** The named items' quantities that are still to fulfill in one fulfillment order, or undefined when it holds none. */
function partOf(
  fulfillmentOrder: FulfillmentOrderNode,
  wanted: Map<string, number>,
): FulfillmentOrderLineItemsInput | undefined {
  const lines = [];
  for (const line of fulfillmentOrder.lineItems.nodes) {
    const lineItemId = numericId(line.lineItem.id);
    const quantity = Math.min(wanted.get(lineItemId) ?? 0, line.remainingQuantity);
    if (quantity <= 0) continue;
    lines.push({ id: line.id, quantity });
    // A line item split over several fulfillment orders takes what is left from the next.
    wanted.set(lineItemId, (wanted.get(lineItemId) ?? 0) - quantity);
  }
  return lines.length > 0 ? { fulfillmentOrderId: fulfillmentOrder.id, fulfillmentOrderLineItems: lines } : undefined;
}

/** A Shopify shop through its Admin GraphQL API (see store-connector.ts for what each method promises). */
export class ShopifyConnector implements StoreConnector {
  readonly #client: ShopifyClient;

  constructor(
    private readonly credentials: ShopifyCredentials,
    settings: ConnectorSettings,
  ) {
    this.#client = new ShopifyClient({ ...settings, shopDomain: credentials.shopDomain, auth: credentials.auth });
  }

  async fetchOrders({ updatedSince, cursor, pageSize }: FetchOrdersRequest): Promise<OrderPage> {
    const answer = await this.#client.query<OrdersAnswer>(ORDERS_QUERY, {
      first: Math.min(Math.max(pageSize ?? MAX_ORDERS_PER_PAGE, 1), MAX_ORDERS_PER_PAGE),
      after: cursor,
      query: updatedSince === null ? null : `updated_at:>='${new Date(updatedSince).toISOString()}'`,
    });
    if (!answer.orders) throw new StoreConnectorError("invalid_response", "Shopify answered no orders connection");
    const orders = [];
    for (const node of answer.orders.nodes) orders.push(orderFromGraphql(node, await this.#allLineItems(node)));
    const { hasNextPage, endCursor } = answer.orders.pageInfo;
    return { orders, nextCursor: hasNextPage ? endCursor : null };
  }

  /** The order's line items past the first ones the orders query read. */
  async #allLineItems(node: OrderNode): Promise<LineItemNode[]> {
    const items = [...node.lineItems.nodes];
    let page = node.lineItems.pageInfo;
    while (page.hasNextPage) {
      const answer = await this.#client.query<LineItemsAnswer>(LINE_ITEMS_QUERY, {
        id: node.id,
        after: page.endCursor,
      });
      if (!answer.order) throw new StoreConnectorError("not_found", `order ${node.name} disappeared while it was read`);
      items.push(...answer.order.lineItems.nodes);
      page = answer.order.lineItems.pageInfo;
    }
    return items;
  }

  /**
   * One fulfillment per location the order's open fulfillment orders are assigned to (Shopify
   * fulfills from one location at a time), all with the same tracking; a shipment naming items
   * fulfills just those quantities. Answers the fulfillments' ids, comma separated.
   */
  async writeShipment(order: PlatformOrderRef, shipment: ShipmentWriteBack): Promise<{ platformShipmentId: string }> {
    const byLocation = new Map<string, FulfillmentOrderLineItemsInput[]>();
    const wanted = new Map((shipment.items ?? []).map((item) => [item.platformLineItemId, item.quantity]));
    for (const fulfillmentOrder of await this.#fulfillmentOrders(order)) {
      if (!fulfillmentOrder.supportedActions.some((a) => a.action === "CREATE_FULFILLMENT")) continue;
      const entry = !shipment.items?.length
        ? { fulfillmentOrderId: fulfillmentOrder.id }
        : partOf(fulfillmentOrder, wanted);
      if (!entry) continue;
      const location =
        fulfillmentOrder.assignedLocation?.location?.id ?? fulfillmentOrder.assignedLocation?.name ?? "unassigned";
      byLocation.set(location, [...(byLocation.get(location) ?? []), entry]);
    }
    if (byLocation.size === 0) {
      throw new StoreConnectorError(
        "rejected",
        `order ${order.orderNumber} has nothing left to fulfill on Shopify (fulfilled, on hold or cancelled)`,
      );
    }
    const company = TRACKING_COMPANIES[shipment.carrier.trim().toLowerCase()] ?? shipment.carrier;
    const ids: string[] = [];
    for (const lineItemsByFulfillmentOrder of byLocation.values()) {
      const answer = await this.#client.query<FulfillmentCreateAnswer>(FULFILLMENT_CREATE, {
        fulfillment: {
          lineItemsByFulfillmentOrder,
          notifyCustomer: shipment.notify,
          trackingInfo: {
            company,
            number: shipment.trackingNumber,
            ...(shipment.trackingUrl && { url: shipment.trackingUrl }),
          },
        },
      });
      const result = answer.fulfillmentCreate;
      if (result.userErrors.length > 0 || !result.fulfillment) {
        // Fulfillments already made for other locations stay: the error names them so nothing is hidden.
        const made = ids.length > 0 ? ` (fulfillments ${ids.join(", ")} were made before this failed)` : "";
        throw new StoreConnectorError("rejected", `${userErrorText(result.userErrors)}${made}`);
      }
      ids.push(numericId(result.fulfillment.id));
    }
    return { platformShipmentId: ids.join(",") };
  }

  async cancelShipment(_order: PlatformOrderRef, platformShipmentId: string | null): Promise<void> {
    // Recorded before the store was connected: nothing was written to Shopify.
    if (!platformShipmentId) return;
    for (const id of platformShipmentId.split(",")) {
      const answer = await this.#client.query<FulfillmentCancelAnswer>(FULFILLMENT_CANCEL, {
        id: gid("Fulfillment", id),
      });
      const result = answer.fulfillmentCancel;
      if (result.userErrors.length > 0) throw new StoreConnectorError("rejected", userErrorText(result.userErrors));
    }
  }

  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): WebhookVerdict {
    const secret = this.credentials.webhookSecret;
    if (!secret) return { ok: false, reason: "the store has no webhook_secret to check Shopify's signature with" };
    const signature = headerValue(headers, "x-shopify-hmac-sha256");
    if (!signature || !base64HmacSha256Matches(rawBody, secret, signature)) {
      return { ok: false, reason: "X-Shopify-Hmac-Sha256 does not match the body" };
    }
    const topic = headerValue(headers, "x-shopify-topic");
    const deliveryId = headerValue(headers, "x-shopify-webhook-id") ?? headerValue(headers, "x-shopify-event-id");
    if (!topic || !deliveryId) return { ok: false, reason: "X-Shopify-Topic or X-Shopify-Webhook-Id is missing" };
    if (!ORDER_TOPICS.has(topic)) return { ok: true, topic, deliveryId, order: null };
    let body: WebhookOrder;
    try {
      body = JSON.parse(rawBody.toString("utf8")) as WebhookOrder;
    } catch {
      return { ok: false, reason: "the body is not JSON" };
    }
    if (typeof body?.id !== "number" || typeof body.name !== "string" || typeof body.updated_at !== "string") {
      return { ok: false, reason: "the body is not an order" };
    }
    return { ok: true, topic, deliveryId, order: orderFromWebhook(body) };
  }

  async verifyCredentials(): Promise<void> {
    await this.#client.query(SHOP_QUERY);
  }

  /** The order's fulfillment orders, every page of them and every line of each. */
  async #fulfillmentOrders(order: PlatformOrderRef): Promise<FulfillmentOrderNode[]> {
    const all: FulfillmentOrderNode[] = [];
    let after: string | null = null;
    do {
      const answer: FulfillmentOrdersAnswer = await this.#client.query<FulfillmentOrdersAnswer>(
        FULFILLMENT_ORDERS_QUERY,
        { id: gid("Order", order.platformOrderId), after },
      );
      if (!answer.order) throw new StoreConnectorError("not_found", `Shopify has no order ${order.orderNumber}`);
      for (const node of answer.order.fulfillmentOrders.nodes) all.push(await this.#allLines(node));
      const page = answer.order.fulfillmentOrders.pageInfo;
      after = page.hasNextPage ? page.endCursor : null;
    } while (after);
    return all;
  }

  /** A fulfillment order with its lines past the first ones the fulfillment orders query read. */
  async #allLines(fulfillmentOrder: FulfillmentOrderNode): Promise<FulfillmentOrderNode> {
    const nodes = [...fulfillmentOrder.lineItems.nodes];
    let page = fulfillmentOrder.lineItems.pageInfo;
    while (page.hasNextPage) {
      const answer = await this.#client.query<FulfillmentOrderLinesAnswer>(FULFILLMENT_ORDER_LINES_QUERY, {
        id: fulfillmentOrder.id,
        after: page.endCursor,
      });
      if (!answer.fulfillmentOrder) {
        throw new StoreConnectorError(
          "not_found",
          `fulfillment order ${fulfillmentOrder.id} disappeared while it was read`,
        );
      }
      nodes.push(...answer.fulfillmentOrder.lineItems.nodes);
      page = answer.fulfillmentOrder.lineItems.pageInfo;
    }
    return { ...fulfillmentOrder, lineItems: { pageInfo: page, nodes } };
  }
}

export const shopifyPlatform: StorePlatform = {
  type: "shopify",
  requiredCredentials: ["shop_domain"],
  open: (credentials, settings) => new ShopifyConnector(shopifyCredentials(credentials), settings),
};
