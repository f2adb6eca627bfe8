import type { Insertable, Kysely, Selectable, Transaction, Updateable } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database, PaymentTransactionTable } from "../../storage/schema.js";
import type { AccountScope } from "../services.js";

export type PaymentTransactionRow = Selectable<PaymentTransactionTable>;
type Executor = Kysely<Database> | Transaction<Database>;

export async function insertPaymentTransaction(
  db: Executor,
  row: Insertable<PaymentTransactionTable>,
): Promise<PaymentTransactionRow> {
  return db.insertInto("payment_transactions").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findPaymentTransaction(db: Executor, id: number): Promise<PaymentTransactionRow | undefined> {
  return db.selectFrom("payment_transactions").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findPendingPaymentTransaction(
  db: Executor,
  scope: AccountScope,
): Promise<PaymentTransactionRow | undefined> {
  return db
    .selectFrom("payment_transactions")
    .selectAll()
    .where(ownedBy(scope))
    .where("status", "=", "pending")
    .executeTakeFirst();
}

/** Moves a transaction on from `from`; undefined when another run moved it first. */
export async function movePaymentTransaction(
  db: Executor,
  id: number,
  from: PaymentTransactionRow["status"],
  changes: Updateable<PaymentTransactionTable>,
): Promise<PaymentTransactionRow | undefined> {
  return db
    .updateTable("payment_transactions")
    .set(changes)
    .where("id", "=", id)
    .where("status", "=", from)
    .returningAll()
    .executeTakeFirst();
}

/** A charge of the method still in flight: pending, or an accepted bank charge that can still come back. */
export async function hasChargeInFlight(db: Executor, paymentMethodId: number): Promise<boolean> {
  const row = await db
    .selectFrom("payment_transactions")
    .select("id")
    .where("payment_method_id", "=", paymentMethodId)
    .where((eb) =>
      eb.or([
        eb("status", "=", "pending"),
        eb.and([eb("status", "=", "accepted"), eb("return_check_at", "is not", null)]),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}
