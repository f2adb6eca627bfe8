import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

/**
 * Signing in to the dashboard: a user's optional password (scrypt, one encoded string), the
 * dashboard's sessions and the one-time sign-in links the CLI prints. Session ids and link tokens
 * are stored only as their SHA-256, as API keys are.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable("users").addColumn("password_hash", "text").execute();
  await withIdColumn(db.schema.createTable("dashboard_sessions"), dialect)
    .addColumn("id_hash", "text", (col) => col.notNull().unique())
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    // The account the session acts for: the user's own, or one of its children.
    .addColumn("acting_account_id", "integer", (col) => col.notNull().references("accounts.id"))
    .addColumn("mode", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("last_used_at", "text", (col) => col.notNull())
    // Absolute end; an idle session ends sooner (src/domain/accounts/dashboard-sessions.ts).
    .addColumn("expires_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("dashboard_sessions_user").on("dashboard_sessions").column("user_id").execute();
  await db.schema
    .createTable("sign_in_links")
    .addColumn("token_hash", "text", (col) => col.primaryKey())
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("used_at", "text")
    .execute();
}
