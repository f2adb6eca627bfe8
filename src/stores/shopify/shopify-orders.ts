import type { OrderAddress } from "../../domain/orders/order-input.js";
import { centsOfDecimal, ouncesOf } from "../platform-values.js";
import type { ImportedOrder, ImportedOrderItem } from "../store-connector.js";
import {
  type LineItemNode,
  type MailingAddress,
  type Money,
  numericId,
  type OrderNode,
  type WebhookAddress,
  type WebhookOrder,
} from "./shopify-wire.js";

const iso = (text: string) => new Date(text).toISOString();
const amount = (money: Money | null | undefined) => centsOfDecimal(money?.shopMoney.amount);
const lower = (text: string | null | undefined) => (text ? text.toLowerCase() : null);

/**
 * A tax-inclusive shop's subtotal already holds the tax; Porter keeps items, tax and shipping
 * apart (items + tax + shipping = total), so the tax comes out of the items.
 */
function itemsNetOfTax(subtotal: number | null, tax: number | null, taxesIncluded: boolean | null | undefined) {
  return taxesIncluded && subtotal !== null && tax !== null ? subtotal - tax : subtotal;
}

/** The currency the buyer paid in, only where it is not the shop's own. */
const presentment = (shop: string, buyer: string | null | undefined) => (buyer && buyer !== shop ? buyer : null);

/** Shopify's fulfillment status in Porter's words; what is not shipped yet is pending. */
function shipmentStatus(fulfillment: string | null | undefined): ImportedOrder["shipmentStatus"] {
  switch ((fulfillment ?? "").toUpperCase()) {
    case "FULFILLED":
      return "shipped";
    case "PARTIALLY_FULFILLED":
    case "PARTIAL":
      return "partial";
    default:
      return "pending";
  }
}

function orderStatus(cancelledAt: string | null | undefined, closed: boolean): string {
  if (cancelledAt) return "cancelled";
  return closed ? "closed" : "open";
}

function address(a: MailingAddress | null): OrderAddress | null {
  if (!a) return null;
  return {
    company: a.company,
    first_name: a.firstName,
    last_name: a.lastName,
    address1: a.address1,
    address2: a.address2,
    address3: null,
    city: a.city,
    state: a.provinceCode,
    country: a.countryCodeV2,
    postal_code: a.zip,
    phone: a.phone,
    email: null,
  };
}

function webhookAddress(a: WebhookAddress | null | undefined): OrderAddress | null {
  if (!a) return null;
  return {
    company: a.company ?? null,
    first_name: a.first_name ?? null,
    last_name: a.last_name ?? null,
    address1: a.address1 ?? null,
    address2: a.address2 ?? null,
    address3: null,
    city: a.city ?? null,
    state: a.province_code ?? null,
    country: a.country_code ?? null,
    postal_code: a.zip ?? null,
    phone: a.phone ?? null,
    email: null,
  };
}

export function lineItem(node: LineItemNode): ImportedOrderItem {
  const weight = node.variant?.inventoryItem?.measurement?.weight;
  return {
    platformLineItemId: numericId(node.id),
    name: node.name,
    sku: node.sku || null,
    productId: node.product?.legacyResourceId ?? null,
    variantId: node.variant?.legacyResourceId ?? null,
    variantName: node.variantTitle,
    // What is still on the order: refunded and removed units are not shipped.
    quantity: node.currentQuantity,
    priceCents: amount(node.originalUnitPriceSet),
    weightOz: weight ? ouncesOf(weight.value, weight.unit) : null,
    imageUrl: node.image?.url ?? null,
  };
}

/** An order of the GraphQL `orders` query; `items` are all its line items (the query reads only the first ones). */
export function orderFromGraphql(node: OrderNode, items: readonly LineItemNode[]): ImportedOrder {
  const subtotal = amount(node.currentSubtotalPriceSet);
  const tax = amount(node.currentTotalTaxSet);
  return {
    platformOrderId: node.legacyResourceId,
    orderNumber: node.name,
    createdAt: iso(node.createdAt),
    updatedAt: iso(node.updatedAt),
    paymentStatus: lower(node.displayFinancialStatus),
    orderStatus: orderStatus(node.cancelledAt, node.closed),
    shipmentStatus: shipmentStatus(node.displayFulfillmentStatus),
    items: items.map(lineItem),
    shippingAddress: address(node.shippingAddress),
    billingAddress: address(node.billingAddress),
    customer:
      node.customer || node.email
        ? { platformCustomerId: node.customer?.legacyResourceId ?? null, email: node.email }
        : null,
    totals: {
      itemsCents: itemsNetOfTax(subtotal, tax, node.taxesIncluded),
      taxCents: tax,
      shippingCents: amount(node.currentShippingPriceSet),
      totalCents: amount(node.currentTotalPriceSet),
    },
    currency: { shop: node.currencyCode, presentment: presentment(node.currencyCode, node.presentmentCurrencyCode) },
    shippingMethod: node.shippingLine?.title ?? null,
    notes: node.note || null,
    tags: node.tags.length > 0 ? node.tags.join(", ") : null,
  };
}

/** An order as the `orders/create` and `orders/updated` webhooks carry it. */
export function orderFromWebhook(order: WebhookOrder): ImportedOrder {
  return {
    platformOrderId: String(order.id),
    orderNumber: order.name,
    createdAt: order.created_at ? iso(order.created_at) : null,
    updatedAt: iso(order.updated_at),
    paymentStatus: lower(order.financial_status),
    orderStatus: orderStatus(order.cancelled_at, Boolean(order.closed_at)),
    shipmentStatus: shipmentStatus(order.fulfillment_status),
    items: (order.line_items ?? []).map((item) => ({
      platformLineItemId: String(item.id),
      name: item.name ?? item.title ?? null,
      sku: item.sku || null,
      productId: item.product_id == null ? null : String(item.product_id),
      variantId: item.variant_id == null ? null : String(item.variant_id),
      variantName: item.variant_title || null,
      quantity: item.current_quantity ?? item.quantity,
      priceCents: centsOfDecimal(item.price),
      weightOz: ouncesOf(item.grams, "g"),
      imageUrl: null,
    })),
    shippingAddress: webhookAddress(order.shipping_address),
    billingAddress: webhookAddress(order.billing_address),
    customer:
      order.customer || order.email
        ? {
            platformCustomerId: order.customer ? String(order.customer.id) : null,
            email: order.customer?.email ?? order.email ?? null,
          }
        : null,
    totals: {
      itemsCents: itemsNetOfTax(
        centsOfDecimal(order.subtotal_price),
        centsOfDecimal(order.total_tax),
        order.taxes_included,
      ),
      taxCents: centsOfDecimal(order.total_tax),
      shippingCents: centsOfDecimal(order.total_shipping_price_set?.shop_money?.amount),
      totalCents: centsOfDecimal(order.total_price),
    },
    currency: order.currency
      ? { shop: order.currency, presentment: presentment(order.currency, order.presentment_currency) }
      : null,
    shippingMethod: order.shipping_lines?.[0]?.title ?? null,
    notes: order.note || null,
    tags: order.tags || null,
  };
}
