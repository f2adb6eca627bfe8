import type { Kysely } from "kysely";

/**
 * A carrier app's budgeted calls, counted per API and minute on the database so that every Porter
 * process on it spends one hourly allowance. Rows older than the window are pruned.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("carrier_call_counts")
    .addColumn("budget", "text", (col) => col.notNull())
    .addColumn("purpose", "text", (col) => col.notNull())
    // Minutes since the epoch (UTC).
    .addColumn("minute", "integer", (col) => col.notNull())
    .addColumn("calls", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("carrier_call_counts_pk", ["budget", "purpose", "minute"])
    .execute();
  await db.schema.createIndex("carrier_call_counts_minute").on("carrier_call_counts").column("minute").execute();
}
