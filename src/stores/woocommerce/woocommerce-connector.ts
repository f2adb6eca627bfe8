import { refusePlaceholder } from "../credential-shape.js";
import { ouncesOf } from "../platform-values.js";
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
import { WooCommerceClient, type WooCredentials } from "./woocommerce-client.js";
import { isWooOrder, orderFromWoo } from "./woocommerce-orders.js";
import { wooChangeKey, wooSigningKey } from "./woocommerce-webhook.js";
import type { WooNote, WooOrder, WooProduct, WooSetting } from "./woocommerce-wire.js";

/** WordPress's own cap on `per_page`. */
const MAX_PAGE = 100;
const DEFAULT_PAGE = 50;
const ORDER_TOPICS = new Set(["order.created", "order.updated"]);
/** WooCommerce pings a new webhook's URL, unsigned, and will not save a webhook whose ping fails. */
const PING = /^webhook_id=\d{1,20}$/;
/**
 * `modified_after` is strictly after; the promise is "at or after", so the window opens a second
 * early. Orders read twice are imported once (they are known by id and update time).
 */
const INCLUSIVE_MS = 1000;

export function wooCredentials(credentials: Record<string, string>): WooCredentials {
  let siteUrl: URL;
  try {
    siteUrl = new URL((credentials.site_url ?? "").trim());
  } catch {
    throw new StoreConnectorError("auth", `site_url must be the shop's address, got "${credentials.site_url ?? ""}"`);
  }
  if (siteUrl.protocol !== "https:" && siteUrl.protocol !== "http:") {
    throw new StoreConnectorError("auth", `site_url must be an http(s) address, got "${siteUrl.protocol}"`);
  }
  const consumerKey = credentials.consumer_key?.trim();
  const consumerSecret = credentials.consumer_secret?.trim();
  if (!consumerKey || !consumerSecret)
    throw new StoreConnectorError("auth", "consumer_key or consumer_secret is missing");
  refusePlaceholder("consumer_key", consumerKey, "the REST API key's Consumer key (ck_ and 40 hex digits)");
  refusePlaceholder("consumer_secret", consumerSecret, "the REST API key's Consumer secret (cs_ and 40 hex digits)");
  return { siteUrl, consumerKey, consumerSecret, webhookSecret: credentials.webhook_secret?.trim() || null };
}

/** The note left on the order: what shipped, with what, and where to follow it. */
function trackingNote(shipment: ShipmentWriteBack): string {
  const what = shipment.completesOrder === false ? "Part of the order shipped" : "Shipped";
  const service = shipment.service ? ` ${shipment.service}` : "";
  const url = shipment.trackingUrl ? `\nTrack it: ${shipment.trackingUrl}` : "";
  return `${what} with ${shipment.carrier}${service}. Tracking number: ${shipment.trackingNumber}${url}`;
}

/**
 * A WooCommerce site through its REST API v3 (see store-connector.ts for what each method promises).
 * A shipment written back completes the order (unless items are left to ship: WooCommerce has no
 * partial shipments) and leaves a tracking note (sent to the buyer when `notify`); cancelling it
 * deletes that note, sets the order back to `processing` and says why in a private note.
 */
export class WooCommerceConnector implements StoreConnector {
  readonly #client: WooCommerceClient;
  #weightUnit: string | undefined;

  constructor(
    private readonly credentials: WooCredentials,
    settings: ConnectorSettings,
  ) {
    this.#client = new WooCommerceClient(credentials, settings);
  }

  async fetchOrders({ updatedSince, cursor, pageSize }: FetchOrdersRequest): Promise<OrderPage> {
    const page = cursor === null ? 1 : Number(cursor);
    if (!Number.isSafeInteger(page) || page < 1)
      throw new StoreConnectorError("invalid_response", `bad page cursor "${cursor}"`);
    const query: Record<string, string> = {
      page: String(page),
      per_page: String(Math.min(Math.max(pageSize ?? DEFAULT_PAGE, 1), MAX_PAGE)),
      orderby: "modified",
      order: "asc",
      dates_are_gmt: "true",
    };
    if (updatedSince !== null) {
      query.modified_after = new Date(Date.parse(updatedSince) - INCLUSIVE_MS).toISOString().replace(/\.\d{3}Z$/, "");
    }
    const { body, headers } = await this.#client.get<WooOrder[]>("orders", query);
    if (!Array.isArray(body)) throw new StoreConnectorError("invalid_response", "WooCommerce answered no order list");
    const since = updatedSince === null ? null : Date.parse(updatedSince);
    const weights = await this.#weights(body);
    const orders = body
      .map((order) => orderFromWoo(order, weights))
      .filter((order) => since === null || Date.parse(order.updatedAt) >= since);
    const totalPages = Number(headers.get("x-wp-totalpages"));
    return { orders, nextCursor: Number.isFinite(totalPages) && page < totalPages ? String(page + 1) : null };
  }

