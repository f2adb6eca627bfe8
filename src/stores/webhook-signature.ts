import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookHeaders } from "./store-connector.js";

/**
 * Whether `signature` is the base64 HMAC-SHA256 of the exact bytes received under `secret`, compared
 * in constant time. Shopify and WooCommerce both sign their webhooks this way.
 */
export function base64HmacSha256Matches(rawBody: Buffer, secret: string, signature: string): boolean {
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A header's (first) value; names are lower-cased, as Node gives them. */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
