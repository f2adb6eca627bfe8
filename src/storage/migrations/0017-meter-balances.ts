import { type Kysely, sql } from "kysely";
import type { DialectName } from "../db.js";

/**
 * Each meter's balance on one row, so a purchase reads one row instead of summing the whole ledger;
 * filled here from the ledger's sums (the ledger stays the source of truth).
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable("meter_balances")
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("posted_cents", "bigint", (c) => c.notNull())
    .addColumn("held_cents", "bigint", (c) => c.notNull())
    .addColumn("held_count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("meter_balances_pk", ["account_id", "mode"])
    .execute();
  await sql`
    insert into meter_balances (account_id, mode, posted_cents, held_cents, held_count)
    select account_id, mode,
      coalesce(sum(case when status = 'posted' then amount_cents end), 0),
      coalesce(sum(case when status = 'held' then amount_cents end), 0),
      count(case when status = 'held' then 1 end)
    from meter_entries
    group by account_id, mode
  `.execute(db);
}
