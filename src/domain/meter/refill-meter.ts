import { DomainError, notFound } from "../errors.js";
import { findDefaultPaymentMethod, findPaymentMethod } from "../payments/payment-methods.repository.js";
import type { AccountScope, DomainServices } from "../services.js";
import { insertMeterEntry, type MeterEntryRow } from "../shipments/shipments.repository.js";

/** The most one refill may add: a typo should not charge a fortune. */
export const MAX_REFILL_CENTS = 1_000_000;

/**
 * Charges a payment method (the default unless one is named) through the gateway and, when the
 * gateway accepts, appends the refill to the ledger. A rejected charge leaves the ledger as it was.
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
  if (charge.status === "rejected") {
    throw new DomainError(
      "meter.payment_declined",
      `The ${method.brand} payment method ending ${method.last4} was declined: ${charge.reason ?? "no reason given"}`,
    );
  }
  const stamp = services.clock.now().toISOString();
  return insertMeterEntry(services.db, {
    account_id: scope.accountId,
    mode: scope.mode,
    kind: "refill",
    amount_cents: request.amountCents,
    shipment_id: null,
    description: `Refill charged to ${method.brand} ending ${method.last4}`,
    status: "posted",
    available_at: stamp,
    created_at: stamp,
    payment_method_id: method.id,
    gateway_reference: charge.reference,
  });
}
