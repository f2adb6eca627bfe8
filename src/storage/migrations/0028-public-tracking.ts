import type { Kysely } from "kysely";

/**
 * Each shipment's public tracking page is found by an unguessable token, as label files are by
 * their names; the unique index is how the page finds its shipment. Shipments bought before this
 * migration have none (their `public_tracking_url` is null): a token is never derived from data.
 * An account may show its logo on its pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("shipments").addColumn("public_tracking_token", "text").execute();
  await db.schema
    .createIndex("shipments_public_tracking_token")
    .unique()
    .on("shipments")
    .column("public_tracking_token")
    .execute();
  // The logo an account shows on its shipments' public pages (set with PUT /account/tracking_page).
  await db.schema.alterTable("accounts").addColumn("tracking_page_logo_url", "text").execute();
}
