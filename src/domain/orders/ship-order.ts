import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { getStoreOrder } from "./custom-orders.js";
import { amountCents } from "./order-input.js";
import type { OrderShipmentRow } from "./orders.repository.js";
import { resolveShippedItems, type ShipItemInput, shipmentStatusOf, shippedItemsOf } from "./shipped-items.js";

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
 * Records a shipment made for the order (by Porter or elsewhere) and marks the order shipped, or
 * partial while some of its items have not shipped.
 * No platform is told yet: the connectors that would write it back are not built.
 */
export async function shipOrder(
  services: DomainServices,
  scope: AccountScope,
  storeId: number,
  orderNumber: string,
  input: OrderShipmentInput,
): Promise<OrderShipmentRow> {
  const { record } = await getStoreOrder(services, scope, storeId, orderNumber);
  const costCents = amountCents("shipping_cost", input.shippingCost);
  const now = services.clock.now().toISOString();
  return services.db.transaction().execute(async (trx) => {
    const live = await liveShipments(trx, record.order.id);
    const carriedBefore = await shippedItemsOf(
      trx,
      live.map((shipment) => shipment.id),
    );
    const carried = input.items?.length ? resolveShippedItems(record.items, carriedBefore, input.items) : [];
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
        platform_shipment_id: null,
        shipment_id: null,
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

/** Marks the order's latest shipment cancelled; the order's status is what the shipments left make it. */
export async function cancelOrderShipment(
  services: DomainServices,
  scope: AccountScope,
  storeId: number,
  orderNumber: string,
): Promise<OrderShipmentRow> {
  const { record } = await getStoreOrder(services, scope, storeId, orderNumber);
  const now = services.clock.now().toISOString();
  return services.db.transaction().execute(async (trx) => {
    const live = await liveShipments(trx, record.order.id);
    const latest = live.at(-1);
    if (!latest) {
      throw new DomainError("order.not_shipped", `Order ${orderNumber} has no shipment to cancel.`);
    }
    const cancelled = await trx
      .updateTable("order_shipments")
      .set({ cancelled_at: now, updated_at: now })
      .where("id", "=", latest.id)
      .where("cancelled_at", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (!cancelled) throw new DomainError("order.not_shipped", `Order ${orderNumber} has no shipment to cancel.`);
    const left = live.slice(0, -1);
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
