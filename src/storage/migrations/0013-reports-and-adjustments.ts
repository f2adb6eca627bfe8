import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

/**
 * The reports read the ledger by time: an index in the order the reports walk it (account, mode,
 * time, id) holding every column they read, so a page is one index range and a CSV export a
 * keyset walk, never a sort or a table read. Shipment
 * adjustments (USPS audits: a package measured different from its label) keep what the label said
 * and what was measured, with the ledger entry that charged or refunded the difference.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // Covering: a page, a count and an export batch read the index alone, never the table.
  await db.schema
    .createIndex("meter_entries_scope_created")
    .on("meter_entries")
    .columns(["account_id", "mode", "created_at", "id", "status", "amount_cents", "shipment_id"])
    .execute();
  // A page's tracking numbers, in parcel order, from the index alone.
  await db.schema
    .createIndex("parcels_shipment_tracking")
    .on("parcels")
    .columns(["shipment_id", "position", "tracking_number"])
    .execute();

  await withIdColumn(db.schema.createTable("shipment_adjustments"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("shipment_id", "integer", (c) => c.notNull().references("shipments.id"))
    .addColumn("parcel_id", "integer", (c) => c.notNull().references("parcels.id"))
    .addColumn("meter_entry_id", "integer", (c) => c.notNull().references("meter_entries.id"))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("tracking_number", "text")
    .addColumn("external_id", "text")
    .addColumn("shipped_at", "text")
    .addColumn("from_country", "text", (c) => c.notNull())
    .addColumn("from_postal_code", "text", (c) => c.notNull())
    .addColumn("adj_from_postal_code", "text", (c) => c.notNull())
    .addColumn("to_country", "text", (c) => c.notNull())
    .addColumn("to_postal_code", "text", (c) => c.notNull())
    .addColumn("ship_service", "text", (c) => c.notNull())
    .addColumn("adj_service", "text", (c) => c.notNull())
    .addColumn("ship_package", "text", (c) => c.notNull())
    .addColumn("adj_package", "text", (c) => c.notNull())
    .addColumn("ship_weight", "real", (c) => c.notNull())
    .addColumn("adj_weight", "real", (c) => c.notNull())
    .addColumn("ship_length", "real", (c) => c.notNull())
    .addColumn("adj_length", "real", (c) => c.notNull())
    .addColumn("ship_width", "real", (c) => c.notNull())
    .addColumn("adj_width", "real", (c) => c.notNull())
    .addColumn("ship_height", "real", (c) => c.notNull())
    .addColumn("adj_height", "real", (c) => c.notNull())
    .addColumn("ship_meter_cost_cents", "integer", (c) => c.notNull())
    .addColumn("adj_meter_cost_cents", "integer", (c) => c.notNull())
    .addColumn("meter_adj_cents", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("shipment_adjustments_scope_created")
    .on("shipment_adjustments")
    .columns(["account_id", "mode", "created_at", "id"])
    .execute();
  // USPS adjusts a package once: a second audit of the same parcel is refused, whoever asks.
  await db.schema
    .createIndex("shipment_adjustments_parcel")
    .on("shipment_adjustments")
    .column("parcel_id")
    .unique()
    .execute();
}
