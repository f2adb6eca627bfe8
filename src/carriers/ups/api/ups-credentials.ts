import { credentialText } from "../../real-carrier.js";
/**
 * What a real UPS connection is given: the OAuth client id and secret of an app on the UPS
 * Developer Portal, and the six-character UPS account (shipper) number labels are billed to and
 * negotiated rates are asked under.
 */
export interface UpsCredentials {
  clientId: string;
  clientSecret: string;
  shipperNumber: string;
}

const SHIPPER_NUMBER = /^[0-9A-Z]{6}$/;

/**
 * The UPS credentials in a connection's credentials object; undefined when it names no OAuth
 * client (a sandbox connection, which may still note an account number). Throws a message for a
 * half-given or malformed set. `account_number` is accepted for the shipper number, as the sandbox
 * connections were given it.
 */
export function upsCredentials(raw: Record<string, unknown>): UpsCredentials | undefined {
  const text = (key: string) => credentialText(raw, key);
  const clientId = text("client_id");
  const clientSecret = text("client_secret");
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) {
    throw new Error("credentials.client_id and credentials.client_secret (the UPS OAuth app's) are both required.");
  }
  const shipperNumber = (text("shipper_number") ?? text("account_number"))?.toUpperCase();
  if (!shipperNumber) throw new Error("credentials.shipper_number (the six-character UPS account number) is required.");
  if (!SHIPPER_NUMBER.test(shipperNumber)) {
    throw new Error("credentials.shipper_number must be the six letters and digits of a UPS account number.");
  }
  return { clientId, clientSecret, shipperNumber };
}
