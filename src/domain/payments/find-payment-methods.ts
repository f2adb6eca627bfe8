import { DomainError, notFound } from "../errors.js";
import { hasChargeInFlight } from "../meter/payment-transactions.repository.js";
import type { AccountScope, DomainServices } from "../services.js";
import {
  findPaymentMethod,
  listPaymentMethods,
  type PaymentMethodRow,
  updatePaymentMethod,
} from "./payment-methods.repository.js";

export async function getPaymentMethod(
  services: DomainServices,
  scope: AccountScope,
  id: number,
): Promise<PaymentMethodRow> {
  const row = await findPaymentMethod(services.db, scope, id);
  if (!row) throw notFound("payment_method", id);
  return row;
}

export function findPaymentMethods(services: DomainServices, scope: AccountScope): Promise<PaymentMethodRow[]> {
  return listPaymentMethods(services.db, scope);
}

/**
 * Removes a method from use; the row stays (its last four digits) because refills on the ledger
 * name it. The default cannot go: refills charge it, so another must be made the default (or
 * this one unset) first. Nor can a method with a charge in flight: a pending charge, or a bank
 * charge that can still be returned.
 */
export async function deletePaymentMethod(services: DomainServices, scope: AccountScope, id: number): Promise<void> {
  const row = await getPaymentMethod(services, scope, id);
  if (row.is_default === 1) {
    throw new DomainError(
      "payment_method.is_default",
      `Payment method ${id} is the default; make another method the default, or set default_payment_method false, before deleting it.`,
    );
  }
  if (await hasChargeInFlight(services.db, row.id)) {
    throw new DomainError(
      "payment_method.in_use",
      `Payment method ${id} has a charge in flight (pending, or a bank charge that can still be returned); delete it once that is settled.`,
    );
  }
  const stamp = services.clock.now().toISOString();
  await updatePaymentMethod(services.db, row.id, { deleted_at: stamp, updated_at: stamp });
}
