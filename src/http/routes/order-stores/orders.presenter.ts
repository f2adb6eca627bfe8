import { ORDER_ADDRESS_KEYS, type OrderAddress } from "../../../domain/orders/order-input.js";
import type { OrderStoreRow } from "../../../domain/orders/order-stores.repository.js";
import type { OrderItemRow, OrderRecord, OrderShipmentRow } from "../../../domain/orders/orders.repository.js";
import { type ItemProgress, itemKey } from "../../../domain/orders/shipped-items.js";

/**
 * eHub answers one order in four shapes whose value types differ: the list,
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

function presentItem(item: OrderItemRow, shape: OrderShape, progress?: ItemProgress): Record<string, unknown> {
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
  // Beyond eHub: what of the item has shipped and what is left (a partial shipment shows both).
  if (shape !== "created")
    return { ...full, shipped_quantity: progress?.shipped ?? 0, remaining_quantity: progress?.remaining ?? 0 };
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

const lengthText = (value: number | null) => (value === null ? null : String(value));

/**
 * The shipment's parcels in eHub's shape: the Porter label's parcels when a label shipped the
 * order, else one parcel made of what was recorded. The items the shipment carried are listed on
 * its first parcel, with the quantity it carried.
 */
function presentParcels(record: OrderRecord, index: number) {
  const shipment = record.shipments[index] as OrderShipmentRow;
  const carried = (record.carried[index] ?? []).flatMap(({ itemKey: key, quantity }) => {
    const item = record.items.find((candidate) => itemKey(candidate) === key);
    return item ? [{ ...presentItem(item, "retrieve"), id: String(item.id), quantity }] : [];
  });
  const own = {
    id: null as number | null,
    external_shipment_id: null,
    external_id: shipment.platform_shipment_id,
    ship_date: shipment.ship_date,
    postage_label: {},
    status: "shipped",
    length: null as string | null,
    width: null as string | null,
    height: null as string | null,
    weight: lengthText(shipment.weight_oz),
    package_type: null as string | null,
    tracking_number: shipment.tracking_number as string | null,
    shipping_cost: decimalText(shipment.shipping_cost_cents),
    insurance_amount: null,
    created_at: shipment.created_at,
    updated_at: shipment.updated_at,
  };
  const labelParcels = record.labelParcels[index] ?? [];
  const parcels =
    labelParcels.length === 0
      ? [own]
      : labelParcels.map((parcel) => ({
          ...own,
          id: parcel.id,
          status: parcel.status,
          length: lengthText(parcel.length),
          width: lengthText(parcel.width),
          height: lengthText(parcel.height),
          weight: lengthText(parcel.weight),
          package_type: parcel.package_type,
          tracking_number: parcel.tracking_number,
          shipping_cost: decimalText(parcel.cost_cents),
        }));
  return parcels.map((parcel, position) => ({ ...parcel, parcel_items: position === 0 ? carried : [] }));
}

function presentShipment(record: OrderRecord, index: number) {
  const shipment = record.shipments[index] as OrderShipmentRow;
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
    parcels: presentParcels(record, index),
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
    items: record.items.map((item, index) => presentItem(item, shape, record.progress[index])),
    billing_address: presentAddress(order.billing_address),
    shipping_address: presentAddress(order.shipping_address),
    external_customer_email: order.external_customer_email,
    external_customer_id: shape === "retrieve" ? numericId(order.external_customer_id) : order.external_customer_id,
    shipping_method: order.shipping_method,
    ship_by_date: order.ship_by_date,
    created_at: order.created_at,
    updated_at: order.updated_at,
    // Beyond eHub: what will stop the order from becoming a label as it is.
    warnings: record.warnings,
  };
  if (shape === "created") delete answer.sub_order_count;
  if (shape === "list" || shape === "retrieve") {
    answer.shipments = record.shipments.map((_, index) => presentShipment(record, index));
  }
  return answer;
}
