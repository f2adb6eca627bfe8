import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

/** Order stores (custom and platform connections), their orders, order items and order shipments. */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withIdColumn(db.schema.createTable("order_stores"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("service_type", "text", (c) => c.notNull())
    .addColumn("external_id", "text")
    .addColumn("credentials_sealed", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("deleted_at", "text")
    .execute();
  await db.schema.createIndex("order_stores_scope").on("order_stores").columns(["account_id", "mode"]).execute();

  await withIdColumn(db.schema.createTable("orders"), dialect)
    .addColumn("order_store_id", "integer", (c) => c.notNull().references("order_stores.id"))
    .addColumn("order_number", "text", (c) => c.notNull())
    .addColumn("store_order_id", "text")
    .addColumn("external_id", "text")
    .addColumn("order_date", "text")
    .addColumn("payment_status", "text")
    .addColumn("order_status", "text")
    .addColumn("shipment_status", "text", (c) => c.notNull())
    .addColumn("items_total_cents", "integer")
    .addColumn("tax_total_cents", "integer")
    .addColumn("shipping_total_cents", "integer")
    .addColumn("total_cents", "integer")
    .addColumn("notes", "text")
    .addColumn("tags", "text")
    .addColumn("billing_address", "text")
    .addColumn("shipping_address", "text")
    .addColumn("external_customer_email", "text")
    .addColumn("external_customer_id", "text")
    .addColumn("shipping_method", "text")
    .addColumn("ship_by_date", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // One order per number in a store: the number is the order's key in every path.
  await db.schema
    .createIndex("orders_store_number")
    .unique()
    .on("orders")
    .columns(["order_store_id", "order_number"])
    .execute();
  await db.schema
    .createIndex("orders_store_status")
    .on("orders")
    .columns(["order_store_id", "shipment_status"])
    .execute();

  await withIdColumn(db.schema.createTable("order_items"), dialect)
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("item_id", "text")
    .addColumn("name", "text")
    .addColumn("accounting_id", "text")
    .addColumn("accounting_number", "text")
    .addColumn("variant_name", "text")
    .addColumn("image_src", "text")
    .addColumn("external_id", "text")
    .addColumn("alt_external_id", "text")
    .addColumn("sku", "text")
    .addColumn("weight_oz", "real")
    .addColumn("quantity", "real")
    .addColumn("price_cents", "integer")
    .addColumn("cost_cents", "integer")
    .execute();
  await db.schema.createIndex("order_items_order").on("order_items").columns(["order_id", "position"]).execute();

  await withIdColumn(db.schema.createTable("order_shipments"), dialect)
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id"))
    .addColumn("carrier", "text", (c) => c.notNull())
    .addColumn("service", "text", (c) => c.notNull())
    .addColumn("ship_date", "text", (c) => c.notNull())
    .addColumn("tracking_number", "text", (c) => c.notNull())
    .addColumn("weight_oz", "real")
    .addColumn("shipping_cost_cents", "integer", (c) => c.notNull())
    .addColumn("notify", "integer", (c) => c.notNull())
    .addColumn("cancelled_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_shipments_order").on("order_shipments").columns(["order_id"]).execute();
}
