import { credentialText } from "../../real-carrier.js";
/**
 * What a real USPS connection is given: the app's OAuth client id and secret (USPS Developer
 * Portal), and the payer's identities labels will need: CRID, MID, and an EPS or permit account.
 */
export interface UspsCredentials {
  clientId: string;
  clientSecret: string;
  crid: string | null;
  mid: string | null;
  /** Enterprise Payment System account: contract prices are asked for under it. */
  epsAccount: string | null;
  permitNumber: string | null;
  /** The ZIP Code of the post office that holds the permit; USPS needs it to pay from a permit. */
  permitZip: string | null;
}

const DIGITS = { test: /^\d{1,20}$/, shape: "a string of digits" };
const ZIP5 = { test: /^\d{5}$/, shape: "a five-digit ZIP Code" };

/**
 * The USPS credentials in a connection's credentials object; undefined when it names no OAuth
 * client (a sandbox connection). Throws a message for a half-given or malformed set.
 */
export function uspsCredentials(raw: Record<string, unknown>): UspsCredentials | undefined {
  if (Object.keys(raw).length === 0) return undefined;
  const text = (key: string, pattern?: { test: RegExp; shape: string }) => credentialText(raw, key, pattern);
  const clientId = text("client_id");
  const clientSecret = text("client_secret");
  if (!clientId || !clientSecret) {
    throw new Error("credentials.client_id and credentials.client_secret (the USPS OAuth app's) are both required.");
  }
  return {
    clientId,
    clientSecret,
    crid: text("crid", DIGITS),
    mid: text("mid", DIGITS),
    epsAccount: text("eps_account", DIGITS),
    permitNumber: text("permit_number", DIGITS),
    permitZip: text("permit_zip", ZIP5),
  };
}
