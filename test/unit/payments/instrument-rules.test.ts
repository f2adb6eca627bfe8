import { describe, expect, it } from "vitest";
import { DomainError } from "../../../src/domain/errors.js";
import {
  checkBankAccount,
  checkCard,
  checkExpiry,
  isAbaRoutingNumber,
} from "../../../src/domain/payments/instrument-rules.js";

const NOW = new Date("2026-01-15T15:00:00.000Z");
const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return undefined;
};

describe("ABA routing numbers", () => {
  it.each(["021000021", "011000015", "110000000", "122105278"])("accepts %s (checksum a multiple of 10)", (n) => {
    expect(isAbaRoutingNumber(n)).toBe(true);
  });
  it.each(["021000022", "011000016", "12345678", "1234567890", "02100002a", "000000000"])("refuses %s", (n) => {
    expect(isAbaRoutingNumber(n)).toBe(false);
  });
});

describe("cards", () => {
  it.each([
    ["4242424242424242", "123", "visa"],
    ["4000056655665556", "123", "visa"],
    ["5555555555554444", "123", "mastercard"],
    ["2223003122003222", "123", "mastercard"],
    ["378282246310005", "1234", "amex"],
    ["6011111111111117", "123", "discover"],
    ["3056930009020004", "123", "diners"],
    ["3566002020360505", "123", "jcb"],
  ])("%s is a %s card", (number, verificationCode, brand) => {
    expect(checkCard({ number, expiry: "0330", verificationCode }, NOW)).toEqual({
      brand,
      last4: number.slice(-4),
      expiryMonth: 3,
      expiryYear: 2030,
    });
  });

  it("reads spaces and dashes as typing, not digits", () => {
    expect(checkCard({ number: "4242-4242 4242-4242", expiry: "0330", verificationCode: "999" }, NOW).last4).toBe(
      "4242",
    );
  });

  it("refuses a wrong check digit, a wrong length and a non-number", () => {
    for (const number of ["4242424242424243", "424242424242", "4242x42424242424", ""]) {
      expect(codeOf(() => checkCard({ number, expiry: "0330", verificationCode: "123" }, NOW))).toBe(
        "payment_method.invalid_card_number",
      );
    }
  });

  it("a card is good through the last day of its expiry month, by the given clock", () => {
    expect(checkExpiry("0126", new Date("2026-01-31T23:59:59.999Z"))).toEqual({ month: 1, year: 2026 });
    expect(codeOf(() => checkExpiry("0126", new Date("2026-02-01T00:00:00.000Z")))).toBe("payment_method.card_expired");
    expect(codeOf(() => checkExpiry("0000", NOW))).toBe("payment_method.invalid_expiry");
    expect(codeOf(() => checkExpiry("126", NOW))).toBe("payment_method.invalid_expiry");
  });

  it("error messages never repeat the number", () => {
    expect(() => checkCard({ number: "4242424242424241", expiry: "0330", verificationCode: "123" }, NOW)).toThrow(
      /^(?!.*424242).*not a valid card number/,
    );
  });
});

describe("bank accounts", () => {
  it("keeps the digits and the last four", () => {
    expect(checkBankAccount({ routingNumber: "021000021", accountNumber: "0001-2345-6789" })).toEqual({
      routingNumber: "021000021",
      accountNumber: "000123456789",
      last4: "6789",
    });
  });
  it("refuses an account number of fewer than 4 or more than 17 digits", () => {
    for (const accountNumber of ["123", "123456789012345678", "12ab"]) {
      expect(codeOf(() => checkBankAccount({ routingNumber: "021000021", accountNumber }))).toBe(
        "payment_method.invalid_account_number",
      );
    }
  });
});
