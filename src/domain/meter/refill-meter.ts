import { DomainError, notFound } from "../errors.js";
import { findDefaultPaymentMethod, findPaymentMethod } from "../payments/payment-methods.repository.js";
import type { AccountScope, DomainServices } from "../services.js";
import { chargeRefill } from "./charge-refill.js";
import type { MeterEntryRow } from "./meter.repository.js";

/** The most one refill may add: a typo should not charge a fortune. */
export const MAX_REFILL_CENTS = 1_000_000;

export function isRefillAmount(cents: number): boolean {
  return Number.isSafeInteger(cents) && cents >= 100 && cents <= MAX_REFILL_CENTS;
}

/**
 * Charges a payment method (the default unless one is named) and posts the refill. A declined
 * charge is kept as a `rejected` payment transaction (with its `payment_status` event) and
 * answered 402; the balance is unchanged.
 */
export async function refillMeter(
  services: DomainServices,
  scope: AccountScope,
  request: { amountCents: number; paymentMethodId?: number },
): Promise<MeterEntryRow> {
  if (!isRefillAmount(request.amountCents)) {
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
  const charged = await chargeRefill(services, scope, method, request.amountCents, "refill");
  if (!charged) {
    throw new DomainError(
      "meter.refill_in_progress",
      "Another charge for this meter is still being made; retry once it is settled.",
    );
  }
  if (!charged.entry) {
    throw new DomainError(
      "meter.payment_declined",
      `The ${method.brand} payment method ending ${method.last4} was declined: ${charged.transaction.reason ?? "no reason given"}`,
    );
  }
  return charged.entry;
}
