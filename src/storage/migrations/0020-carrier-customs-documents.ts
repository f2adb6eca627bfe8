import type { Kysely } from "kysely";

/**
 * The customs document a carrier made for a shipment (DHL Express's commercial invoice), stored as
 * a file and served by `GET /shipments/{id}/customs_form` instead of the CN 22 / CN 23 Porter draws.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("shipments").addColumn("customs_document_file", "text").execute();
}
