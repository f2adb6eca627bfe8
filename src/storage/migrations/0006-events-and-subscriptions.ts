import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // The outbox: one append-only stream; the id is the cursor that subscriptions and the pull API
  // read by.
  await withIdColumn(db.schema.createTable("events"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("stream", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("events_cursor").on("events").columns(["account_id", "mode", "stream", "id"]).execute();
  await db.schema
    .createIndex("events_created")
    .on("events")
    .columns(["account_id", "mode", "stream", "created_at"])
    .execute();
  // One row per stream: appenders lock it before taking ids, so ids are handed out in commit order
  // and a reader past id N never misses an id below N that commits later.
  await db.schema
    .createTable("event_streams")
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("stream", "text", (c) => c.notNull())
    .addColumn("last_event_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("event_streams_pk", ["account_id", "mode", "stream"])
    .execute();

  await withIdColumn(db.schema.createTable("webhook_subscriptions"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("subscription_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("payload_format", "text", (c) => c.notNull())
    .addColumn("auth_type", "text", (c) => c.notNull())
    .addColumn("hmac_secret_sealed", "text")
    .addColumn("hmac_secret_last4", "text")
    .addColumn("http_basic_sealed", "text")
    .addColumn("cursor_event_id", "integer", (c) => c.notNull())
    .addColumn("batch_through_id", "integer")
    .addColumn("batch_message_id", "text")
    .addColumn("last_pushed_id", "integer")
    .addColumn("last_pushed_at", "text")
    .addColumn("error_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_response_code", "integer")
    .addColumn("last_response_message", "text")
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("deleted_at", "text")
    .execute();
  await db.schema
    .createIndex("webhook_subscriptions_scope")
    .on("webhook_subscriptions")
    .columns(["account_id", "mode", "id"])
    .execute();
  await db.schema
    .createIndex("webhook_subscriptions_due")
    .on("webhook_subscriptions")
    .columns(["status", "next_attempt_at"])
    .execute();

  await withIdColumn(db.schema.createTable("webhook_deliveries"), dialect)
    .addColumn("subscription_id", "integer", (c) => c.notNull().references("webhook_subscriptions.id"))
    .addColumn("message_id", "text", (c) => c.notNull())
    .addColumn("trigger", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("first_event_id", "integer", (c) => c.notNull())
    .addColumn("last_event_id", "integer", (c) => c.notNull())
    .addColumn("event_count", "integer", (c) => c.notNull())
    .addColumn("response_code", "integer")
    .addColumn("response_excerpt", "text")
    .addColumn("error_message", "text")
    .addColumn("latency_ms", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("completed_at", "text")
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_subscription")
    .on("webhook_deliveries")
    .columns(["subscription_id", "id"])
    .execute();
}
