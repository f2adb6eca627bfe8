import type { Kysely } from "kysely";

/**
 * The ISO 4217 currency an order's amounts are in (the store's own), and the one the buyer paid in
 * where the platform says it differs (Shopify's presentment currency). Orders imported before this,
 * and custom orders, name none (null).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("currency", "text").execute();
  await db.schema.alterTable("orders").addColumn("presentment_currency", "text").execute();
}
