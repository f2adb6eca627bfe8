/**
 * # Store connectors: how Porter talks to an e-commerce platform
 *
 * An order store of type `shopify` or `woocommerce` is a connection to a shop on that platform.
 * Everything Porter does with the shop goes through one `StoreConnector`, built for one store from
 * its (unsealed) credentials by the platform's `StorePlatform` entry in `registry.ts`. Each platform
 * lives in its own folder (`src/stores/shopify/`, `src/stores/woocommerce/`); adding a platform is
 * a folder and one line in the registry, and touches no route and no use case.
 *
 * ## What a connector promises
 *
 * - `fetchOrders({ updatedSince, cursor, pageSize })` reads one page of the shop's orders changed
 *   at or after `updatedSince` (all orders when it is null), **oldest update first** (ascending
 *   platform `updated_at`; ties in any order). `cursor` is null for the first page and otherwise
 *   the `nextCursor` the previous page answered; `nextCursor` is null on the last page. The cursor
 *   is the connector's own text (Shopify's `endCursor`, WooCommerce's next page number): Porter
 *   stores it and hands it back unchanged, together with the same `updatedSince`. A page holds at
 *   most `pageSize` orders; the connector never reads ahead or keeps pages, so a store of any size
 *   imports in flat memory. Sync resumes from the newest `updatedAt` it imported, which is why the
 *   ascending order matters.
 * - `writeShipment(order, shipment)` tells the platform an order shipped (Shopify: fulfillments of
 *   its fulfillment orders with tracking number, company and URL; WooCommerce: status `completed`
 *   and a tracking note) and answers the platform's id for what it made (`platformShipmentId`,
 *   null when the platform has no such id). Porter calls it before it records the shipment: when
 *   it throws, nothing is recorded and the caller hears the platform's words.
 * - `cancelShipment(order, platformShipmentId)` reverses a write-back (`platformShipmentId` is what
 *   `writeShipment` answered; null when it answered null or the shipment was recorded before the
 *   store was connected: reverse what can be, or do nothing). A platform that cannot reverse one
 *   leaves `cancelShipment` undefined; Porter then refuses the cancel with 422
 *   `order_store.cancel_unsupported` before it changes anything.
 * - `verifyWebhook(rawBody, headers)` checks a platform webhook delivery (the signature over the
 *   exact bytes received, with the store's webhook secret) and answers its topic, its delivery id
 *   (for deduplication: what tells two deliveries apart, the platform's own id when it is unique) and, for order topics, the order mapped to `ImportedOrder` (null for other
 *   topics and pings, which Porter acknowledges and ignores). A delivery that does not verify is
 *   answered `{ ok: false, reason }` and Porter refuses it with 401; it never throws for a bad
 *   signature.
 * - `verifyCredentials()` makes one cheap authenticated call and throws `StoreConnectorError`
 *   when the shop refuses it.
 *
 * ## Errors
 *
 * Every failure the platform causes is a `StoreConnectorError` with a `kind` and the platform's
 * own words in the message (never a credential): `auth` (401/403, a revoked token), `scope` (a
 * missing access scope or, on Shopify, no protected customer data access: reported on the store,
 * never turned into an empty list), `throttled` (still throttled after the connector's own retries),
 * `not_found` (the order or fulfillment is gone on the platform), `rejected` (the platform refused a
 * write for a business reason), `unavailable` (network errors, 5xx, timeouts) and
 * `invalid_response` (an answer Porter cannot read). A connector retries throttling itself
 * (honouring the platform's own wait: `Retry-After`, Shopify's restore rate) using
 * `ConnectorSettings.wait`, so tests never sleep.
 *
 * ## The imported order
 *
 * `ImportedOrder` is the platform's order mapped to Porter's order: money in integer cents (parse
 * the platform's decimal text exactly, never through a float sum), times as ISO 8601 UTC, weights
 * in ounces, addresses with eHub's order address keys. `platformOrderId` is the platform's stable
 * id (Porter's `order_id`); `orderNumber` is what the merchant sees (`#1001`, `1001`) and is unique
 * in the shop. `updatedAt` is the platform's own last-change time: an update older than the one
 * Porter holds is ignored, so webhooks and sync pages may arrive in any order.
 */

import type { Clock } from "../clock.js";
import type { OrderAddress } from "../domain/orders/order-input.js";
import type { OutboundClient } from "../net/outbound-guard.js";

/** A store type that has a platform behind it. */
export type PlatformType = "shopify" | "woocommerce";

export interface ImportedOrderItem {
  /** The platform's line item id. */
  platformLineItemId: string;
  name: string | null;
  sku: string | null;
  /** The platform's product id, when it has one. */
  productId: string | null;
  variantId: string | null;
  /** "Large / Blue" and the like. */
  variantName: string | null;
  quantity: number;
  /** Unit price, integer cents. */
  priceCents: number | null;
  /** Unit weight in ounces. */
  weightOz: number | null;
  imageUrl: string | null;
}

