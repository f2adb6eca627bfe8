import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema.js";
import { DomainError } from "../errors.js";
import type { OrderItemRow } from "./orders.repository.js";

/** An item a shipment carries, named as the order shows it: by `id`, `external_id`, `item_id` or `sku`. */
export interface ShipItemInput {
  id?: number | null;
  external_id?: string | null;
  item_id?: string | null;
  sku?: string | null;
  /** Defaults to what of the item has not shipped yet. */
  quantity?: number | null;
}

export interface ShippedItem {
  itemKey: string;
  quantity: number;
}

export const SHIPMENT_STATUSES = ["pending", "partial", "shipped"] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];
/** What the order list filters on: one shipment status, or `all`. */
export const ORDER_LIST_STATUSES = [...SHIPMENT_STATUSES, "all"] as const;
export type OrderListStatus = (typeof ORDER_LIST_STATUSES)[number];

/**
 * What names an item across changes of its order: the platform's line id, else the item id, else
 * the SKU, else its place. Item rows are replaced whole when an order changes, so row ids do not last.
 */
export function itemKey(item: Pick<OrderItemRow, "external_id" | "item_id" | "sku" | "position">): string {
  if (item.external_id) return `external:${item.external_id}`;
  if (item.item_id) return `item:${item.item_id}`;
  if (item.sku) return `sku:${item.sku}`;
  return `position:${item.position}`;
}

function sumByKey(entries: readonly ShippedItem[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const { itemKey: key, quantity } of entries) sums.set(key, (sums.get(key) ?? 0) + quantity);
  return sums;
}

const ordered = (items: readonly OrderItemRow[]) =>
  sumByKey(items.map((item) => ({ itemKey: itemKey(item), quantity: item.quantity ?? 1 })));

/**
 * An order's shipment status from its live shipments: none is pending; a shipment naming no items
 * ships the whole order; otherwise shipped once every item's quantity has shipped, partial before.
 */
export function shipmentStatusOf(items: readonly OrderItemRow[], live: readonly ShippedItem[][]): ShipmentStatus {
  if (live.length === 0) return "pending";
  if (live.some((carried) => carried.length === 0)) return "shipped";
  const shipped = sumByKey(live.flat());
  for (const [key, quantity] of ordered(items)) {
    if ((shipped.get(key) ?? 0) < quantity) return "partial";
  }
  return "shipped";
}

/** How much of one order item has shipped, and how much is left to ship. */
export interface ItemProgress {
  shipped: number;
  remaining: number;
}

/**
 * What each live shipment carried (a shipment naming no items carried whatever was left when it
 * shipped) and, per order item in the order's order, how much of it has shipped and is left.
 * Items sharing a key take the shipped quantity in their order.
 */
export function fulfilmentOf(
  items: readonly OrderItemRow[],
  live: readonly ShippedItem[][],
): { carried: ShippedItem[][]; progress: ItemProgress[] } {
  const left = ordered(items);
  const carried = live.map((named) => {
    const taken =
      named.length > 0
        ? named
        : [...left].filter(([, quantity]) => quantity > 0).map(([key, quantity]) => ({ itemKey: key, quantity }));
    for (const { itemKey: key, quantity } of taken) left.set(key, (left.get(key) ?? 0) - quantity);
    return taken;
  });
  const pool = sumByKey(carried.flat());
  const progress = items.map((item) => {
    const key = itemKey(item);
    const quantity = item.quantity ?? 1;
    const shipped = Math.min(quantity, pool.get(key) ?? 0);
    pool.set(key, (pool.get(key) ?? 0) - shipped);
    return { shipped, remaining: quantity - shipped };
  });
  return { carried, progress };
}

function describe(input: ShipItemInput): string {
  if (input.id != null) return `id ${input.id}`;
  if (input.external_id) return `external_id ${input.external_id}`;
  if (input.item_id) return `item_id ${input.item_id}`;
  return `sku ${input.sku ?? "(none)"}`;
}

function matches(item: OrderItemRow, input: ShipItemInput): boolean {
  if (input.id != null) return item.id === input.id;
  if (input.external_id) return item.external_id === input.external_id;
  if (input.item_id) return item.item_id === input.item_id;
  return Boolean(input.sku) && item.sku === input.sku;
}

/**
 * The items a shipment request names, resolved against the order: each must be one of its items
 * and no more of it may ship than is left. Answers what the shipment carries, by item key.
 */
export function resolveShippedItems(
  items: readonly OrderItemRow[],
  live: readonly ShippedItem[][],
  requested: readonly ShipItemInput[],
): ShippedItem[] {
  const left = ordered(items);
  if (live.some((carried) => carried.length === 0)) left.clear();
  for (const [key, quantity] of sumByKey(live.flat())) left.set(key, (left.get(key) ?? 0) - quantity);
  const carried: ShippedItem[] = [];
  for (const input of requested) {
    const item = items.find((candidate) => matches(candidate, input));
    if (!item) {
      throw new DomainError("order.item_not_found", `The order has no item with ${describe(input)}.`);
    }
    const key = itemKey(item);
    const remaining = left.get(key) ?? 0;
    const quantity = input.quantity ?? remaining;
    if (quantity <= 0 || quantity > remaining) {
      throw new DomainError(
        "order.item_over_shipped",
        `${quantity} of the item with ${describe(input)} cannot ship: ${Math.max(remaining, 0)} of it ${remaining === 1 ? "is" : "are"} left to ship.`,
      );
    }
    left.set(key, remaining - quantity);
    carried.push({ itemKey: key, quantity });
  }
  return carried;
}

/** The items each live shipment carries, in the shipments' order. */
export async function shippedItemsOf(db: Kysely<Database>, shipmentIds: readonly number[]): Promise<ShippedItem[][]> {
  if (shipmentIds.length === 0) return [];
  const rows = await db
    .selectFrom("order_shipment_items")
    .selectAll()
    .where("order_shipment_id", "in", shipmentIds)
    .orderBy("id")
    .execute();
  return shipmentIds.map((id) =>
    rows
      .filter((row) => row.order_shipment_id === id)
      .map((row) => ({ itemKey: row.item_key, quantity: row.quantity })),
  );
}
