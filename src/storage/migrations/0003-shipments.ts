import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withIdColumn(db.schema.createTable("shipments"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("status_reason", "text")
    .addColumn("carrier_code", "text", (c) => c.notNull())
    .addColumn("service_id", "integer", (c) => c.notNull())
    .addColumn("service_code", "text", (c) => c.notNull())
    .addColumn("order_id", "text")
    .addColumn("account_reference", "text")
    .addColumn("to_location", "text", (c) => c.notNull())
    .addColumn("from_location", "text", (c) => c.notNull())
    .addColumn("return_location", "text")
    .addColumn("ship_date", "text", (c) => c.notNull())
    .addColumn("label_format", "text", (c) => c.notNull())
    .addColumn("label_size", "text", (c) => c.notNull())
    .addColumn("label_text1", "text")
    .addColumn("label_text2", "text")
    .addColumn("rate_cents", "integer", (c) => c.notNull())
    .addColumn("cost_details", "text", (c) => c.notNull())
    .addColumn("zone", "text")
    .addColumn("delivery_days", "integer")
    .addColumn("delivery_date", "text")
    .addColumn("delivery_guaranteed", "integer", (c) => c.notNull())
    .addColumn("batch_id", "integer")
    .addColumn("shipped_at", "text")
    .addColumn("cancel_requested_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("shipments_scope_id").on("shipments").columns(["account_id", "mode", "id"]).execute();
  await db.schema
    .createIndex("shipments_scope_carrier")
    .on("shipments")
    .columns(["account_id", "mode", "carrier_code", "id"])
    .execute();
  await db.schema
    .createIndex("shipments_scope_status")
    .on("shipments")
    .columns(["account_id", "mode", "status", "id"])
    .execute();
  await db.schema
    .createIndex("shipments_scope_created")
    .on("shipments")
    .columns(["account_id", "mode", "created_at"])
    .execute();

  await withIdColumn(db.schema.createTable("parcels"), dialect)
    .addColumn("shipment_id", "integer", (c) => c.notNull().references("shipments.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("length", "real", (c) => c.notNull())
    .addColumn("width", "real", (c) => c.notNull())
    .addColumn("height", "real", (c) => c.notNull())
    .addColumn("weight", "real", (c) => c.notNull())
    .addColumn("package_type", "text", (c) => c.notNull())
    .addColumn("name", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("tracking_number", "text")
    .addColumn("barcode_data", "text")
    .addColumn("cost_cents", "integer", (c) => c.notNull())
    .addColumn("cost_details", "text", (c) => c.notNull())
    .addColumn("parcel_items", "text", (c) => c.notNull())
    .addColumn("customs_data", "text")
    .addColumn("service_options", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("parcels_shipment").on("parcels").column("shipment_id").execute();
  await db.schema.createIndex("parcels_tracking_number").on("parcels").column("tracking_number").execute();

  await withIdColumn(db.schema.createTable("labels"), dialect)
    .addColumn("parcel_id", "integer", (c) => c.notNull().references("parcels.id"))
    .addColumn("shipment_id", "integer", (c) => c.notNull().references("shipments.id"))
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("size", "text", (c) => c.notNull())
    .addColumn("dpi", "integer", (c) => c.notNull())
    .addColumn("width_in", "real", (c) => c.notNull())
    .addColumn("height_in", "real", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("labels_parcel").on("labels").column("parcel_id").execute();

  await withIdColumn(db.schema.createTable("meter_entries"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("shipment_id", "integer")
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("available_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("meter_entries_scope")
    .on("meter_entries")
    .columns(["account_id", "mode", "id"])
    .execute();
  await db.schema.createIndex("meter_entries_shipment").on("meter_entries").column("shipment_id").execute();
}
