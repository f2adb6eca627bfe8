import type { Kysely } from "kysely";

/**
 * What the pruning job looks rows up by: each of its batches takes the oldest few rows past their
 * retention, so it must find them without reading the whole table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("idempotency_keys_expiry").on("idempotency_keys").column("expires_at").execute();
  await db.schema.createIndex("jobs_finished").on("jobs").columns(["state", "updated_at"]).execute();
  await db.schema.createIndex("events_age").on("events").column("created_at").execute();
  await db.schema.createIndex("webhook_deliveries_completed").on("webhook_deliveries").column("completed_at").execute();
}
