import type { PaymentMethodRow } from "../../../domain/payments/payment-methods.repository.js";
import { presentAddress } from "../wire/address.js";

/** §5.27, every key present; the number is only ever its last four digits. */
export function presentPaymentMethod(row: PaymentMethodRow) {
  return {
    id: row.id,
    type: row.type,
    billing_location: row.billing_location
      ? presentAddress(JSON.parse(row.billing_location) as Record<string, unknown>)
      : null,
    account_number: row.last4,
    brand: row.brand,
    expiry_month: row.expiry_month,
    expiry_year: row.expiry_year,
    default_payment_method: row.is_default === 1,
  };
}