  /** Unit weights of the page's products and variations in ounces: orders carry none. */
  async #weights(orders: readonly WooOrder[]): Promise<Map<number, number | null>> {
    const weights = new Map<number, number | null>();
    const items = orders.flatMap((order) => order.line_items ?? []);
    const products = [
      ...new Set(items.filter((item) => !item.variation_id && item.product_id).map((item) => item.product_id)),
    ];
    const variations = [
      ...new Map(items.filter((item) => item.variation_id).map((item) => [item.variation_id, item.product_id])),
    ];
    if (products.length === 0 && variations.length === 0) return weights;
    const unit = await this.#unit();
    for (let start = 0; start < products.length; start += MAX_PAGE) {
      const chunk = products.slice(start, start + MAX_PAGE);
      const { body } = await this.#client.get<WooProduct[]>("products", {
        include: chunk.join(","),
        per_page: String(MAX_PAGE),
      });
      for (const product of body) weights.set(product.id, ouncesOf(product.weight, unit));
    }
    for (const [variationId, productId] of variations) {
      try {
        const { body } = await this.#client.get<WooProduct>(`products/${productId}/variations/${variationId}`);
        weights.set(variationId, ouncesOf(body.weight, unit));
      } catch (error) {
        // A variation deleted since the order was placed leaves its item without a weight.
        if (!(error instanceof StoreConnectorError && error.kind === "not_found")) throw error;
      }
    }
    return weights;
  }

  /** The store's weight unit (kg, g, lbs, oz), read once. */
  async #unit(): Promise<string> {
    if (this.#weightUnit === undefined) {
      const { body } = await this.#client.get<WooSetting>("settings/products/woocommerce_weight_unit");
      this.#weightUnit = body.value;
    }
    return this.#weightUnit;
  }

  async writeShipment(order: PlatformOrderRef, shipment: ShipmentWriteBack): Promise<{ platformShipmentId: string }> {
    const id = encodeURIComponent(order.platformOrderId);
    // WooCommerce has no partial shipments: an order with items still to ship stays open.
    if (shipment.completesOrder !== false) await this.#client.send("PUT", `orders/${id}`, { status: "completed" });
    const note = await this.#client.send<WooNote>("POST", `orders/${id}/notes`, {
      note: trackingNote(shipment),
      customer_note: shipment.notify,
    });
    return { platformShipmentId: String(note.id) };
  }

  async cancelShipment(order: PlatformOrderRef, platformShipmentId: string | null): Promise<void> {
    const id = encodeURIComponent(order.platformOrderId);
    if (platformShipmentId) {
      try {
        await this.#client.send("DELETE", `orders/${id}/notes/${encodeURIComponent(platformShipmentId)}`, undefined, {
          force: "true",
        });
      } catch (error) {
        // Already deleted by hand: the rest of the reversal still applies.
        if (!(error instanceof StoreConnectorError && error.kind === "not_found")) throw error;
      }
    }
    await this.#client.send("PUT", `orders/${id}`, { status: "processing" });
    await this.#client.send("POST", `orders/${id}/notes`, {
      note: "The shipment was cancelled in Porter; the order is back to processing.",
      customer_note: false,
    });
  }

  /**
   * A delivery signed with the decoded secret (see wooSigningKey) and keyed by the change it
   * carries, never by WooCommerce's delivery id, which two deliveries in one second share.
   */
  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): WebhookVerdict {
    const secret = this.credentials.webhookSecret;
    if (!secret) return { ok: false, reason: "the store has no webhook_secret to check WooCommerce's signature with" };
    const signature = headerValue(headers, "x-wc-webhook-signature");
    if (!signature || !base64HmacSha256Matches(rawBody, wooSigningKey(secret), signature)) {
      return { ok: false, reason: "X-WC-Webhook-Signature does not match the body" };
    }
    const topic = headerValue(headers, "x-wc-webhook-topic");
    if (!topic) return { ok: false, reason: "X-WC-Webhook-Topic is missing" };
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString("utf8"));
    } catch {
      body = undefined;
    }
    const deliveryId = wooChangeKey(topic, rawBody, body);
    if (!ORDER_TOPICS.has(topic)) return { ok: true, topic, deliveryId, order: null };
    if (body === undefined) return { ok: false, reason: "the body is not JSON" };
    if (!isWooOrder(body)) return { ok: false, reason: "the body is not an order" };
    return { ok: true, topic, deliveryId, order: orderFromWoo(body) };
  }

  async verifyCredentials(): Promise<void> {
    await this.#client.get("orders", { per_page: "1" });
  }
}

export const woocommercePlatform: StorePlatform = {
  type: "woocommerce",
  requiredCredentials: ["site_url", "consumer_key", "consumer_secret"],
  open: (credentials, settings) => new WooCommerceConnector(wooCredentials(credentials), settings),
  userAddresses: (credentials) => [wooCredentials(credentials).siteUrl],
  isUnsignedPing: (rawBody) => rawBody.length <= 32 && PING.test(rawBody.toString("utf8")),
  // WooCommerce never retries a failed delivery; it disables the webhook after repeated failures.
  webhooksUnretried: true,
};
