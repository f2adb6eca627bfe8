import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withIdColumn(db.schema.createTable("tracking_events"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("shipment_id", "integer", (c) => c.notNull().references("shipments.id"))
    .addColumn("parcel_id", "integer", (c) => c.notNull().references("parcels.id"))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("sequence", "integer")
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("secondary_code", "text")
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("city", "text")
    .addColumn("state", "text")
    .addColumn("postal_code", "text")
    .addColumn("country", "text")
    .addColumn("event_timestamp", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // A carrier event is stored once however often the carrier is read (custom events have no sequence).
  await db.schema
    .createIndex("tracking_events_parcel_sequence")
    .on("tracking_events")
    .columns(["parcel_id", "sequence"])
    .unique()
    .execute();
  await db.schema.createIndex("tracking_events_shipment").on("tracking_events").column("shipment_id").execute();

  await db.schema.alterTable("parcels").addColumn("estimated_delivery_date", "text").execute();
  await db.schema.alterTable("parcels").addColumn("delivered_at", "text").execute();
  await db.schema.alterTable("parcels").addColumn("tracking_updated_at", "text").execute();
  await db.schema.alterTable("parcels").addColumn("tracking_stale_since", "text").execute();

  await db.schema
    .alterTable("shipments")
    .addColumn("tracking_shift_ms", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("shipments").addColumn("tracking_outcome", "text").execute();
  await db.schema.alterTable("shipments").addColumn("tracking_refresh_at", "text").execute();
}
