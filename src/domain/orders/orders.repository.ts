import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { Database, OrderItemTable, OrderShipmentTable, OrderTable } from "../../storage/schema.js";
import type { ParcelRow } from "../shipments/shipments.repository.js";
import { fulfilmentOf, type ItemProgress, type ShippedItem, shippedItemsOf } from "./shipped-items.js";

export type OrderRow = Selectable<OrderTable>;
export type OrderItemRow = Selectable<OrderItemTable>;
export type OrderShipmentRow = Selectable<OrderShipmentTable>;
export type NewOrderItem = Omit<Insertable<OrderItemTable>, "order_id" | "position">;

/** An order with what hangs off it. */
export interface OrderRecord {
  order: OrderRow;
  items: OrderItemRow[];
  shipments: OrderShipmentRow[];
  /** Per item (in `items`' order): how much has shipped and how much is left. */
  progress: ItemProgress[];
  /** Per shipment (in `shipments`' order): the items it carried, by item key. */
  carried: ShippedItem[][];
  /** Per shipment: the parcels of the Porter label that shipped it; none for a shipment made elsewhere. */
  labelParcels: ParcelRow[][];
  /** What will stop the order from shipping as it is (a label needs the recipient's phone). */
  warnings: string[];
}

/** Why an order cannot become a label as it is, in words for the user; none when it can. */
export function orderWarnings(order: OrderRow): string[] {
  const address = order.shipping_address ? (JSON.parse(order.shipping_address) as { phone?: string | null }) : null;
  if (!address) return ["The order has no shipping_address: a label needs one, with the recipient's phone."];
  if (!address.phone?.trim()) {
    return ["The shipping_address has no phone: every label needs one; add it before buying the order's label."];
  }
  return [];
}

export async function findOrderByNumber(
  db: Kysely<Database>,
  orderStoreId: number,
  orderNumber: string,
): Promise<OrderRow | undefined> {
  return db
    .selectFrom("orders")
    .selectAll()
    .where("order_store_id", "=", orderStoreId)
    .where("order_number", "=", orderNumber)
    .executeTakeFirst();
}

export async function findOrderNumbers(
  db: Kysely<Database>,
  orderStoreId: number,
  orderNumbers: readonly string[],
): Promise<string[]> {
  if (orderNumbers.length === 0) return [];
  const rows = await db
    .selectFrom("orders")
    .select("order_number")
    .where("order_store_id", "=", orderStoreId)
    .where("order_number", "in", orderNumbers)
    .execute();
  return rows.map((row) => row.order_number);
}

/** By id, oldest first. */
export async function listOrders(
  db: Kysely<Database>,
  orderStoreId: number,
  shipmentStatus: string,
  page: { limit: number; offset: number },
): Promise<{ rows: OrderRow[]; total: number }> {
  let query = db.selectFrom("orders").where("order_store_id", "=", orderStoreId);
  if (shipmentStatus !== "all") query = query.where("shipment_status", "=", shipmentStatus);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("id").limit(page.limit).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function insertOrder(db: Kysely<Database>, row: Insertable<OrderTable>): Promise<OrderRow> {
  return db.insertInto("orders").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateOrderRow(
  db: Kysely<Database>,
  id: number,
  changes: Updateable<OrderTable>,
): Promise<OrderRow> {
  return db.updateTable("orders").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

/** The order's items become exactly these, in this order. */
export async function replaceOrderItems(
  db: Kysely<Database>,
  orderId: number,
  items: readonly NewOrderItem[],
): Promise<void> {
  await db.deleteFrom("order_items").where("order_id", "=", orderId).execute();
  if (items.length === 0) return;
  await db
    .insertInto("order_items")
    .values(items.map((item, position) => ({ ...item, order_id: orderId, position })))
    .execute();
}

/** Items and live shipments for each order, in the orders' order. */
export async function loadOrderRecords(db: Kysely<Database>, orders: readonly OrderRow[]): Promise<OrderRecord[]> {
  if (orders.length === 0) return [];
  const ids = orders.map((order) => order.id);
  const [items, shipments] = await Promise.all([
    db.selectFrom("order_items").selectAll().where("order_id", "in", ids).orderBy("position").execute(),
    db
      .selectFrom("order_shipments")
      .selectAll()
      .where("order_id", "in", ids)
      .where("cancelled_at", "is", null)
      .orderBy("id")
      .execute(),
  ]);
  const labelIds = shipments.flatMap((shipment) => (shipment.shipment_id === null ? [] : [shipment.shipment_id]));
  const [named, parcels] = await Promise.all([
    shippedItemsOf(
      db,
      shipments.map((shipment) => shipment.id),
    ),
    labelIds.length === 0
      ? Promise.resolve([])
      : db.selectFrom("parcels").selectAll().where("shipment_id", "in", labelIds).orderBy("position").execute(),
  ]);
  return orders.map((order) => {
    const own = items.filter((item) => item.order_id === order.id);
    const mine = shipments.flatMap((shipment, index) =>
      shipment.order_id === order.id ? [{ shipment, named: named[index] ?? [] }] : [],
    );
    const { carried, progress } = fulfilmentOf(
      own,
      mine.map((m) => m.named),
    );
    return {
      order,
      items: own,
      shipments: mine.map((m) => m.shipment),
      progress,
      carried,
      labelParcels: mine.map(({ shipment }) => parcels.filter((parcel) => parcel.shipment_id === shipment.shipment_id)),
      warnings: orderWarnings(order),
    };
  });
}
