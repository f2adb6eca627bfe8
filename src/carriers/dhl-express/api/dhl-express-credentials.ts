import { credentialText } from "../../real-carrier.js";
/**
 * What a real DHL Express connection is given: the MyDHL API key and secret (DHL's developer
 * portal; HTTP basic auth, no OAuth) and the DHL Express account number shipments are billed to.
 */
export interface DhlExpressCredentials {
  apiKey: string;
  apiSecret: string;
  accountNumber: string;
}

/** MyDHL API `accounts[].number`: at most 12 characters; DHL's are usually 9 digits. */
const ACCOUNT_NUMBER = /^[A-Za-z0-9]{1,12}$/;

/**
 * The DHL Express credentials in a connection's credentials object; undefined when it holds none
 * (a sandbox connection). Throws a message for a half-given or malformed set.
 */
export function dhlExpressCredentials(raw: Record<string, unknown>): DhlExpressCredentials | undefined {
  if (Object.keys(raw).length === 0) return undefined;
  const text = (key: string) => credentialText(raw, key);
  const apiKey = text("api_key");
  const apiSecret = text("api_secret");
  const accountNumber = text("account_number");
  if (!apiKey || !apiSecret || !accountNumber) {
    throw new Error(
      "credentials.api_key and credentials.api_secret (the MyDHL API's) and credentials.account_number (the DHL Express account) are all required.",
    );
  }
  if (!ACCOUNT_NUMBER.test(accountNumber)) {
    throw new Error("credentials.account_number must be the DHL Express account number (up to 12 letters or digits).");
  }
  return { apiKey, apiSecret, accountNumber };
}
