import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

/**
 * Which items (and how many of each) an order shipment carries, for partial shipments, and the
 * Porter shipment whose label shipped the order, when one did.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // Items are named by a key, not by row id: an order's items are replaced whole when it changes.
  await withIdColumn(db.schema.createTable("order_shipment_items"), dialect)
    .addColumn("order_shipment_id", "integer", (c) => c.notNull().references("order_shipments.id"))
    .addColumn("item_key", "text", (c) => c.notNull())
    .addColumn("quantity", "real", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("order_shipment_items_shipment")
    .on("order_shipment_items")
    .columns(["order_shipment_id"])
    .execute();
  await db.schema
    .alterTable("order_shipments")
    .addColumn("shipment_id", "integer", (c) => c.references("shipments.id"))
    .execute();
  await db.schema.createIndex("order_shipments_label").on("order_shipments").columns(["shipment_id"]).execute();
}
