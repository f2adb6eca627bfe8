import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

/**
 * What went wrong where money moves and still needs a repair: a label the carrier sold that could
 * not be voided, a refund not written after the carrier voided, a job that ran out of attempts.
 * No foreign keys: the row must be writable whatever else failed, and names what it knows.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withIdColumn(db.schema.createTable("money_incidents"), dialect)
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("account_id", "integer")
    .addColumn("mode", "text")
    .addColumn("shipment_id", "integer")
    .addColumn("carrier_code", "text")
    .addColumn("tracking_numbers", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint")
    .addColumn("job_id", "integer")
    .addColumn("job_kind", "text")
    .addColumn("failure", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("repaired_at", "text")
    .addColumn("repair", "text")
    .execute();
  // `porter doctor` and the repair jobs read the open ones.
  await db.schema.createIndex("money_incidents_open").on("money_incidents").columns(["repaired_at", "id"]).execute();
}
