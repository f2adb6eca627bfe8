import { StoreConnectorError } from "./store-connector.js";

/**
 * Credentials travel in HTTP headers, query strings and form bodies, which take printable ASCII
 * only; anything else (an ellipsis, `<Client ID>` copied from the docs) is a placeholder, and
 * saying so at connection beats a transport error at the first sync.
 */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

export function refusePlaceholder(name: string, value: string, shape: string): void {
  if (!PRINTABLE_ASCII.test(value) || value.includes("<") || value.includes("...")) {
    throw new StoreConnectorError("auth", `${name} "${value}" is a placeholder; paste ${shape}`);
  }
}
