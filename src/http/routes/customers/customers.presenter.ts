import { maskApiKey } from "../../../domain/accounts/api-keys.js";
import type { CustomerRecord } from "../../../domain/accounts/list-customers.js";
import type { UserWithKeys } from "../../../domain/accounts/list-users.js";
import { dollars } from "../rates/rates.presenter.js";
import {
  ACCOUNTING_CONTACT_KEYS,
  CUSTOMER_KEYS,
  CUSTOMER_USER_KEYS,
  TEMPLATE_DATA_KEYS,
  TEMPLATE_PAYMENT_KEYS,
} from "../wire/customer.js";
import { documented } from "../wire/documented.js";

/** The key of the caller's mode, masked; the full key is only ever shown when it is made. */
export function maskedKeyOf(user: UserWithKeys | undefined, mode: string): string | null {
  const key = user?.keys.find((k) => k.mode === mode);
  return key ? maskApiKey(key.prefix, key.last4) : null;
}

const dollarsOrNull = (cents: number | null) => (cents === null ? null : dollars(cents));

/** The template as kept, with the account's refill settings; no card or bank number is ever kept. */
function presentTemplate(account: CustomerRecord["account"], maskedKey: string | null) {
  const kept = (account.template_data ? JSON.parse(account.template_data) : {}) as Record<string, unknown>;
  const contact = (kept.accounting_contact ?? {}) as Record<string, unknown>;
  return documented(TEMPLATE_DATA_KEYS, {
    ...kept,
    ehub_api_key: maskedKey,
    accounting_contact: documented(ACCOUNTING_CONTACT_KEYS, contact),
    payment: documented(TEMPLATE_PAYMENT_KEYS, {
      refill_trigger_balance: dollarsOrNull(account.refill_trigger_cents),
      refill_amount: dollarsOrNull(account.refill_amount_cents),
    }),
  });
}

/** eHub's customer object; secrets are masked or null, never returned. */
export function presentCustomer({ account, primaryUser }: CustomerRecord, mode: string) {
  const masked = maskedKeyOf(primaryUser, mode);
  return {
    ...documented(CUSTOMER_KEYS, {
      id: account.id,
      parent_id: account.parent_id,
      external_id: account.external_id,
      name: account.name,
      phone: account.phone,
      email: account.email,
      user:
        primaryUser &&
        documented(CUSTOMER_USER_KEYS, {
          id: primaryUser.user.id,
          first_name: primaryUser.user.first_name,
          last_name: primaryUser.user.last_name,
          phone: primaryUser.user.phone,
          email: primaryUser.user.email,
          api_key: masked,
        }),
      template_data: presentTemplate(account, masked),
    }),
    created_at: account.created_at,
  };
}
