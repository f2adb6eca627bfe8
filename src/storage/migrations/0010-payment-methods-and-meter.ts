import { type Kysely, sql } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

/**
 * Payment methods (only what can be shown: brand, last four digits, expiry; the gateway's token is
 * sealed) and, on the meter's ledger, which method paid a refill and the gateway's reference.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withIdColumn(db.schema.createTable("payment_methods"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("holder_name", "text")
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("expiry_month", "integer")
    .addColumn("expiry_year", "integer")
    .addColumn("bank_name", "text")
    .addColumn("bank_account_type", "text")
    .addColumn("account_holder_type", "text")
    .addColumn("billing_location", "text")
    .addColumn("gateway_token", "text", (c) => c.notNull())
    .addColumn("is_default", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("deleted_at", "text")
    .execute();
  await db.schema
    .createIndex("payment_methods_scope")
    .on("payment_methods")
    .columns(["account_id", "mode", "id"])
    .execute();
  // One default per account and mode, whatever two requests do at once.
  await db.schema
    .createIndex("payment_methods_one_default")
    .on("payment_methods")
    .columns(["account_id", "mode"])
    .unique()
    .where(sql.ref("is_default"), "=", 1)
    .execute();

  await db.schema
    .alterTable("meter_entries")
    .addColumn("payment_method_id", "integer", (c) => c.references("payment_methods.id"))
    .execute();
  await db.schema.alterTable("meter_entries").addColumn("gateway_reference", "text").execute();
}
