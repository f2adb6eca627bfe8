import type { Kysely } from "kysely";
import { publicTrackingUrl } from "../../carriers/tracking-pages.js";
import type { Database } from "../../storage/schema.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { getStoreOrder } from "./custom-orders.js";
import { amountCents } from "./order-input.js";
import type { OrderStoreRow } from "./order-stores.repository.js";
import type { OrderRecord, OrderShipmentRow } from "./orders.repository.js";
import {
  resolveShippedItems,
  type ShipItemInput,
  type ShippedItem,
  shipmentStatusOf,
  shippedItemsOf,
} from "./shipped-items.js";
import { openConnector, platformFailed, platformOf } from "./store-connection.js";

export interface OrderShipmentInput {
  /** US dollars. */
  shippingCost: number;
  /** ISO 8601 UTC. */
  shipDate: string;
  trackingNumber: string;
  carrier: string;
  service: string;
  weightOz?: number | null;
  notify?: boolean;
  /** The Porter shipment whose label this is, when the order shipped with a Porter label. */
  labelShipmentId?: number;
  /** The items this shipment carries; absent, it carries what of the order has not shipped. */
  items?: readonly ShipItemInput[];
}

async function liveShipments(db: Kysely<Database>, orderId: number): Promise<OrderShipmentRow[]> {
  return db
    .selectFrom("order_shipments")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("cancelled_at", "is", null)
    .orderBy("id")
    .execute();
}

/**
 * What the order's live shipments carried, and what this one carries (empty: all that is left);
 * refused when it names an item the order lacks or more of one than is left.
 */
export async function carriedItems(db: Kysely<Database>, record: OrderRecord, items: OrderShipmentInput["items"]) {
  const live = await liveShipments(db, record.order.id);
  const carriedBefore = await shippedItemsOf(
    db,
    live.map((shipment) => shipment.id),
  );
  const carried = items?.length ? resolveShippedItems(record.items, carriedBefore, items) : [];
  return { carriedBefore, carried };
}

const platformRef = (record: OrderRecord) => ({
  platformOrderId: record.order.store_order_id ?? record.order.order_number,
  orderNumber: record.order.order_number,
});

/** Tells the store's platform the order shipped; answers the platform's id for it (null for a custom store). */
async function writeBack(
  services: DomainServices,
  store: OrderStoreRow,
  record: OrderRecord,
  input: OrderShipmentInput,
  { carriedBefore, carried }: { carriedBefore: ShippedItem[][]; carried: ShippedItem[] },
): Promise<string | null> {
  const platform = platformOf(services, store);
  if (!platform) return null;
  try {
    const written = await openConnector(services, store, platform).writeShipment(platformRef(record), {
      trackingNumber: input.trackingNumber,
      carrier: input.carrier,
      service: input.service,
      trackingUrl: publicTrackingUrl(input.carrier, input.trackingNumber),
      shipDate: input.shipDate,
      notify: input.notify !== false,
      items: carried.flatMap(({ itemKey, quantity }) =>
        itemKey.startsWith("external:") ? [{ platformLineItemId: itemKey.slice("external:".length), quantity }] : [],
      ),
      completesOrder: shipmentStatusOf(record.items, [...carriedBefore, carried]) === "shipped",
    });
    return written.platformShipmentId;
  } catch (error) {
    throw platformFailed(error);
  }
}

/**
 * Records a shipment made for the order (by Porter or elsewhere) and marks the order shipped, or
 * partial while some of its items have not shipped. A platform store's platform is told first
 * (Shopify: fulfillments with the tracking); when it refuses, nothing is recorded.
 */
