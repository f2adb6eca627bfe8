import type { Kysely } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withIdColumn(db.schema.createTable("carrier_accounts"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("carrier_code", "text", (c) => c.notNull())
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("credentials_ciphertext", "text", (c) => c.notNull())
    .addColumn("enabled_service_ids", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("disconnected_at", "text")
    .execute();
  await db.schema
    .createIndex("carrier_accounts_scope")
    .on("carrier_accounts")
    .columns(["account_id", "mode", "disconnected_at"])
    .execute();

  await db.schema
    .createTable("carrier_service_statuses")
    .addColumn("carrier_code", "text", (c) => c.notNull())
    .addColumn("api_service", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("message", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("carrier_service_statuses_pk", ["carrier_code", "api_service"])
    .execute();
}
