import { sql } from "kysely";
import type { Db } from "../../src/storage/db.js";

/**
 * Makes the database itself refuse to move a shipment into one of `statuses`: a real failure of
 * the real write, for testing what happens after the carrier sold a label.
 */
export async function refuseShipmentStatuses(db: Db, statuses: readonly string[]): Promise<() => Promise<void>> {
  const list = statuses.map((s) => `'${s}'`).join(", ");
  if (db.dialect === "sqlite") {
    await sql
      .raw(
        `create trigger refuse_status before update of status on shipments when new.status in (${list}) begin select raise(abort, 'simulated database failure'); end`,
      )
      .execute(db.kysely);
    return async () => {
      await sql.raw("drop trigger refuse_status").execute(db.kysely);
    };
  }
  await sql
    .raw(
      `create function refuse_status() returns trigger as $$ begin if new.status in (${list}) then raise exception 'simulated database failure'; end if; return new; end $$ language plpgsql`,
    )
    .execute(db.kysely);
  await sql
    .raw("create trigger refuse_status before update on shipments for each row execute function refuse_status()")
    .execute(db.kysely);
  return async () => {
    await sql.raw("drop trigger refuse_status on shipments").execute(db.kysely);
    await sql.raw("drop function refuse_status()").execute(db.kysely);
  };
}
