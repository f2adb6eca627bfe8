import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { type OrderInput, orderColumns, orderItemRows } from "./order-input.js";
import { getOrderStore } from "./order-stores.js";
import type { OrderStoreRow } from "./order-stores.repository.js";
import {
  findOrderByNumber,
  findOrderNumbers,
  insertOrder,
  listOrders,
  loadOrderRecords,
  type OrderRecord,
  replaceOrderItems,
  updateOrderRow,
} from "./orders.repository.js";
import type { OrderListStatus } from "./shipped-items.js";

function orderNotFound(orderNumber: string) {
  return new DomainError("order.not_found", `No order with order number ${orderNumber} in this store.`);
}

function duplicate(numbers: readonly string[]) {
  return new DomainError(
    "order.duplicate_number",
    `The store already has an order numbered ${[...new Set(numbers)].join(", ")}.`,
  );
}

/** Only custom stores take orders through the API; platform stores get theirs from the platform. */
async function customStore(services: DomainServices, scope: AccountScope, storeId: number): Promise<OrderStoreRow> {
  const store = await getOrderStore(services, scope, storeId);
  if (store.service_type !== "custom") {
    throw new DomainError(
      "order_store.not_custom",
      `Store ${store.id} is a ${store.service_type} store; orders are created and updated only in custom stores.`,
    );
  }
  return store;
}

export async function findStoreOrders(
  services: DomainServices,
  scope: AccountScope,
  storeId: number,
  shipmentStatus: OrderListStatus,
  page: { limit: number; offset: number },
): Promise<{ store: OrderStoreRow; records: OrderRecord[]; total: number }> {
  const store = await getOrderStore(services, scope, storeId);
  const { rows, total } = await listOrders(services.db, store.id, shipmentStatus, page);
  return { store, records: await loadOrderRecords(services.db, rows), total };
}

export async function getStoreOrder(
  services: DomainServices,
  scope: AccountScope,
  storeId: number,
  orderNumber: string,
): Promise<{ store: OrderStoreRow; record: OrderRecord }> {
  const store = await getOrderStore(services, scope, storeId);
  const order = await findOrderByNumber(services.db, store.id, orderNumber);
  if (!order) throw orderNotFound(orderNumber);
  const [record] = await loadOrderRecords(services.db, [order]);
  return { store, record: record! };
}

/** All or nothing: one order numbered like an existing one (or like another in the request) refuses the lot. */
export async function createCustomOrders(
  services: DomainServices,
  scope: AccountScope,
  storeId: number,
  inputs: readonly (OrderInput & { order_number: string })[],
): Promise<{ store: OrderStoreRow; records: OrderRecord[] }> {
  const store = await customStore(services, scope, storeId);
  const numbers = inputs.map((input) => input.order_number);
  const repeated = numbers.filter((number, index) => numbers.indexOf(number) !== index);
  if (repeated.length > 0) throw duplicate(repeated);
  const prepared = inputs.map((input) => {
    const items = orderItemRows(input.items ?? []);
    return { items, columns: orderColumns(input, items, true) };
  });
  const now = services.clock.now().toISOString();
  try {
    const records = await services.db.transaction().execute(async (trx) => {
      const taken = await findOrderNumbers(trx, store.id, numbers);
      if (taken.length > 0) throw duplicate(taken);
      const orders = [];
      for (const { items, columns } of prepared) {
        const order = await insertOrder(trx, {
          ...columns,
          order_store_id: store.id,
          order_number: columns.order_number as string,
          shipment_status: columns.shipment_status ?? "pending",
          external_id: null,
          created_at: now,
          updated_at: now,
        });
        await replaceOrderItems(trx, order.id, items);
        orders.push(order);
      }
      return loadOrderRecords(trx, orders);
    });
    return { store, records };
  } catch (error) {
    // Two requests racing for one number: the unique index refuses the second.
    if (!(error instanceof DomainError)) {
      const taken = await findOrderNumbers(services.db, store.id, numbers);
      if (taken.length > 0) throw duplicate(taken);
    }
    throw error;
  }
}

/** Only the fields sent change; items sent replace the order's items. */
export async function updateCustomOrder(
  services: DomainServices,
  scope: AccountScope,
  storeId: number,
  orderNumber: string,
  input: OrderInput,
): Promise<{ store: OrderStoreRow; record: OrderRecord }> {
  const store = await customStore(services, scope, storeId);
  const items = input.items ? orderItemRows(input.items) : undefined;
  const columns = orderColumns(input, items, false);
  try {
    const record = await services.db.transaction().execute(async (trx) => {
      const order = await findOrderByNumber(trx, store.id, orderNumber);
      if (!order) throw orderNotFound(orderNumber);
      if (columns.order_number !== undefined && columns.order_number !== order.order_number) {
        const taken = await findOrderNumbers(trx, store.id, [columns.order_number as string]);
        if (taken.length > 0) throw duplicate(taken);
      }
      const updated = await updateOrderRow(trx, order.id, {
        ...columns,
        updated_at: services.clock.now().toISOString(),
      });
      if (items) await replaceOrderItems(trx, order.id, items);
      const [loaded] = await loadOrderRecords(trx, [updated]);
      return loaded!;
    });
    return { store, record };
  } catch (error) {
    if (!(error instanceof DomainError) && columns.order_number !== undefined) {
      const taken = await findOrderNumbers(services.db, store.id, [columns.order_number as string]);
      if (taken.length > 0) throw duplicate(taken);
    }
    throw error;
  }
}
