import type { Insertable, Kysely, Selectable, Transaction, Updateable } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database, PaymentMethodTable } from "../../storage/schema.js";
import { lockAccount } from "../accounts/accounts.repository.js";
import type { AccountScope } from "../services.js";

export type PaymentMethodRow = Selectable<PaymentMethodTable>;

/** A live (not deleted) payment method of the scope. */
export async function findPaymentMethod(
  db: Kysely<Database>,
  scope: AccountScope,
  id: number,
): Promise<PaymentMethodRow | undefined> {
  return db
    .selectFrom("payment_methods")
    .selectAll()
    .where("id", "=", id)
    .where(ownedBy(scope))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export async function findDefaultPaymentMethod(
  db: Kysely<Database>,
  scope: AccountScope,
): Promise<PaymentMethodRow | undefined> {
  return db
    .selectFrom("payment_methods")
    .selectAll()
    .where(ownedBy(scope))
    .where("is_default", "=", 1)
    .executeTakeFirst();
}

export async function listPaymentMethods(db: Kysely<Database>, scope: AccountScope): Promise<PaymentMethodRow[]> {
  return db
    .selectFrom("payment_methods")
    .selectAll()
    .where(ownedBy(scope))
    .where("deleted_at", "is", null)
    .orderBy("id")
    .execute();
}

export async function insertPaymentMethod(
  db: Kysely<Database>,
  values: Insertable<PaymentMethodTable>,
): Promise<PaymentMethodRow> {
  return db.insertInto("payment_methods").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updatePaymentMethod(
  db: Kysely<Database>,
  id: number,
  changes: Updateable<PaymentMethodTable>,
): Promise<PaymentMethodRow> {
  return db.updateTable("payment_methods").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Takes the scope's default away from whichever method has it. The account's row is locked first,
 * so two requests making different methods the default take turns instead of one failing on the
 * one-default index.
 */
export async function clearDefaultPaymentMethod(
  trx: Transaction<Database>,
  scope: AccountScope,
  stamp: string,
): Promise<void> {
  await lockAccount(trx, scope.accountId);
  await trx
    .updateTable("payment_methods")
    .set({ is_default: 0, updated_at: stamp })
    .where(ownedBy(scope))
    .where("is_default", "=", 1)
    .execute();
}
