import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

/**
 * What importing orders from a platform store needs: the store's sync state, each imported order's
 * platform update time (an older update never overwrites a newer one), the platform's ids for
 * item variants and written-back shipments, and the webhook deliveries already taken (platforms
 * deliver some twice).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  for (const column of ["last_synced_at", "sync_status", "sync_error", "sync_cursor"]) {
    await db.schema.alterTable("order_stores").addColumn(column, "text").execute();
  }
  await db.schema.alterTable("orders").addColumn("platform_updated_at", "text").execute();
  await db.schema
    .createIndex("orders_store_platform_id")
    .on("orders")
    .columns(["order_store_id", "store_order_id"])
    .execute();
  await db.schema.alterTable("order_items").addColumn("variant_id", "text").execute();
  await db.schema.alterTable("order_shipments").addColumn("platform_shipment_id", "text").execute();

  await withIdColumn(db.schema.createTable("store_webhook_deliveries"), dialect)
    .addColumn("order_store_id", "integer", (c) => c.notNull().references("order_stores.id"))
    .addColumn("delivery_id", "text", (c) => c.notNull())
    .addColumn("topic", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("store_webhook_deliveries_once")
    .unique()
    .on("store_webhook_deliveries")
    .columns(["order_store_id", "delivery_id"])
    .execute();
}
