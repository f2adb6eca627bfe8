import { ORDER_ADDRESS_KEYS, type OrderAddress } from "../../../domain/orders/order-input.js";
import type { OrderStoreRow } from "../../../domain/orders/order-stores.repository.js";
import type { OrderItemRow, OrderRecord, OrderShipmentRow } from "../../../domain/orders/orders.repository.js";

/**
 * eHub answers one order in four shapes whose value types differ (reference §5.22–5.24): the list,
 * the retrieve, the create answer and the update answer. Porter reproduces each as documented so
 * clients written against eHub read them unchanged.
 */
export type OrderShape = "list" | "retrieve" | "created" | "updated";

/** An amount as eHub's decimal text: "150.0", "12.5", "8.99". */
export function decimalText(cents: number | null): string | null {
  if (cents === null) return null;
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const fraction = String(abs % 100)
    .padStart(2, "0")
    .replace(/0$/, "");
  return `${sign}${Math.floor(abs / 100)}.${fraction}`;
}

const dollars = (cents: number | null) => (cents === null ? null : cents / 100);
const quantityText = (quantity: number | null) =>
  quantity === null ? null : Number.isInteger(quantity) ? `${quantity}.0` : String(quantity);

/** Where eHub types an id as a number: the number when the text is one, else the text itself. */
export function numericId(text: string | null): number | string | null {
  return text !== null && /^(0|[1-9]\d{0,14})$/.test(text) ? Number(text) : text;
}

function presentAddress(json: string | null) {
  const address = json ? (JSON.parse(json) as OrderAddress) : {};
  return Object.fromEntries(ORDER_ADDRESS_KEYS.map((key) => [key, address[key] ?? null]));
}

function presentItem(item: OrderItemRow, shape: OrderShape): Record<string, unknown> {
  const asNumber = shape === "retrieve" ? numericId : (text: string | null) => text;
  const moneyAsText = shape === "list" || shape === "retrieve";
  const full = {
    id: shape === "updated" ? String(item.id) : item.id,
    item_id: asNumber(item.item_id),
    name: item.name,
    accounting_id: asNumber(item.accounting_id),
    accounting_number: asNumber(item.accounting_number),
    variant_name: item.variant_name,
    variant_id: asNumber(item.variant_id),
    variant_option1: null,
    variant_option2: null,
    variant_option3: null,
    image_src: item.image_src,
    external_id: asNumber(item.external_id),
    sku: item.sku,
    alt_external_id: item.alt_external_id,
    weight: item.weight_oz,
    length: null,
    width: null,
    height: null,
    quantity: shape === "list" ? quantityText(item.quantity) : item.quantity,
    price: moneyAsText ? decimalText(item.price_cents) : dollars(item.price_cents),
    cost: moneyAsText ? decimalText(item.cost_cents) : dollars(item.cost_cents),
  };
  if (shape !== "created") return full;
  // The create answer echoes the create request's item fields only.
  const {
    id,
    variant_id,
    variant_option1,
    variant_option2,
    variant_option3,
    image_src,
    length,
    width,
    height,
    ...echo
  } = full;
  return echo;
}

function presentShipment(shipment: OrderShipmentRow) {
  return {
    id: shipment.id,
    external_id: null,
    shipment_id: null,
    carrier: shipment.carrier,
    service: shipment.service,
    ship_date: shipment.ship_date,
    tracking_number: shipment.tracking_number,
    weight: shipment.weight_oz === null ? null : String(shipment.weight_oz),
    shipping_cost: decimalText(shipment.shipping_cost_cents),
    insurance_type: null,
    insurance_amount: null,
    parcels: [],
    created_at: shipment.created_at,
    updated_at: shipment.updated_at,
  };
}

export function presentOrder(store: OrderStoreRow, record: OrderRecord, shape: OrderShape): Record<string, unknown> {
  const { order } = record;
  const storeIdAsText = shape === "created" || shape === "updated";
  const totalsAsText = shape !== "created";
  const total = (cents: number | null) => (totalsAsText ? decimalText(cents) : dollars(cents));
  const answer: Record<string, unknown> = {
    id: order.id,
    order_store_type: store.service_type,
    order_store_id: storeIdAsText ? String(store.id) : store.id,
    order_store_name: store.name,
    order_id: storeIdAsText ? order.store_order_id : numericId(order.store_order_id),
    external_id: shape === "retrieve" ? numericId(order.external_id) : order.external_id,
    order_number: order.order_number,
    sub_order_count: shape === "retrieve" ? 0 : "0",
    order_date: order.order_date,
    payment_status: order.payment_status,
    order_status: order.order_status,
    shipment_status: order.shipment_status,
    items_total: total(order.items_total_cents),
    tax_total: total(order.tax_total_cents),
    total: total(order.total_cents),
    shipping_total: shape === "retrieve" ? dollars(order.shipping_total_cents) : total(order.shipping_total_cents),
    currency: order.currency,
    presentment_currency: order.presentment_currency,
    notes: order.notes,
    tags: order.tags,
    items: record.items.map((item) => presentItem(item, shape)),
    billing_address: presentAddress(order.billing_address),
    shipping_address: presentAddress(order.shipping_address),
    external_customer_email: order.external_customer_email,
    external_customer_id: shape === "retrieve" ? numericId(order.external_customer_id) : order.external_customer_id,
    shipping_method: order.shipping_method,
    ship_by_date: order.ship_by_date,
    created_at: order.created_at,
    updated_at: order.updated_at,
  };
  if (shape === "created") delete answer.sub_order_count;
  if (shape === "list" || shape === "retrieve") answer.shipments = record.shipments.map(presentShipment);
  return answer;
}
