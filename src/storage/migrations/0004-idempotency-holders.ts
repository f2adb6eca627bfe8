import { type Kysely, sql } from "kysely";
import type { DialectName } from "../db.js";

/**
 * Idempotency keys become per user (a stored answer is replayed only to the user who got it) and
 * carry a lease their holder renews while it works, so a key held by a dead process is taken over
 * within seconds. Shipments remember the idempotent request that bought them, so a retry finds
 * what a dead attempt started instead of buying again.
 *
 * Rows written before this change cannot say which user made them: each is copied to every user
 * who could have (the account's and its parent's). Their fingerprints were plain SHA-256, which the
 * keyed fingerprints never match, so such a key answers 409 `idempotency.key_reused` rather than
 * running again; their stored answers (which could hold API keys) are dropped.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable("idempotency_keys").renameTo("idempotency_keys_0001").execute();
  await db.schema
    .createTable("idempotency_keys")
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id"))
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("holder", "text")
    .addColumn("attempt", "text", (c) => c.notNull())
    .addColumn("lease_until", "text", (c) => c.notNull())
    .addColumn("response_status", "integer")
    .addColumn("response_body", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_user_pk", ["account_id", "mode", "user_id", "idempotency_key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_holder").on("idempotency_keys").column("holder").execute();
  await sql`
    insert into idempotency_keys (account_id, mode, user_id, idempotency_key, request_hash, request_id, state,
      holder, attempt, lease_until, response_status, response_body, created_at, expires_at)
    select o.account_id, o.mode, u.id, o.idempotency_key, o.request_hash,
      'before-0004:' || o.account_id || ':' || o.mode || ':' || o.idempotency_key, o.state,
      null, 'before-0004', o.expires_at, o.response_status, null, o.created_at, o.expires_at
    from idempotency_keys_0001 o
    join accounts a on a.id = o.account_id
    join users u on u.account_id = o.account_id or u.account_id = a.parent_id
  `.execute(db);
  // SQLite would keep the dropped answers in free pages; zeroed, they leave the file at the next
  // checkpoint (migrateToLatest makes one).
  if (dialect === "sqlite") await sql`pragma secure_delete = on`.execute(db);
  await db.schema.dropTable("idempotency_keys_0001").execute();
  if (dialect === "sqlite") await sql`pragma secure_delete = off`.execute(db);

  await db.schema.alterTable("shipments").addColumn("request_key", "text").execute();
  await db.schema.createIndex("shipments_request_key").unique().on("shipments").column("request_key").execute();
}
