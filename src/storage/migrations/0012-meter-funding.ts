import { type Kysely, sql } from "kysely";
import type { DialectName } from "../db.js";
import { withIdColumn } from "./column-types.js";

/**
 * A prepaid meter: the account's refill settings and the rest of its customer template, and the
 * payment transactions behind refills (written `pending` before the gateway is called, so a crash
 * between the charge and the ledger is found and settled). A ledger entry names the transaction
 * that funded it.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable("accounts").addColumn("template_data", "text").execute();
  await db.schema.alterTable("accounts").addColumn("refill_trigger_cents", "integer").execute();
  await db.schema.alterTable("accounts").addColumn("refill_amount_cents", "integer").execute();

  await withIdColumn(db.schema.createTable("payment_transactions"), dialect)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("payment_method_id", "integer", (c) => c.notNull().references("payment_methods.id"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("charge_key", "text", (c) => c.notNull())
    .addColumn("gateway_reference", "text")
    .addColumn("reason", "text")
    .addColumn("return_check_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("payment_transactions_scope")
    .on("payment_transactions")
    .columns(["account_id", "mode", "id"])
    .execute();
  await db.schema
    .createIndex("payment_transactions_method")
    .on("payment_transactions")
    .columns(["payment_method_id", "status"])
    .execute();
  // One charge in flight per meter: refills take turns, so parallel purchases never charge twice.
  await db.schema
    .createIndex("payment_transactions_one_pending")
    .on("payment_transactions")
    .columns(["account_id", "mode"])
    .unique()
    .where(sql.ref("status"), "=", "pending")
    .execute();

  await db.schema
    .alterTable("meter_entries")
    .addColumn("payment_transaction_id", "integer", (c) => c.references("payment_transactions.id"))
    .execute();
}
