import { type Kysely, sql } from "kysely";
import type { DialectName } from "../db.js";

/**
 * How many shipments each account and mode has in each status, kept by triggers in the transaction
 * of every change to `shipments`, so the list's total (`X-Total-Count`) reads a handful of rows
 * instead of counting a million (docs/performance.md, "The shipment list on 1,000,000 rows").
 * Filled here from the table itself. And the labels of a page of shipments are found by an index
 * instead of a scan of every label.
 *
 * SQLite has one writer at a time: its row triggers move the counters with each statement.
 * On PostgreSQL a statement's changes are first noted, summed per status, in
 * `shipment_count_changes` (inserts only: nothing to wait for), and folded into the counters at the
 * commit by one statement that takes the counter rows in key order. Taking them last, and in one
 * order, adds no lock-order cycle with what the transaction locked before (the meter balance) nor
 * between two transactions' counters, and holds a concurrent purchase back only for the commit;
 * summing per statement keeps a bulk change to one counter update per status.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const counters = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("n", "bigint", (c) => c.notNull());
  await counters("shipment_counts")
    .addPrimaryKeyConstraint("shipment_counts_pk", ["account_id", "mode", "status"])
    .execute();
  await db.schema.createIndex("labels_shipment").on("labels").column("shipment_id").execute();
  await sql`
    insert into shipment_counts (account_id, mode, status, n)
    select account_id, mode, status, count(*) from shipments group by account_id, mode, status
  `.execute(db);
  if (dialect === "postgres") {
    await counters("shipment_count_changes").execute();
    // `set search_path from current`: the functions find the tables of the schema they were made
    // in, whatever the search path of the connection that changes a shipment.
    await sql`
      create function shipment_counts_note() returns trigger language plpgsql
      set search_path from current as $$
      begin
        -- A transition table exists only for the events that have it: one statement per event.
        if tg_op = 'INSERT' then
          insert into shipment_count_changes (account_id, mode, status, n)
          select account_id, mode, status, count(*) from new_rows group by account_id, mode, status;
        elsif tg_op = 'DELETE' then
          insert into shipment_count_changes (account_id, mode, status, n)
          select account_id, mode, status, -count(*) from old_rows group by account_id, mode, status;
        else
          insert into shipment_count_changes (account_id, mode, status, n)
          select account_id, mode, status, sum(n) from (
            select account_id, mode, status, 1 as n from new_rows
            union all
            select account_id, mode, status, -1 from old_rows
          ) moved
          group by account_id, mode, status
          having sum(n) <> 0;
        end if;
        return null;
      end
      $$
    `.execute(db);
    await sql`
      create function shipment_counts_fold() returns trigger language plpgsql
      set search_path from current as $$
      begin
        -- Only this transaction's notes are visible uncommitted, and every committed one has been folded.
        with folded as (delete from shipment_count_changes returning account_id, mode, status, n)
        insert into shipment_counts (account_id, mode, status, n)
        select account_id, mode, status, sum(n) from folded
        group by account_id, mode, status
        order by account_id, mode, status
        on conflict (account_id, mode, status) do update set n = shipment_counts.n + excluded.n;
        return null;
      end
      $$
    `.execute(db);
    await sql`
      create trigger shipment_counts_insert after insert on shipments
      referencing new table as new_rows for each statement execute function shipment_counts_note()
    `.execute(db);
    await sql`
      create trigger shipment_counts_update after update on shipments
      referencing old table as old_rows new table as new_rows for each statement execute function shipment_counts_note()
    `.execute(db);
    await sql`
      create trigger shipment_counts_delete after delete on shipments
      referencing old table as old_rows for each statement execute function shipment_counts_note()
    `.execute(db);
    await sql`
      create constraint trigger shipment_counts_fold after insert on shipment_count_changes
      deferrable initially deferred for each row execute function shipment_counts_fold()
    `.execute(db);
    return;
  }
  const add = (row: "new") =>
    sql.raw(`
    insert into shipment_counts (account_id, mode, status, n)
    values (${row}.account_id, ${row}.mode, ${row}.status, 1)
    on conflict (account_id, mode, status) do update set n = n + 1;`);
  const remove = (row: "old") =>
    sql.raw(`
    update shipment_counts set n = n - 1
    where account_id = ${row}.account_id and mode = ${row}.mode and status = ${row}.status;`);
  await sql`create trigger shipment_counts_insert after insert on shipments begin ${add("new")} end`.execute(db);
  await sql`create trigger shipment_counts_delete after delete on shipments begin ${remove("old")} end`.execute(db);
  await sql`
    create trigger shipment_counts_update after update of account_id, mode, status on shipments
    when old.account_id is not new.account_id or old.mode is not new.mode or old.status is not new.status
    begin ${remove("old")} ${add("new")} end
  `.execute(db);
}
