import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { appendEvents } from "../../events/outbox.js";
import type { ChargeResult } from "../../payments/payment-gateway.js";
import type { Database } from "../../storage/schema.js";
import { lockAccount } from "../accounts/accounts.repository.js";
import type { PaymentMethodRow } from "../payments/payment-methods.repository.js";
import type { AccountScope, DomainServices } from "../services.js";
import { appendMeterEntry, type MeterEntryRow } from "./meter.repository.js";
import {
  findPaymentTransaction,
  findPendingPaymentTransaction,
  insertPaymentTransaction,
  movePaymentTransaction,
  type PaymentTransactionRow,
} from "./payment-transactions.repository.js";

/** A charge the process making it never settled (it died): the job asks the gateway again by its key. */
export const SETTLE_PAYMENT_JOB = "payment.settle_pending";
export const SETTLE_PAYMENT_DELAY_MS = 10 * 60 * 1000;
/** When an accepted bank charge is asked about again: ACH returns come back within days. */
export const CHECK_PAYMENT_RETURN_JOB = "payment.check_return";
export const ACH_RETURN_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/** What purchases waiting for a charge in flight wait on: signalled when a charge for the meter settles. */
export const meterChargeTopic = (scope: AccountScope): string => `meter-charge:${scope.accountId}:${scope.mode}`;

export interface RefillCharge {
  transaction: PaymentTransactionRow;
  /** The posted refill when the gateway accepted the charge. */
  entry: MeterEntryRow | undefined;
}

type ChargePurpose = PaymentTransactionRow["purpose"];

/**
 * Charges a payment method for a refill: the transaction is written `pending` first (with the job
 * that settles it if this process dies), then the gateway is called outside any transaction, then
 * the outcome is settled: the refill posted on the ledger with its `payment_status` event. One
 * charge per meter is in flight at a time; undefined when another one is, or when `stillNeeded`,
 * asked under the account's lock, says no (another purchase's refill has settled since it looked).
 */
export async function chargeRefill(
  services: DomainServices,
  scope: AccountScope,
  method: PaymentMethodRow,
  amountCents: number,
  purpose: ChargePurpose,
  stillNeeded?: (trx: Transaction<Database>) => Promise<boolean>,
): Promise<RefillCharge | undefined> {
  const pending = await services.db.transaction().execute(async (trx) => {
    await lockAccount(trx, scope.accountId);
    if (await findPendingPaymentTransaction(trx, scope)) return undefined;
    if (stillNeeded && !(await stillNeeded(trx))) return undefined;
    const now = services.clock.now();
    const stamp = now.toISOString();
    const transaction = await insertPaymentTransaction(trx, {
      account_id: scope.accountId,
      mode: scope.mode,
      payment_method_id: method.id,
      purpose,
      amount_cents: amountCents,
      status: "pending",
      charge_key: `porter_${randomBytes(16).toString("hex")}`,
      gateway_reference: null,
      reason: null,
      return_check_at: null,
      created_at: stamp,
      updated_at: stamp,
    });
    await services.jobs.enqueue(
      SETTLE_PAYMENT_JOB,
      { paymentTransactionId: transaction.id },
      { runAt: new Date(now.getTime() + SETTLE_PAYMENT_DELAY_MS), maxAttempts: 10, executor: trx },
    );
    return transaction;
  });
  if (!pending) return undefined;
  const charge = await services.payments.charge(
    services.secrets.open(method.gateway_token),
    amountCents,
    pending.charge_key,
  );
  return settleCharge(services, pending, method, charge);
}

/** A pending charge left by a process that died: the gateway answers the same key with the same charge. */
export async function settlePendingPayment(services: DomainServices, transactionId: number): Promise<void> {
  const transaction = await findPaymentTransaction(services.db, transactionId);
  if (transaction?.status !== "pending") return;
  const method = await services.db
    .selectFrom("payment_methods")
    .selectAll()
    .where("id", "=", transaction.payment_method_id)
    .executeTakeFirstOrThrow();
  const charge = await services.payments.charge(
    services.secrets.open(method.gateway_token),
    transaction.amount_cents,
    transaction.charge_key,
  );
  await settleCharge(services, transaction, method, charge);
}

