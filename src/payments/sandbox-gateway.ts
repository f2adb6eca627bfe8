import { randomBytes } from "node:crypto";
import type { ChargeResult, PaymentGateway, PaymentInstrument } from "./payment-gateway.js";

/** Test numbers whose charges the sandbox declines, as card and ACH networks' test numbers do. */
export const SANDBOX_DECLINED_CARD = "4000000000000002";
export const SANDBOX_DECLINED_BANK_ACCOUNT = "000222222227";

const DECLINED = "declined";
const ACCEPTED = "accepted";

/**
 * A gateway that moves no money: the token says how its charges end (the test numbers above are
 * declined, everything else accepted) and carries nothing of the number itself.
 */
export class SandboxPaymentGateway implements PaymentGateway {
  async tokenize(instrument: PaymentInstrument): Promise<string> {
    const declined =
      instrument.type === "cc"
        ? instrument.number === SANDBOX_DECLINED_CARD
        : instrument.accountNumber === SANDBOX_DECLINED_BANK_ACCOUNT;
    return `sbx_${declined ? DECLINED : ACCEPTED}_${randomBytes(12).toString("hex")}`;
  }

  async charge(token: string, amountCents: number): Promise<ChargeResult> {
    const reference = `sbx_txn_${randomBytes(10).toString("hex")}`;
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
      return { status: "rejected", reference, reason: "The amount must be a positive number of cents." };
    }
    if (token.startsWith(`sbx_${DECLINED}_`)) {
      return { status: "rejected", reference, reason: "Declined by the issuer (sandbox test number)." };
    }
    return { status: "accepted", reference, reason: null };
  }
}
