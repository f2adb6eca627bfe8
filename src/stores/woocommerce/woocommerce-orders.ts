import type { OrderAddress } from "../../domain/orders/order-input.js";
import { centsOfDecimal } from "../platform-values.js";
import { type ImportedOrder, type ImportedOrderItem, StoreConnectorError } from "../store-connector.js";
import type { WooAddress, WooLineItem, WooMeta, WooOrder } from "./woocommerce-wire.js";

/** Unit weights in ounces by product (or variation) id, when known. */
export type WeightsOz = ReadonlyMap<number, number | null>;

/** WooCommerce's UTC times carry no zone: they are UTC by name (`date_modified_gmt`). */
export function wooInstant(gmt: string | null | undefined): string | null {
  if (!gmt) return null;
  const time = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(gmt) ? gmt : `${gmt}Z`);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

const text = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

function address(source: WooAddress | null | undefined): OrderAddress | null {
  if (!source) return null;
  const mapped: OrderAddress = {
    company: text(source.company),
    first_name: text(source.first_name),
    last_name: text(source.last_name),
    address1: text(source.address_1),
    address2: text(source.address_2),
    city: text(source.city),
    state: text(source.state),
    country: text(source.country),
    postal_code: text(source.postcode),
    phone: text(source.phone),
    email: text(source.email),
  };
  return Object.values(mapped).some((value) => value !== null) ? mapped : null;
}

/** A variation's chosen attributes ("Large / Blue"), from the item's displayed meta (keys with "_" are internal). */
function variantName(meta: readonly WooMeta[] | undefined): string | null {
  const shown = (meta ?? [])
    .filter((entry) => !entry.key.startsWith("_"))
    .map((entry) => entry.display_value ?? entry.value)
    .filter((value): value is string | number => typeof value === "string" || typeof value === "number")
    .map(String)
    .filter((value) => value.trim() !== "");
  return shown.length > 0 ? shown.join(" / ") : null;
}

/** The unit price before discounts, in cents, from the line's exact subtotal (rounded half up per unit). */
function unitPriceCents(item: WooLineItem): number | null {
  const subtotal = centsOfDecimal(item.subtotal);
  if (subtotal !== null && item.quantity > 0) return Math.round(subtotal / item.quantity);
  return centsOfDecimal(item.price);
}

function lineItem(item: WooLineItem, weights: WeightsOz): ImportedOrderItem {
  const productKey = item.variation_id || item.product_id;
  return {
    platformLineItemId: String(item.id),
    name: text(item.name),
    sku: text(item.sku),
    productId: item.product_id ? String(item.product_id) : null,
    variantId: item.variation_id ? String(item.variation_id) : null,
    variantName: item.variation_id ? variantName(item.meta_data) : null,
    quantity: item.quantity,
    priceCents: unitPriceCents(item),
    weightOz: weights.get(productKey) ?? null,
    imageUrl: text(item.image?.src),
  };
}

/** WooCommerce has no payment status of its own: a refund, a payment date or neither. */
function paymentStatus(order: WooOrder): string {
  if (order.status === "refunded") return "refunded";
  return order.date_paid_gmt ? "paid" : "unpaid";
}

/**
 * A WooCommerce order (as the REST API and order webhooks send it) in Porter's words. Money is read
 * from WooCommerce's decimal text into cents; the items' total is what is left of the order's total
 * after tax and shipping (so fees and discounts are in it, and the totals add up as eHub's do).
 * Weights come from the products, which the order does not carry (`weights`, possibly empty).
 */
export function orderFromWoo(order: WooOrder, weights: WeightsOz = new Map()): ImportedOrder {
  const totalCents = centsOfDecimal(order.total);
  const taxCents = centsOfDecimal(order.total_tax);
  const shippingCents = centsOfDecimal(order.shipping_total);
  const updatedAt = wooInstant(order.date_modified_gmt) ?? wooInstant(order.date_created_gmt);
  if (updatedAt === null) {
    throw new StoreConnectorError("invalid_response", `WooCommerce order ${order.id} has no date_modified_gmt`);
  }
  const methods = (order.shipping_lines ?? []).map((line) => text(line.method_title)).filter(Boolean);
  const billing = address(order.billing);
  const currency = text(order.currency);
  return {
    platformOrderId: String(order.id),
    orderNumber: text(order.number) ?? String(order.id),
    createdAt: wooInstant(order.date_created_gmt),
    updatedAt,
    paymentStatus: paymentStatus(order),
    orderStatus: order.status,
    shipmentStatus: order.status === "completed" ? "shipped" : "pending",
    items: (order.line_items ?? []).map((item) => lineItem(item, weights)),
    shippingAddress: address(order.shipping),
    billingAddress: billing,
    customer:
      order.customer_id || billing?.email
        ? { platformCustomerId: order.customer_id ? String(order.customer_id) : null, email: billing?.email ?? null }
        : null,
    totals: {
      itemsCents: totalCents === null ? null : totalCents - (taxCents ?? 0) - (shippingCents ?? 0),
      taxCents,
      shippingCents,
      totalCents,
    },
    // WooCommerce states one currency per order, the one its amounts are in.
    currency: currency ? { shop: currency, presentment: null } : null,
    shippingMethod: methods.length > 0 ? methods.join(", ") : null,
    notes: text(order.customer_note),
    tags: null,
  };
}

/** Whether a parsed webhook body is an order WooCommerce sent. */
export function isWooOrder(body: unknown): body is WooOrder {
  const order = body as Partial<WooOrder> | null;
  return (
    typeof order === "object" &&
    order !== null &&
    typeof order.id === "number" &&
    Array.isArray(order.line_items) &&
    (typeof order.date_modified_gmt === "string" || typeof order.date_created_gmt === "string")
  );
}
