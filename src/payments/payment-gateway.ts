/**
 * Where card and bank numbers go instead of the database: the gateway keeps the instrument and
 * hands back a token; charges name the token. One job: tokenize and charge.
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

export interface PaymentGateway {
  tokenize(instrument: PaymentInstrument): Promise<string>;
  charge(token: string, amountCents: number): Promise<ChargeResult>;
}
