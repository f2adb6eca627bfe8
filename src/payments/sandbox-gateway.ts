import { createHash, randomBytes } from "node:crypto";
import type { ChargeResult, PaymentGateway, PaymentInstrument, Settlement } from "./payment-gateway.js";

/** Test numbers whose charges the sandbox declines, as card and ACH networks' test numbers do. */
export const SANDBOX_DECLINED_CARD = "4000000000000002";
export const SANDBOX_DECLINED_BANK_ACCOUNT = "000222222227";
/** A bank account whose charges are accepted and then returned by the bank (R01), days later. */
export const SANDBOX_RETURNED_BANK_ACCOUNT = "000333333335";

const DECLINED = "declined";
const RETURNED = "returned";
const ACCEPTED = "accepted";

function outcomeOf(instrument: PaymentInstrument): string {
  if (instrument.type === "cc") return instrument.number === SANDBOX_DECLINED_CARD ? DECLINED : ACCEPTED;
  if (instrument.accountNumber === SANDBOX_DECLINED_BANK_ACCOUNT) return DECLINED;
  return instrument.accountNumber === SANDBOX_RETURNED_BANK_ACCOUNT ? RETURNED : ACCEPTED;
}

/**
 * A gateway that moves no money: the token says how its charges end (the test numbers above) and
 * carries nothing of the number itself. The reference is derived from the charge's key, so a
 * charge sent again with its key answers the same transaction, in any process.
 */
export class SandboxPaymentGateway implements PaymentGateway {
  async tokenize(instrument: PaymentInstrument): Promise<string> {
    return `sbx_${outcomeOf(instrument)}_${randomBytes(12).toString("hex")}`;
  }

  async charge(token: string, amountCents: number, key: string): Promise<ChargeResult> {
    const reference = `sbx_txn_${createHash("sha256").update(key).digest("hex").slice(0, 20)}`;
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
      return { status: "rejected", reference, reason: "The amount must be a positive number of cents." };
    }
    if (token.startsWith(`sbx_${DECLINED}_`)) {
      return { status: "rejected", reference, reason: "Declined by the issuer (sandbox test number)." };
    }
    return { status: "accepted", reference, reason: null };
  }

  /** The sandbox knows from the token alone how a bank charge ends. */
  async settlement(token: string, _reference: string): Promise<Settlement> {
    return token.startsWith(`sbx_${RETURNED}_`)
      ? { status: "returned", reason: "R01 Insufficient funds (sandbox test number)" }
      : { status: "settled", reason: null };
  }
}
