import type { PaymentInstrument } from "../../payments/payment-gateway.js";
import { lockAccount } from "../accounts/accounts.repository.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { checkBankAccount, checkCard, digitsOf } from "./instrument-rules.js";
import {
  clearDefaultPaymentMethod,
  findDefaultPaymentMethod,
  insertPaymentMethod,
  type PaymentMethodRow,
} from "./payment-methods.repository.js";

export interface NewPaymentMethod {
  type: "cc" | "ach";
  name?: string;
  bankName?: string;
  bankAccountType?: "checking" | "savings";
  accountHolderType?: "business" | "personal";
  routingNumber?: string;
  accountNumber?: string;
  expiry?: string;
  verificationCode?: string;
  billingLocation?: Record<string, unknown>;
  makeDefault?: boolean;
}

function required<T>(value: T | undefined, field: string, type: string): T {
  if (value === undefined || value === "") {
    throw new DomainError(
      "payment_method.field_required",
      `${field} is required for a payment method of type ${type}.`,
    );
  }
  return value;
}

/** What the gateway gets (the full numbers) and what Porter keeps (what may be shown). */
function described(input: NewPaymentMethod, now: Date) {
  const accountNumber = required(input.accountNumber, "account_number", input.type);
  if (input.type === "cc") {
    const expiry = required(input.expiry, "expiry", "cc");
    const verificationCode = required(input.verificationCode, "verification_code", "cc");
    const card = checkCard({ number: accountNumber, expiry, verificationCode }, now);
    const instrument: PaymentInstrument = {
      type: "cc",
      number: digitsOf(accountNumber),
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      verificationCode,
    };
    return {
      instrument,
      shown: {
        brand: card.brand,
        last4: card.last4,
        expiry_month: card.expiryMonth,
        expiry_year: card.expiryYear,
        bank_name: null,
        bank_account_type: null,
        account_holder_type: null,
      },
    };
  }
  const bankName = required(input.bankName, "bank_name", "ach");
  const bankAccountType = required(input.bankAccountType, "bank_account_type", "ach");
  const accountHolderType = required(input.accountHolderType, "account_holder_type", "ach");
  const bank = checkBankAccount({
    routingNumber: required(input.routingNumber, "routing_number", "ach"),
    accountNumber,
  });
  const instrument: PaymentInstrument = {
    type: "ach",
    routingNumber: bank.routingNumber,
    accountNumber: bank.accountNumber,
  };
  return {
    instrument,
    shown: {
      brand: bankName,
      last4: bank.last4,
      expiry_month: null,
      expiry_year: null,
      bank_name: bankName,
      bank_account_type: bankAccountType,
      account_holder_type: accountHolderType,
    },
  };
}

/**
 * Checks the card or account, hands its numbers to the gateway and keeps the gateway's token
 * (sealed), the brand and the last four digits. Made the default when asked (the old one stops
 * being it in the same transaction), or when the scope has no default and the caller did not say.
 */
export async function addPaymentMethod(
  services: DomainServices,
  scope: AccountScope,
  input: NewPaymentMethod,
): Promise<PaymentMethodRow> {
  const now = services.clock.now();
  const { instrument, shown } = described(input, now);
  const token = services.secrets.seal(await services.payments.tokenize(instrument));
  const stamp = now.toISOString();
  return services.db.transaction().execute(async (trx) => {
    let makeDefault = input.makeDefault === true;
    if (makeDefault) await clearDefaultPaymentMethod(trx, scope, stamp);
    else if (input.makeDefault === undefined) {
      // An account's first method (or its first since the default was unset) becomes the default:
      // automatic refills charge the default, and without one they would silently never happen.
      await lockAccount(trx, scope.accountId);
      makeDefault = (await findDefaultPaymentMethod(trx, scope)) === undefined;
    }
    return insertPaymentMethod(trx, {
      account_id: scope.accountId,
      mode: scope.mode,
      type: input.type,
      holder_name: input.name ?? null,
      ...shown,
      billing_location: input.billingLocation ? JSON.stringify(input.billingLocation) : null,
      gateway_token: token,
      is_default: makeDefault ? 1 : 0,
      created_at: stamp,
      updated_at: stamp,
      deleted_at: null,
    });
  });
}
