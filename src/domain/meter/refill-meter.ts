import { appendEvents } from "../../events/outbox.js";
import type { ChargeResult } from "../../payments/payment-gateway.js";
import { DomainError, notFound } from "../errors.js";
import {
  findDefaultPaymentMethod,
  findPaymentMethod,
  type PaymentMethodRow,
} from "../payments/payment-methods.repository.js";
import type { AccountScope, DomainServices } from "../services.js";
import { insertMeterEntry, type MeterEntryRow } from "../shipments/shipments.repository.js";

/** The most one refill may add: a typo should not charge a fortune. */
export const MAX_REFILL_CENTS = 1_000_000;

/** eHub's payment status item (§5.26); `type` is the method's type. */
function paymentStatus(method: PaymentMethodRow, entry: MeterEntryRow, charge: ChargeResult) {
  return {
    payment_method_id: method.id,
    payment_transaction_id: entry.id,
    gateway_txn_reference: charge.reference,
    transaction_time: entry.created_at,
    amount: entry.amount_cents / 100,
    type: method.type,
    status: charge.status,
  };
}

/**
 * Charges a payment method (the default unless one is named) through the gateway and records the
 * charge on the ledger with its `payment_status` event, in one transaction: an accepted charge as
 * a posted refill, a rejected one as a `rejected` entry the balance does not count.
 */
export async function refillMeter(
  services: DomainServices,
  scope: AccountScope,
  request: { amountCents: number; paymentMethodId?: number },
): Promise<MeterEntryRow> {
  if (
    !Number.isSafeInteger(request.amountCents) ||
    request.amountCents < 100 ||
    request.amountCents > MAX_REFILL_CENTS
  ) {
    throw new DomainError(
      "meter.invalid_amount",
      `amount must be whole cents between 1.00 and ${(MAX_REFILL_CENTS / 100).toFixed(2)} dollars.`,
    );
  }
  const method =
    request.paymentMethodId === undefined
      ? await findDefaultPaymentMethod(services.db, scope)
      : await findPaymentMethod(services.db, scope, request.paymentMethodId);
  if (!method) {
    if (request.paymentMethodId !== undefined) throw notFound("payment_method", request.paymentMethodId);
    throw new DomainError(
      "meter.no_payment_method",
      "The account has no default payment method; add one with default_payment_method true, or name payment_method_id.",
    );
  }
  const charge = await services.payments.charge(services.secrets.open(method.gateway_token), request.amountCents);
  const accepted = charge.status === "accepted";
  const stamp = services.clock.now().toISOString();
  const entry = await services.db.transaction().execute(async (trx) => {
    const entry = await insertMeterEntry(trx, {
      account_id: scope.accountId,
      mode: scope.mode,
      kind: "refill",
      amount_cents: request.amountCents,
      shipment_id: null,
      description: `Refill ${accepted ? "charged to" : "declined by"} ${method.brand} ending ${method.last4}`,
      status: accepted ? "posted" : "rejected",
      available_at: stamp,
      created_at: stamp,
      payment_method_id: method.id,
      gateway_reference: charge.reference,
    });
    await appendEvents(
      trx,
      [
        {
          accountId: scope.accountId,
          mode: scope.mode,
          stream: "payment_status",
          occurredAt: stamp,
          payload: paymentStatus(method, entry, charge),
        },
      ],
      services.clock,
    );
    return entry;
  });
  if (!accepted) {
    throw new DomainError(
      "meter.payment_declined",
      `The ${method.brand} payment method ending ${method.last4} was declined: ${charge.reason ?? "no reason given"}`,
    );
  }
  return entry;
}