export interface ImportedOrder {
  /** The platform's stable id for the order (Shopify's numeric id, WooCommerce's order id). */
  platformOrderId: string;
  /** The number the merchant sees, unique in the shop. */
  orderNumber: string;
  /** ISO 8601 UTC. */
  createdAt: string | null;
  /** The platform's last change, ISO 8601 UTC: decides which of two versions is newer. */
  updatedAt: string;
  /** The platform's payment state in its own words (`paid`, `pending`, `refunded`, …). */
  paymentStatus: string | null;
  /** The platform's order state in its own words (`open`, `processing`, `cancelled`, …). */
  orderStatus: string | null;
  /** How much of the order the platform says has shipped, in Porter's words. */
  shipmentStatus: "pending" | "partial" | "shipped";
  items: ImportedOrderItem[];
  shippingAddress: OrderAddress | null;
  billingAddress: OrderAddress | null;
  customer: { platformCustomerId: string | null; email: string | null } | null;
  /** Integer cents, as the platform states them (not re-derived). */
  totals: {
    itemsCents: number | null;
    taxCents: number | null;
    shippingCents: number | null;
    totalCents: number | null;
  };
  /**
   * The ISO 4217 code of the currency the amounts are in (the shop's own), and of the one the buyer
   * paid in where it differs; null when the platform does not say.
   */
  currency?: { shop: string; presentment: string | null } | null;
  /** The shipping method the buyer chose, as the platform names it. */
  shippingMethod: string | null;
  notes: string | null;
  /** Comma separated, as eHub shows tags. */
  tags: string | null;
}

export interface OrderPage {
  orders: ImportedOrder[];
  nextCursor: string | null;
}

export interface FetchOrdersRequest {
  /** ISO 8601 UTC; null reads every order. */
  updatedSince: string | null;
  cursor: string | null;
  /** At most this many orders per page (the platform's own limit may be lower). */
  pageSize?: number;
}

/** The order a write-back is about. */
export interface PlatformOrderRef {
  platformOrderId: string;
  orderNumber: string;
}

export interface ShipmentWriteBack {
  trackingNumber: string;
  /** Carrier name as the merchant gave it (`USPS`, `UPS`, …). */
  carrier: string;
  service: string;
  /** The carrier's public tracking page, when Porter knows it. */
  trackingUrl: string | null;
  /** ISO 8601 UTC. */
  shipDate: string;
  /** Whether the platform should email the buyer. */
  notify: boolean;
  /**
   * The items this shipment carries, by the platform's line item id; absent or empty when it
   * carries all that has not shipped yet. A platform that cannot ship part of an order may ignore it.
   */
  items?: { platformLineItemId: string; quantity: number }[];
  /**
   * False when items of the order are still left to ship after this shipment: a platform that
   * cannot ship part of an order then records the shipment without closing the order.
   */
  completesOrder?: boolean;
}

export type WebhookVerdict =
  | { ok: true; topic: string; deliveryId: string; order: ImportedOrder | null }
  | { ok: false; reason: string };

/** Lower-cased header names, as Node gives them. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface StoreConnector {
  fetchOrders(request: FetchOrdersRequest): Promise<OrderPage>;
  writeShipment(order: PlatformOrderRef, shipment: ShipmentWriteBack): Promise<{ platformShipmentId: string | null }>;
  /** Undefined when the platform cannot reverse a shipment. */
  cancelShipment?(order: PlatformOrderRef, platformShipmentId: string | null): Promise<void>;
  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): WebhookVerdict;
  verifyCredentials(): Promise<void>;
}

export type StoreConnectorErrorKind =
  | "auth"
  | "scope"
  | "throttled"
  | "not_found"
  | "rejected"
  | "unavailable"
  | "invalid_response";

/** A platform failure, in the platform's own words (never a credential). */
export class StoreConnectorError extends Error {
  constructor(
    readonly kind: StoreConnectorErrorKind,
    message: string,
    /** The platform's HTTP status, when there was one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = "StoreConnectorError";
  }
}

/** What every connector is built with besides the store's credentials. */
export interface ConnectorSettings {
  clock: Clock;
  timeoutMs: number;
  /** Waits between retries; tests pass one that does not sleep. */
  wait: (ms: number) => Promise<void>;
  /**
   * Overrides the platform's host for every store (a proxy, a stand-in). Platforms whose
   * credentials hold a full site URL ignore it.
   */
  baseUrl?: string;
  /** Makes the requests to addresses the store's credentials hold (they pass the outbound guard). */
  outbound: OutboundClient;
}

/** One platform: what its credentials hold and how a connector is made from them. */
export interface StorePlatform {
  type: PlatformType;
  /** Credential keys a store must have. */
  requiredCredentials: readonly string[];
  /** Throws StoreConnectorError (kind `auth`) when the credentials have the wrong shape. */
  open(credentials: Record<string, string>, settings: ConnectorSettings): StoreConnector;
  /**
   * The addresses in the credentials that the connector will call (a WooCommerce site), checked by
   * the outbound guard before the store is saved; none for a platform whose host is its own.
   */
  userAddresses?(credentials: Record<string, string>): URL[];
  /**
   * A body the platform sends unsigned and needs a 200 for (WooCommerce's ping when a webhook is
   * saved). Porter answers it without reading the store and writes nothing.
   */
  isUnsignedPing?(rawBody: Buffer): boolean;
  /**
   * The platform gives up on a webhook delivery that failed (WooCommerce): Porter then syncs its
   * stores that take webhooks on a short interval, so no lost delivery waits for the sync round.
   */
  webhooksUnretried?: boolean;
}
