import { createHmac, randomBytes } from "node:crypto";

/** RFC 3986 percent-encoding, as OAuth 1.0a requires (encodeURIComponent leaves !'()* alone). */
function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface OAuthSigning {
  consumerKey: string;
  consumerSecret: string;
  /** Seconds since the epoch. */
  timestamp: number;
  nonce?: string;
}

/**
 * OAuth 1.0a "one-legged" signing as WooCommerce asks of clients on plain HTTP, where basic auth
 * would send the secret in clear: the oauth_* parameters join the query, and the signature is the
 * HMAC-SHA256 (key: consumer secret and "&", no token) of the method, the URL without its query and
 * every query parameter, sorted. Answers the URL to request, with the signature in its query.
 */
export function signOAuth1(method: string, url: URL, signing: OAuthSigning): URL {
  const signed = new URL(url);
  const oauth: Record<string, string> = {
    oauth_consumer_key: signing.consumerKey,
    oauth_nonce: signing.nonce ?? randomBytes(16).toString("hex"),
    oauth_signature_method: "HMAC-SHA256",
    oauth_timestamp: String(signing.timestamp),
  };
  for (const [key, value] of Object.entries(oauth)) signed.searchParams.set(key, value);
  signed.searchParams.set("oauth_signature", oauth1Signature(method, signed, signing.consumerSecret));
  return signed;
}

/** The signature of a request whose query holds its oauth_* parameters (any oauth_signature is left out). */
export function oauth1Signature(method: string, url: URL, consumerSecret: string): string {
  const pairs = [...url.searchParams.entries()]
    .filter(([key]) => key !== "oauth_signature")
    .map(([key, value]) => [percentEncode(key), percentEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  const parameters = pairs.map(([key, value]) => `${key}=${value}`).join("&");
  const base = `${url.origin}${url.pathname}`;
  const text = [method.toUpperCase(), percentEncode(base), percentEncode(parameters)].join("&");
  return createHmac("sha256", `${percentEncode(consumerSecret)}&`)
    .update(text)
    .digest("base64");
}
