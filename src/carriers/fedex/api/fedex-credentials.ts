import { credentialText } from "../../real-carrier.js";
/**
 * What a real FedEx connection is given: the API key and secret key of a project on the FedEx
 * Developer Portal (OAuth client id and secret), and the FedEx account number shipments are
 * rated under and billed to.
 */
export interface FedexCredentials {
  clientId: string;
  clientSecret: string;
  accountNumber: string;
}

/** FedEx account numbers are nine digits; a few older ones are shorter, none longer than twelve. */
const ACCOUNT_NUMBER = /^\d{6,12}$/;

/**
 * The FedEx credentials in a connection's credentials object; undefined when it names no OAuth
 * client (a sandbox connection, which may still carry a bare account number). Throws a message
 * for a half-given or malformed set.
 */
export function fedexCredentials(raw: Record<string, unknown>): FedexCredentials | undefined {
  if (raw.client_id === undefined && raw.client_secret === undefined) return undefined;
  const text = (key: string) => credentialText(raw, key);
  const clientId = text("client_id");
  const clientSecret = text("client_secret");
  if (!clientId || !clientSecret) {
    throw new Error(
      "credentials.client_id and credentials.client_secret (the FedEx API key and secret key) are both required.",
    );
  }
  const accountNumber = text("account_number");
  if (!accountNumber) throw new Error("credentials.account_number (the FedEx account to ship under) is required.");
  if (!ACCOUNT_NUMBER.test(accountNumber))
    throw new Error("credentials.account_number must be a FedEx account number (digits).");
  return { clientId, clientSecret, accountNumber };
}
