import type { PaymentMethodRow } from "../../../domain/payments/payment-methods.repository.js";
import { presentAddress } from "../wire/address.js";

/** eHub's payment method, every key present; the number is only ever its last four digits. */
export function presentPaymentMethod(row: PaymentMethodRow) {
  return {
    id: row.id,
    type: row.type,
    billing_location: row.billing_location ? presentAddress(storedText(JSON.parse(row.billing_location))) : null,
    account_number: row.last4,
    brand: row.brand,
    expiry_month: row.expiry_month,
    expiry_year: row.expiry_year,
    default_payment_method: row.is_default === 1,
  };
}

/**
 * A billing location's text fields. Older versions stored the request's object as sent, so a row
 * may hold a number (a phone sent as one, shown as its digits) or an object where text belongs
 * (shown as null): the listing presents what it can instead of failing on that row.
 */
function storedText(stored: unknown): Record<string, string> {
  if (typeof stored !== "object" || stored === null) return {};
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(stored)) {
    if (typeof value === "string") fields[key] = value;
    else if (typeof value === "number" && Number.isFinite(value)) fields[key] = String(value);
  }
  return fields;
}
