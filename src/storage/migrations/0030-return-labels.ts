import type { Kysely } from "kysely";

/**
 * Return labels: a shipment that carries a parcel back from the customer says how it is paid
 * (`print` at purchase, `scan_based` at the carrier's first scan); null for outbound shipments and
 * every shipment bought before this migration. A return bought together with its outbound names
 * that shipment (no foreign key: either may be removed by retention on its own).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("shipments").addColumn("return_type", "text").execute();
  await db.schema.alterTable("shipments").addColumn("outbound_shipment_id", "integer").execute();
}
