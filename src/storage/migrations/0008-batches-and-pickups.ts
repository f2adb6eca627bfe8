import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

/** Manifest batches (one carrier document each), postal pickups, and when a shipment was manifested. */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable("shipments").addColumn("manifested_at", "text").execute();
  await db.schema.createIndex("shipments_batch").on("shipments").columns(["batch_id"]).execute();
  // Close-out looks for postal shipments not yet manifested by carrier and ship date.
  await db.schema
    .createIndex("shipments_close_out")
    .on("shipments")
    .columns(["carrier_code", "status", "ship_date"])
    .execute();

  await withIdColumn(db.schema.createTable("batches"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("carrier_code", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("mailing_date", "text", (c) => c.notNull())
    .addColumn("origin_postal_code", "text", (c) => c.notNull())
    .addColumn("tracking_number", "text")
    .addColumn("document_file", "text")
    .addColumn("merged_file", "text")
    .addColumn("errors", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("generated_at", "text")
    .execute();
  await db.schema.createIndex("batches_scope").on("batches").columns(["account_id", "mode", "created_at"]).execute();

  await withIdColumn(db.schema.createTable("pickups"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("carrier_code", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("location", "text", (c) => c.notNull())
    .addColumn("pickup_date", "text", (c) => c.notNull())
    .addColumn("shipment_ids", "text", (c) => c.notNull())
    .addColumn("shipment_batch_ids", "text", (c) => c.notNull())
    .addColumn("external_id", "text", (c) => c.notNull())
    .addColumn("location_detail", "text")
    .addColumn("special_instructions", "text")
    .addColumn("package_count", "integer", (c) => c.notNull())
    .addColumn("weight_oz", "real", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("pickups_scope").on("pickups").columns(["account_id", "mode", "pickup_date"]).execute();
}
