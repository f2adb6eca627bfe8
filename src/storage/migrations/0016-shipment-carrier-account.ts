import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";

/**
 * Which carrier connection sold a shipment's labels: a real carrier's label is voided, tracked and
 * manifested through the connection that bought it, even after the account connects another.
 * Shipments bought before this are the sandbox carrier's (null).
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable("shipments")
    .addColumn("carrier_account_id", "integer", (c) => c.references("carrier_accounts.id"))
    .execute();
}
