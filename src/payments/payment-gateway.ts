/**
 * Where card and bank numbers go instead of the database: the gateway keeps the instrument and
 * hands back a token; charges name the token. One job: tokenize, charge, and say later whether a
 * bank charge came back.
 */
export type PaymentInstrument =
  | { type: "cc"; number: string; expiryMonth: number; expiryYear: number; verificationCode: string }
  | { type: "ach"; routingNumber: string; accountNumber: string };

export interface ChargeResult {
  status: "accepted" | "rejected";
  /** The gateway's own reference for the transaction. */
  reference: string;
  /** Why it was rejected, in the gateway's words. */
  reason: string | null;
}

/** A bank (ACH) charge days after it was accepted: the money arrived, or the bank returned it. */
export interface Settlement {
  status: "settled" | "returned";
  /** The return reason, in the network's words (e.g. "R01 Insufficient funds"). */
  reason: string | null;
}

export interface PaymentGateway {
  tokenize(instrument: PaymentInstrument): Promise<string>;
  /**
   * Charges once per `key`: the same key sent again (a charge retried after a crash) answers the
   * first charge's result instead of charging twice.
   */
  charge(token: string, amountCents: number, key: string): Promise<ChargeResult>;
  /** Where an accepted bank charge stands once its return window has passed. */
  settlement(token: string, reference: string): Promise<Settlement>;
}
