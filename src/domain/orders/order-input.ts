import type { Updateable } from "kysely";
import type { OrderTable } from "../../storage/schema.js";
import { usdToCents } from "../customs/customs-rules.js";
import { DomainError } from "../errors.js";
import type { NewOrderItem } from "./orders.repository.js";

/** The largest amount a cents column holds (32-bit, as every integer column). */
const MAX_CENTS = 2_147_483_647;

export const ORDER_ADDRESS_KEYS = [
  "company",
  "first_name",
  "last_name",
  "address1",
  "address2",
  "address3",
  "city",
  "state",
  "country",
  "postal_code",
  "phone",
  "email",
] as const;

/** An order address (eHub's Addr-order); every field optional. */
export type OrderAddress = Partial<Record<(typeof ORDER_ADDRESS_KEYS)[number], string | null>>;

/** One item as the client sends it; amounts in US dollars. */
export interface OrderItemInput {
  item_id?: string | null;
  name?: string | null;
  accounting_id?: string | null;
  accounting_number?: string | null;
  variant_name?: string | null;
  image_src?: string | null;
  external_id?: string | null;
  alt_external_id?: string | null;
  sku?: string | null;
  weight?: number | null;
  quantity?: number | null;
  price?: number | null;
  cost?: number | null;
}

/** An order in the wire's own names (dates already normalized); amounts in US dollars. */
export interface OrderInput {
  order_id?: string | null;
  order_number?: string;
  order_date?: string | null;
  payment_status?: string | null;
  order_status?: string | null;
  shipment_status?: string | null;
  items_total?: number | null;
  tax_total?: number | null;
  shipping_total?: number | null;
  total?: number | null;
  notes?: string | null;
  tags?: string | null;
  items?: OrderItemInput[];
  billing_address?: OrderAddress | null;
  shipping_address?: OrderAddress | null;
  external_customer_email?: string | null;
  external_customer_id?: string | null;
  shipping_method?: string | null;
  ship_by_date?: string | null;
}

/** Integer cents that a cents column holds, else 422 naming the field. */
export function checkedCents(field: string, cents: number): number {
  if (!Number.isSafeInteger(cents) || Math.abs(cents) > MAX_CENTS) {
    throw new DomainError("order.amount_too_large", `${field} is larger than Porter stores (21,474,836.47).`);
  }
  return cents;
}

function cents(field: string, amount: number | null | undefined): number | null {
  return amount === undefined || amount === null ? null : amountCents(field, amount);
}

/** A wire amount in US dollars as integer cents that a cents column holds. */
export function amountCents(field: string, amount: number): number {
  return checkedCents(field, usdToCents(amount));
}

/** An item's cost is price × quantity when not sent, worked out in cents for whole quantities. */
export function orderItemRows(items: readonly OrderItemInput[]): NewOrderItem[] {
  return items.map((item, index) => {
    const price = cents(`items[${index}].price`, item.price);
    const sentCost = cents(`items[${index}].cost`, item.cost);
    const quantity = item.quantity ?? null;
    const cost =
      sentCost ??
      (price !== null && quantity !== null && Number.isInteger(quantity)
        ? checkedCents(`items[${index}].cost`, price * quantity)
        : null);
    return {
      item_id: item.item_id ?? null,
      name: item.name ?? null,
      accounting_id: item.accounting_id ?? null,
      accounting_number: item.accounting_number ?? null,
      variant_name: item.variant_name ?? null,
      image_src: item.image_src ?? null,
      external_id: item.external_id ?? null,
      alt_external_id: item.alt_external_id ?? null,
      sku: item.sku ?? null,
      weight_oz: item.weight ?? null,
      quantity,
      price_cents: price,
      cost_cents: cost,
    };
  });
}

const addressText = (address: OrderAddress | null | undefined) =>
  address === undefined ? undefined : address === null ? null : JSON.stringify(address);

/**
 * The columns an input sets: only the fields it carries (a partial update changes nothing else).
 * On a new order, missing totals are derived in cents: the items' costs, then their sum with tax
 * and shipping.
 */
export function orderColumns(input: OrderInput, items: readonly NewOrderItem[] | undefined, isNew: boolean) {
  const columns: Updateable<OrderTable> = {};
  const text = [
    "order_number",
    "order_date",
    "payment_status",
    "order_status",
    "notes",
    "tags",
    "external_customer_email",
    "external_customer_id",
    "shipping_method",
    "ship_by_date",
  ] as const;
  for (const key of text) {
    if (input[key] !== undefined) (columns as Record<string, unknown>)[key] = input[key];
  }
  if (input.order_id !== undefined) columns.store_order_id = input.order_id;
  if (input.shipment_status !== undefined) columns.shipment_status = input.shipment_status ?? "pending";
  if (input.billing_address !== undefined) columns.billing_address = addressText(input.billing_address);
  if (input.shipping_address !== undefined) columns.shipping_address = addressText(input.shipping_address);
  const amounts = [
    ["items_total", "items_total_cents"],
    ["tax_total", "tax_total_cents"],
    ["shipping_total", "shipping_total_cents"],
    ["total", "total_cents"],
  ] as const;
  for (const [field, column] of amounts) {
    if (input[field] !== undefined) columns[column] = cents(field, input[field]);
  }
  if (isNew) {
    const itemCosts = (items ?? []).map((item) => item.cost_cents);
    if (columns.items_total_cents == null && itemCosts.length > 0 && itemCosts.every((c) => c != null)) {
      columns.items_total_cents = checkedCents(
        "items_total",
        itemCosts.reduce((sum: number, c) => sum + (c ?? 0), 0),
      );
    }
    const parts = [columns.items_total_cents, columns.tax_total_cents, columns.shipping_total_cents];
    if (columns.total_cents == null && parts.some((part) => part != null)) {
      columns.total_cents = checkedCents(
        "total",
        parts.reduce((sum: number, part) => sum + (part ?? 0), 0),
      );
    }
  }
  return columns;
}
