import type { Insertable, Kysely, Selectable } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database, PickupTable } from "../../storage/schema.js";
import type { AccountScope } from "../services.js";

export type PickupRow = Selectable<PickupTable>;

export async function insertPickup(db: Kysely<Database>, row: Insertable<PickupTable>): Promise<PickupRow> {
  return db.insertInto("pickups").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findPickup(
  db: Kysely<Database>,
  scope: AccountScope,
  id: number,
): Promise<PickupRow | undefined> {
  return db.selectFrom("pickups").selectAll().where("id", "=", id).where(ownedBy(scope)).executeTakeFirst();
}

export interface PickupFilter {
  /** YYYY-MM-DD, both included. */
  from?: string;
  to?: string;
  status?: PickupRow["status"];
}

/** By pickup day, then id. */
export async function listPickups(
  db: Kysely<Database>,
  scope: AccountScope,
  filter: PickupFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: PickupRow[]; total: number }> {
  let query = db.selectFrom("pickups").where(ownedBy(scope));
  if (filter.from) query = query.where("pickup_date", ">=", filter.from);
  if (filter.to) query = query.where("pickup_date", "<=", filter.to);
  if (filter.status) query = query.where("status", "=", filter.status);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("pickup_date").orderBy("id").limit(page.limit).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
