import type { Kysely } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database } from "../../storage/schema.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { getStoreOrder } from "./custom-orders.js";
import { cancelOrderShipment, carriedItems, shipOrder } from "./ship-order.js";
import type { ShipItemInput } from "./shipped-items.js";

export const LINK_LABEL_JOB = "order.link_label";
export const UNLINK_LABEL_JOB = "order.unlink_label";

export interface LinkLabelPayload {
  shipmentId: number;
  /** The order items the label ships (`order_items`); absent, it ships the whole order. */
  items?: readonly ShipItemInput[];
}

/**
 * Queues the link of a label just bought with an `order_id` to that order, in the purchase's own
 * transaction: the label is sold whatever the store's platform says, so telling the platform is
 * durable work retried on its own.
 */
export async function queueLabelLink(
  services: DomainServices,
  trx: Kysely<Database>,
  shipment: { id: number; order_id: string | null; return_type: string | null },
  items?: readonly ShipItemInput[],
): Promise<void> {
  // A return label brings the parcel back: it ships nothing of the order.
  if (!shipment.order_id || shipment.return_type !== null) return;
  const payload: LinkLabelPayload = { shipmentId: shipment.id, ...(items?.length ? { items } : {}) };
  await services.jobs.enqueue(LINK_LABEL_JOB, payload, {
    maxAttempts: 8,
    executor: trx,
  });
}

/**
 * Queues, in the void's own transaction, the cancel of the order shipment a voided label made: the
 * order is no longer shipped by it, and its platform is told.
 */
export async function queueLabelUnlink(
  services: DomainServices,
  trx: Kysely<Database>,
  shipment: { id: number; order_id: string | null },
): Promise<void> {
  if (!shipment.order_id) return;
  await services.jobs.enqueue(UNLINK_LABEL_JOB, { shipmentId: shipment.id } satisfies LinkLabelPayload, {
    maxAttempts: 8,
    executor: trx,
  });
}

/** The one order numbered `orderNumber` in the account's live stores of that mode; none when no store or several have it. */
async function orderNumbered(
  db: Kysely<Database>,
  scope: { accountId: number; mode: "test" | "production" },
  orderNumber: string,
) {
  const rows = await db
    .selectFrom("orders")
    .innerJoin("order_stores", "order_stores.id", "orders.order_store_id")
    .select(["orders.order_store_id", "orders.order_number"])
    .where(ownedBy(scope))
    .where("order_stores.deleted_at", "is", null)
    .where("orders.order_number", "=", orderNumber)
    .limit(2)
    .execute();
  return rows.length === 1 ? rows[0] : undefined;
}

/**
 * The `order_items` of a label to buy, checked before anything is bought: its `order_id` must name
 * one order in the account's stores of that mode, and each item one of the order's with no more
 * of it than is left to ship.
 */
export async function checkLabelOrderItems(
  services: DomainServices,
  scope: AccountScope,
  input: { orderId?: string | null; orderItems?: readonly ShipItemInput[] },
  path: string,
): Promise<void> {
  if (!input.orderItems?.length || !input.orderId) return;
  const order = await orderNumbered(services.db, scope, input.orderId);
  if (!order) {
    throw new DomainError(
      "shipment.order_not_found",
      `${path}.order_items: ${path}.order_id ${input.orderId} is not the number of exactly one order in your order stores.`,
    );
  }
  const { record } = await getStoreOrder(services, scope, order.order_store_id, order.order_number);
  await carriedItems(services.db, record, input.orderItems);
}

/**
 * Links a Porter label bought with `order_id` to the order of that number in the account's stores:
 * the order gets the shipment (carrier, service, tracking number of the first parcel, the label's
 * cost and weight) and is marked shipped, and a platform store's platform is told, as when the
 * order is shipped through the API. A label whose order is not found (or is ambiguous), was
 * voided, or is already linked changes nothing. Answers whether it linked the label.
 */
export async function linkLabelToOrder(services: DomainServices, payload: LinkLabelPayload): Promise<boolean> {
  const shipment = await services.db
    .selectFrom("shipments")
    .selectAll()
    .where("id", "=", payload.shipmentId)
    .executeTakeFirst();
  if (!shipment?.order_id || shipment.status !== "shipped") return false;
  const linked = await services.db
    .selectFrom("order_shipments")
    .select("id")
    .where("shipment_id", "=", shipment.id)
    .executeTakeFirst();
  if (linked) return false;
  const scope = { accountId: shipment.account_id, mode: shipment.mode };
  const order = await orderNumbered(services.db, scope, shipment.order_id);
  if (!order) return false;
  const parcels = await services.db
    .selectFrom("parcels")
    .select(["tracking_number", "weight"])
    .where("shipment_id", "=", shipment.id)
    .orderBy("position")
    .execute();
  const trackingNumber = parcels.find((parcel) => parcel.tracking_number)?.tracking_number;
  if (!trackingNumber) return false;
  // Items checked before the purchase may have shipped since by another shipment: then nothing is linked.
  return shipOrder(services, scope, order.order_store_id, order.order_number, {
    shippingCost: shipment.rate_cents / 100,
    shipDate: new Date(`${shipment.ship_date}T00:00:00.000Z`).toISOString(),
    trackingNumber,
    carrier: shipment.carrier_code,
    service: shipment.service_code,
    weightOz: parcels.reduce((sum, parcel) => sum + parcel.weight, 0),
    notify: true,
    labelShipmentId: shipment.id,
    items: payload.items,
  }).then(
    () => true,
    (error: unknown) => {
      if (error instanceof DomainError && ["order.item_not_found", "order.item_over_shipped"].includes(error.code)) {
        // The label is bought and kept; only its link to the order is given up, where an operator sees it.
        services.logger?.error(
          { shipmentId: shipment.id, orderId: shipment.order_id, code: error.code },
          `label not linked to its order: ${error.message}`,
        );
        return false;
      }
      throw error;
    },
  );
}

/**
 * A voided label's order shipment is cancelled as a cancel through the API would (the platform's
 * write-back reversed first). A platform that cannot reverse a shipment keeps it: the order stays
 * shipped there and here, and the merchant undoes it on the platform.
 */
export async function unlinkLabelFromOrder(services: DomainServices, payload: LinkLabelPayload): Promise<boolean> {
  const linked = await services.db
    .selectFrom("order_shipments")
    .innerJoin("orders", "orders.id", "order_shipments.order_id")
    .innerJoin("order_stores", "order_stores.id", "orders.order_store_id")
    .select([
      "order_shipments.id",
      "orders.order_number",
      "orders.order_store_id",
      "order_stores.account_id",
      "order_stores.mode",
    ])
    .where("order_shipments.shipment_id", "=", payload.shipmentId)
    .where("order_shipments.cancelled_at", "is", null)
    .where("order_stores.deleted_at", "is", null)
    .executeTakeFirst();
  if (!linked) return false;
  try {
    await cancelOrderShipment(
      services,
      { accountId: linked.account_id, mode: linked.mode },
      linked.order_store_id,
      linked.order_number,
      linked.id,
    );
    return true;
  } catch (error) {
    if (error instanceof DomainError && ["order_store.cancel_unsupported", "order.not_shipped"].includes(error.code)) {
      return false;
    }
    throw error;
  }
}
