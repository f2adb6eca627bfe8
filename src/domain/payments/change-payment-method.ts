import type { AccountScope, DomainServices } from "../services.js";
import { getPaymentMethod } from "./find-payment-methods.js";
import { checkExpiry } from "./instrument-rules.js";
import { clearDefaultPaymentMethod, type PaymentMethodRow, updatePaymentMethod } from "./payment-methods.repository.js";

export interface PaymentMethodChanges {
  makeDefault?: boolean;
  name?: string;
  /** A card's new expiry, `MMYY`. */
  expiry?: string;
  billingLocation?: Record<string, unknown>;
}

/**
 * Makes a method the default (the old default stops being it in the same transaction) or stops
 * it being the default, and updates the billing details eHub's overview says may change.
 */
export async function changePaymentMethod(
  services: DomainServices,
  scope: AccountScope,
  id: number,
  changes: PaymentMethodChanges,
): Promise<PaymentMethodRow> {
  const row = await getPaymentMethod(services, scope, id);
  const now = services.clock.now();
  const stamp = now.toISOString();
  const expiry = changes.expiry !== undefined && row.type === "cc" ? checkExpiry(changes.expiry, now) : undefined;
  return services.db.transaction().execute(async (trx) => {
    if (changes.makeDefault === true && row.is_default !== 1) await clearDefaultPaymentMethod(trx, scope, stamp);
    return updatePaymentMethod(trx, row.id, {
      ...(changes.makeDefault === undefined ? {} : { is_default: changes.makeDefault ? 1 : 0 }),
      ...(changes.name === undefined ? {} : { holder_name: changes.name }),
      ...(expiry ? { expiry_month: expiry.month, expiry_year: expiry.year } : {}),
      ...(changes.billingLocation ? { billing_location: JSON.stringify(changes.billingLocation) } : {}),
      updated_at: stamp,
    });
  });
}
