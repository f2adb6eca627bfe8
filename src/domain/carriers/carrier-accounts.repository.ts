import type { Kysely, Selectable } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { CarrierAccountTable, CarrierServiceStatusTable, Database } from "../../storage/schema.js";
import type { AccountScope } from "../services.js";

export type CarrierAccountRow = Selectable<CarrierAccountTable>;
export type CarrierServiceStatusRow = Selectable<CarrierServiceStatusTable>;

export async function listConnectedCarrierAccounts(
  db: Kysely<Database>,
  scope: AccountScope,
): Promise<CarrierAccountRow[]> {
  return db
    .selectFrom("carrier_accounts")
    .selectAll()
    .where(ownedBy(scope))
    .where("disconnected_at", "is", null)
    .orderBy("id")
    .execute();
}

/** A connection by id, connected or not (the one that sold a shipment's labels). */
export async function findCarrierAccount(db: Kysely<Database>, id: number): Promise<CarrierAccountRow | undefined> {
  return db.selectFrom("carrier_accounts").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function insertCarrierAccount(
  db: Kysely<Database>,
  row: Omit<CarrierAccountTable, "id">,
): Promise<CarrierAccountRow> {
  return db.insertInto("carrier_accounts").values(row).returningAll().executeTakeFirstOrThrow();
}

/** Marks one connection of the scope disconnected; false when there was none to disconnect. */
export async function disconnectCarrierAccount(
  db: Kysely<Database>,
  scope: AccountScope,
  id: number,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable("carrier_accounts")
    .set({ disconnected_at: at })
    .where("id", "=", id)
    .where(ownedBy(scope))
    .where("disconnected_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listCarrierServiceStatuses(db: Kysely<Database>): Promise<CarrierServiceStatusRow[]> {
  return db.selectFrom("carrier_service_statuses").selectAll().execute();
}

export async function upsertCarrierServiceStatus(db: Kysely<Database>, row: CarrierServiceStatusRow): Promise<void> {
  await db
    .insertInto("carrier_service_statuses")
    .values(row)
    .onConflict((oc) =>
      oc.columns(["carrier_code", "api_service"]).doUpdateSet({
        status: row.status,
        message: row.message,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}