export async function shipOrder(
  services: DomainServices,
  scope: AccountScope,
  storeId: number,
  orderNumber: string,
  input: OrderShipmentInput,
): Promise<OrderShipmentRow> {
  const { store, record } = await getStoreOrder(services, scope, storeId, orderNumber);
  const costCents = amountCents("shipping_cost", input.shippingCost);
  const platformShipmentId = await writeBack(
    services,
    store,
    record,
    input,
    await carriedItems(services.db, record, input.items),
  );
  const now = services.clock.now().toISOString();
  return services.db.transaction().execute(async (trx) => {
    const { carriedBefore, carried } = await carriedItems(trx, record, input.items);
    const shipment = await trx
      .insertInto("order_shipments")
      .values({
        order_id: record.order.id,
        carrier: input.carrier,
        service: input.service,
        ship_date: input.shipDate,
        tracking_number: input.trackingNumber,
        weight_oz: input.weightOz ?? null,
        shipping_cost_cents: costCents,
        notify: input.notify === false ? 0 : 1,
        platform_shipment_id: platformShipmentId,
        shipment_id: input.labelShipmentId ?? null,
        cancelled_at: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (carried.length > 0) {
      await trx
        .insertInto("order_shipment_items")
        .values(
          carried.map((item) => ({ order_shipment_id: shipment.id, item_key: item.itemKey, quantity: item.quantity })),
        )
        .execute();
    }
    await trx
      .updateTable("orders")
      .set({ shipment_status: shipmentStatusOf(record.items, [...carriedBefore, carried]), updated_at: now })
      .where("id", "=", record.order.id)
      .execute();
    return shipment;
  });
}

/**
 * Reverses the write-back on the store's platform, when the shipment was written back; a platform
 * that cannot reverse one refuses the cancel before anything changes.
 */
async function reverseWriteBack(
  services: DomainServices,
  store: OrderStoreRow,
  record: OrderRecord,
  shipment: OrderShipmentRow,
): Promise<void> {
  const platform = platformOf(services, store);
  if (!platform) return;
  const connector = (() => {
    try {
      return openConnector(services, store, platform);
    } catch (error) {
      throw platformFailed(error);
    }
  })();
  if (!connector.cancelShipment) {
    throw new DomainError(
      "order_store.cancel_unsupported",
      `A ${store.service_type} store cannot take back a shipment written to it; cancel it on ${store.service_type} itself.`,
    );
  }
  try {
    await connector.cancelShipment(platformRef(record), shipment.platform_shipment_id);
  } catch (error) {
    throw platformFailed(error);
  }
}

/**
 * Marks the order's latest shipment (or the one given) cancelled, after reversing it on the store's
 * platform; the order's status is what the shipments left make it.
 */
export async function cancelOrderShipment(
  services: DomainServices,
  scope: AccountScope,
  storeId: number,
  orderNumber: string,
  orderShipmentId?: number,
): Promise<OrderShipmentRow> {
  const pick = (live: OrderShipmentRow[]) =>
    orderShipmentId === undefined ? live.at(-1) : live.find((shipment) => shipment.id === orderShipmentId);
  const { store, record } = await getStoreOrder(services, scope, storeId, orderNumber);
  const toReverse = pick(await liveShipments(services.db, record.order.id));
  if (toReverse) await reverseWriteBack(services, store, record, toReverse);
  const now = services.clock.now().toISOString();
  return services.db.transaction().execute(async (trx) => {
    const live = await liveShipments(trx, record.order.id);
    const target = pick(live);
    if (!target) {
      throw new DomainError("order.not_shipped", `Order ${orderNumber} has no shipment to cancel.`);
    }
    const cancelled = await trx
      .updateTable("order_shipments")
      .set({ cancelled_at: now, updated_at: now })
      .where("id", "=", target.id)
      .where("cancelled_at", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (!cancelled) throw new DomainError("order.not_shipped", `Order ${orderNumber} has no shipment to cancel.`);
    const left = live.filter((shipment) => shipment.id !== target.id);
    await trx
      .updateTable("orders")
      .set({
        shipment_status: shipmentStatusOf(
          record.items,
          await shippedItemsOf(
            trx,
            left.map((shipment) => shipment.id),
          ),
        ),
        updated_at: now,
      })
      .where("id", "=", record.order.id)
      .execute();
    return cancelled;
  });
}