async function settleCharge(
  services: DomainServices,
  pending: PaymentTransactionRow,
  method: PaymentMethodRow,
  charge: ChargeResult,
): Promise<RefillCharge> {
  const now = services.clock.now();
  const stamp = now.toISOString();
  const accepted = charge.status === "accepted";
  const returnCheckAt = accepted && method.type === "ach" ? new Date(now.getTime() + ACH_RETURN_WINDOW_MS) : null;
  const settled = await services.db.transaction().execute(async (trx) => {
    const transaction = await movePaymentTransaction(trx, pending.id, "pending", {
      status: charge.status,
      gateway_reference: charge.reference,
      reason: charge.reason,
      return_check_at: returnCheckAt?.toISOString() ?? null,
      updated_at: stamp,
    });
    // Another run (the recovery job, or the buyer) settled it first: answer what it wrote.
    if (!transaction) return settledAlready(trx, pending.id);
    const entry = accepted
      ? await appendMeterEntry(trx, {
          account_id: transaction.account_id,
          mode: transaction.mode,
          kind: "refill",
          amount_cents: transaction.amount_cents,
          shipment_id: null,
          description: `${transaction.purpose === "auto_refill" ? "Automatic refill" : "Refill"} charged to ${method.brand} ending ${method.last4}`,
          status: "posted",
          available_at: stamp,
          created_at: stamp,
          payment_method_id: method.id,
          gateway_reference: charge.reference,
          payment_transaction_id: transaction.id,
        })
      : undefined;
    if (returnCheckAt) {
      await services.jobs.enqueue(
        CHECK_PAYMENT_RETURN_JOB,
        { paymentTransactionId: transaction.id },
        { runAt: returnCheckAt, maxAttempts: 10, executor: trx },
      );
    }
    await appendPaymentStatus(services, trx, transaction, method);
    return { transaction, entry };
  });
  const { account_id, mode } = settled.transaction;
  await services.wakeUps.signal(meterChargeTopic({ accountId: account_id, mode }));
  return settled;
}

async function settledAlready(trx: Transaction<Database>, id: number): Promise<RefillCharge> {
  const transaction = await trx
    .selectFrom("payment_transactions")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const entry = await trx
    .selectFrom("meter_entries")
    .selectAll()
    .where("payment_transaction_id", "=", id)
    .where("kind", "=", "refill")
    .executeTakeFirst();
  return { transaction, entry };
}

/**
 * An accepted bank charge once its return window is over: settled, it stops being in flight;
 * returned, the refill is taken back on the ledger (a `refill_return` entry, which may leave the
 * balance below zero: the postage was already spent) and the transaction is `returned`.
 */
export async function checkPaymentReturn(services: DomainServices, transactionId: number): Promise<void> {
  const transaction = await findPaymentTransaction(services.db, transactionId);
  if (transaction?.status !== "accepted" || transaction.return_check_at === null) return;
  const method = await services.db
    .selectFrom("payment_methods")
    .selectAll()
    .where("id", "=", transaction.payment_method_id)
    .executeTakeFirstOrThrow();
  const settlement = await services.payments.settlement(
    services.secrets.open(method.gateway_token),
    transaction.gateway_reference ?? "",
  );
  const stamp = services.clock.now().toISOString();
  await services.db.transaction().execute(async (trx) => {
    if (settlement.status === "settled") {
      await movePaymentTransaction(trx, transaction.id, "accepted", { return_check_at: null, updated_at: stamp });
      return;
    }
    const returned = await movePaymentTransaction(trx, transaction.id, "accepted", {
      status: "returned",
      reason: settlement.reason,
      return_check_at: null,
      updated_at: stamp,
    });
    if (!returned) return;
    await appendMeterEntry(trx, {
      account_id: returned.account_id,
      mode: returned.mode,
      kind: "refill_return",
      amount_cents: -returned.amount_cents,
      shipment_id: null,
      description: `Refill returned by the bank (${settlement.reason ?? "no reason given"}): ${method.brand} ending ${method.last4}`,
      status: "posted",
      available_at: stamp,
      created_at: stamp,
      payment_method_id: method.id,
      gateway_reference: returned.gateway_reference,
      payment_transaction_id: returned.id,
    });
    await appendPaymentStatus(services, trx, returned, method);
  });
}

/** eHub's payment status item: the transaction as it now stands; `type` is the method's type. */
async function appendPaymentStatus(
  services: DomainServices,
  trx: Transaction<Database>,
  transaction: PaymentTransactionRow,
  method: PaymentMethodRow,
): Promise<void> {
  await appendEvents(
    trx,
    [
      {
        accountId: transaction.account_id,
        mode: transaction.mode,
        stream: "payment_status",
        occurredAt: transaction.updated_at,
        payload: {
          payment_method_id: method.id,
          payment_transaction_id: transaction.id,
          gateway_txn_reference: transaction.gateway_reference,
          transaction_time: transaction.updated_at,
          amount: transaction.amount_cents / 100,
          type: method.type,
          status: transaction.status,
        },
      },
    ],
    services.clock,
  );
}
