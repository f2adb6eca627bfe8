import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database, OrderStoreTable } from "../../storage/schema.js";
import type { AccountScope } from "../services.js";

export type OrderStoreRow = Selectable<OrderStoreTable>;

export async function insertOrderStore(db: Kysely<Database>, row: Insertable<OrderStoreTable>): Promise<OrderStoreRow> {
  return db.insertInto("order_stores").values(row).returningAll().executeTakeFirstOrThrow();
}

/** A live store of the scope (its account and mode), or undefined. */
export async function findOrderStore(
  db: Kysely<Database>,
  scope: AccountScope,
  id: number,
): Promise<OrderStoreRow | undefined> {
  return db
    .selectFrom("order_stores")
    .selectAll()
    .where("id", "=", id)
    .where(ownedBy(scope))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export async function listOrderStores(db: Kysely<Database>, scope: AccountScope): Promise<OrderStoreRow[]> {
  return db
    .selectFrom("order_stores")
    .selectAll()
    .where(ownedBy(scope))
    .where("deleted_at", "is", null)
    .orderBy("id")
    .execute();
}

export async function updateOrderStore(
  db: Kysely<Database>,
  id: number,
  changes: Updateable<OrderStoreTable>,
): Promise<OrderStoreRow> {
  return db.updateTable("order_stores").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}
