import type { Insertable, Kysely } from "kysely";
import type { Database, OrderItemTable, OrderTable } from "../../storage/schema.js";
import type { ImportedOrder, ImportedOrderItem } from "../../stores/store-connector.js";
import { checkedCents } from "./order-input.js";
import type { OrderStoreRow } from "./order-stores.repository.js";
import { replaceOrderItems } from "./orders.repository.js";

/** Rows inserted per statement: well under both engines' limits on bound parameters. */
const INSERT_CHUNK = 500;

/** The platform's time in one form, so two of them compare as text. */
const instant = (iso: string) => new Date(iso).toISOString();

function itemRow(item: ImportedOrderItem, index: number): Omit<Insertable<OrderItemTable>, "order_id" | "position"> {
  const price = item.priceCents === null ? null : checkedCents(`items[${index}].price`, item.priceCents);
  return {
    item_id: item.productId,
    name: item.name,
    accounting_id: null,
    accounting_number: null,
    variant_id: item.variantId,
    variant_name: item.variantName,
    image_src: item.imageUrl,
    external_id: item.platformLineItemId,
    alt_external_id: null,
    sku: item.sku,
    weight_oz: item.weightOz,
    quantity: item.quantity,
    price_cents: price,
    cost_cents:
      price !== null && Number.isInteger(item.quantity)
        ? checkedCents(`items[${index}].cost`, price * item.quantity)
        : null,
  };
}

const cents = (field: string, value: number | null) => (value === null ? null : checkedCents(field, value));

/** An ISO 4217 code as stored: three letters in capitals; null for anything else. */
function currencyCode(code: string | null | undefined): string | null {
  const upper = code?.trim().toUpperCase() ?? "";
  return /^[A-Z]{3}$/.test(upper) ? upper : null;
}

/** The order's columns as the platform states them; the shipment status is decided by the caller. */
function orderColumns(order: ImportedOrder) {
  return {
    order_number: order.orderNumber,
    store_order_id: order.platformOrderId,
    order_date: order.createdAt === null ? null : instant(order.createdAt),
    payment_status: order.paymentStatus,
    order_status: order.orderStatus,
    items_total_cents: cents("items_total", order.totals.itemsCents),
    tax_total_cents: cents("tax_total", order.totals.taxCents),
    shipping_total_cents: cents("shipping_total", order.totals.shippingCents),
    total_cents: cents("total", order.totals.totalCents),
    currency: currencyCode(order.currency?.shop),
    presentment_currency: currencyCode(order.currency?.presentment),
    notes: order.notes,
    tags: order.tags,
    billing_address: order.billingAddress === null ? null : JSON.stringify(order.billingAddress),
    shipping_address: order.shippingAddress === null ? null : JSON.stringify(order.shippingAddress),
    external_customer_email: order.customer?.email ?? null,
    external_customer_id: order.customer?.platformCustomerId ?? null,
    shipping_method: order.shippingMethod,
    platform_updated_at: instant(order.updatedAt),
  } satisfies Partial<Insertable<OrderTable>>;
}

async function insertItems(
  db: Kysely<Database>,
  rows: { orderId: number; items: readonly ImportedOrderItem[] }[],
): Promise<void> {
  const all = rows.flatMap(({ orderId, items }) =>
    items.map((item, position) => ({ ...itemRow(item, position), order_id: orderId, position })),
  );
  for (let start = 0; start < all.length; start += INSERT_CHUNK) {
    await db
      .insertInto("order_items")
      .values(all.slice(start, start + INSERT_CHUNK))
      .execute();
  }
}

/**
 * Brings one page of platform orders into a store, in the caller's transaction. An order is known
 * by the platform's id: a new one is inserted, a known one is changed only when the platform's
 * update is newer than the one held (so a late webhook or an old page never rolls an order back),
 * and an order Porter has shipments for keeps the shipment status Porter gave it. Running the same
 * page twice changes nothing. Answers how many orders were inserted and updated.
 */
export async function importOrders(
  db: Kysely<Database>,
  store: Pick<OrderStoreRow, "id">,
  orders: readonly ImportedOrder[],
  now: string,
): Promise<{ inserted: number; updated: number }> {
  // The newest version of each order in the page, should the platform list one twice.
  const newest = new Map<string, ImportedOrder>();
  for (const order of orders) {
    const held = newest.get(order.platformOrderId);
    if (!held || instant(held.updatedAt) < instant(order.updatedAt)) newest.set(order.platformOrderId, order);
  }
  if (newest.size === 0) return { inserted: 0, updated: 0 };
  const known = new Map<string, { id: number; platform_updated_at: string | null }>();
  const ids = [...newest.keys()];
  for (let start = 0; start < ids.length; start += INSERT_CHUNK) {
    const rows = await db
      .selectFrom("orders")
      .select(["id", "store_order_id", "platform_updated_at"])
      .where("order_store_id", "=", store.id)
      .where("store_order_id", "in", ids.slice(start, start + INSERT_CHUNK))
      .execute();
    for (const row of rows) known.set(row.store_order_id as string, row);
  }

  const fresh = [...newest.values()].filter((order) => !known.has(order.platformOrderId));
  for (let start = 0; start < fresh.length; start += INSERT_CHUNK) {
    const chunk = fresh.slice(start, start + INSERT_CHUNK);
    const inserted = await db
      .insertInto("orders")
      .values(
        chunk.map((order) => ({
          ...orderColumns(order),
          order_store_id: store.id,
          external_id: null,
          ship_by_date: null,
          shipment_status: order.shipmentStatus,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning(["id", "store_order_id"])
      .execute();
    const idOf = new Map(inserted.map((row) => [row.store_order_id, row.id]));
    await insertItems(
      db,
      chunk.map((order) => ({ orderId: idOf.get(order.platformOrderId) as number, items: order.items })),
    );
  }

  let updated = 0;
  for (const order of newest.values()) {
    const held = known.get(order.platformOrderId);
    if (!held) continue;
    const version = instant(order.updatedAt);
    if (held.platform_updated_at !== null && held.platform_updated_at >= version) continue;
    const shippedByPorter = await db
      .selectFrom("order_shipments")
      .select("id")
      .where("order_id", "=", held.id)
      .where("cancelled_at", "is", null)
      .executeTakeFirst();
    // The version check is repeated in the write: another import may have moved the order on since.
    const changed = await db
      .updateTable("orders")
      .set({
        ...orderColumns(order),
        ...(!shippedByPorter && { shipment_status: order.shipmentStatus }),
        updated_at: now,
      })
      .where("id", "=", held.id)
      .where((eb) => eb.or([eb("platform_updated_at", "is", null), eb("platform_updated_at", "<", version)]))
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) continue;
    await replaceOrderItems(db, held.id, []);
    await insertItems(db, [{ orderId: held.id, items: order.items }]);
    updated += 1;
  }
  return { inserted: fresh.length, updated };
}
