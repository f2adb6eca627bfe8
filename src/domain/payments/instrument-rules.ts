import valid from "card-validator";
import { DomainError } from "../errors.js";

/** What may be kept and shown of a card once its number has been checked. */
export interface CheckedCard {
  brand: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
}

/** card-validator's names where eHub uses its own (the reference's example brand is `amex`). */
const EHUB_BRANDS: Record<string, string> = { "american-express": "amex", "diners-club": "diners" };

const invalid = (code: string, message: string) => new DomainError(`payment_method.${code}`, message);

/** Digits only: people type cards and accounts with spaces and dashes. */
export function digitsOf(text: string): string {
  return text.replace(/[\s-]/g, "");
}

/**
 * `MMYY`, valid through the last day of that month (UTC). Messages never repeat what was sent:
 * a typo in a card number is still most of a card number.
 */
export function checkExpiry(expiry: string, now: Date): { month: number; year: number } {
  const match = /^(\d{2})(\d{2})$/.exec(expiry.trim());
  const month = Number(match?.[1]);
  if (!match || month < 1 || month > 12) {
    throw invalid("invalid_expiry", "expiry must be the card's expiration as MMYY, for example 0935.");
  }
  const year = 2000 + Number(match[2]);
  const monthsNow = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (year * 12 + (month - 1) < monthsNow) throw invalid("card_expired", "The card has expired.");
  return { month, year };
}

export function checkCard(input: { number: string; expiry: string; verificationCode: string }, now: Date): CheckedCard {
  const number = digitsOf(input.number);
  const verdict = /^\d+$/.test(number) ? valid.number(number) : undefined;
  if (!verdict?.isValid || !verdict.card) {
    throw invalid(
      "invalid_card_number",
      "account_number is not a valid card number (unknown issuer, wrong length or failed check digit).",
    );
  }
  const { month, year } = checkExpiry(input.expiry, now);
  const code = input.verificationCode.trim();
  if (!new RegExp(`^\\d{${verdict.card.code.size}}$`).test(code)) {
    throw invalid(
      "invalid_verification_code",
      `verification_code must be the ${verdict.card.code.size} digits of the card's ${verdict.card.code.name}.`,
    );
  }
  return {
    brand: EHUB_BRANDS[verdict.card.type] ?? verdict.card.type,
    last4: number.slice(-4),
    expiryMonth: month,
    expiryYear: year,
  };
}

/** The ABA checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10. */
export function isAbaRoutingNumber(routingNumber: string): boolean {
  if (!/^\d{9}$/.test(routingNumber) || routingNumber === "000000000") return false;
  const d = [...routingNumber].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

export function checkBankAccount(input: { routingNumber: string; accountNumber: string }): {
  routingNumber: string;
  accountNumber: string;
  last4: string;
} {
  const routingNumber = digitsOf(input.routingNumber);
  if (!isAbaRoutingNumber(routingNumber)) {
    throw invalid("invalid_routing_number", "routing_number is not a valid 9-digit ABA routing number.");
  }
  const accountNumber = digitsOf(input.accountNumber);
  if (!/^\d{4,17}$/.test(accountNumber)) {
    throw invalid("invalid_account_number", "account_number must be a bank account number of 4 to 17 digits.");
  }
  return { routingNumber, accountNumber, last4: accountNumber.slice(-4) };
}
