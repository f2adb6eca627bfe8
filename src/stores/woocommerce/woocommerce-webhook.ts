import { createHash } from "node:crypto";

/** What WordPress's `wp_specialchars_decode` turns back into characters, zero padding dropped. */
const ENTITY = /&(amp|lt|gt|quot);|&#0*(38|60|62|34|39);|&#[xX]0*(26|22|27);/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"' };

/**
 * The key WooCommerce signs webhooks with: the stored secret after `wp_specialchars_decode(secret,
 * ENT_QUOTES)`, so a secret holding `&amp;` signs with `&`. Only the entities of & < > " ' are
 * decoded (numeric ones with any zero padding; hex only for & " '), once, left to right.
 */
export function wooSigningKey(secret: string): string {
  return secret.replace(ENTITY, (_, name?: string, decimal?: string, hex?: string) =>
    name ? (NAMED[name] as string) : String.fromCharCode(decimal ? Number(decimal) : Number.parseInt(hex ?? "", 16)),
  );
}

/**
 * What makes a delivery the one it is: its topic, the resource's id and its `date_modified_gmt`.
 * WooCommerce's own delivery id is a hash of the webhook id and the current second, so two
 * deliveries sent in one second share it. A body without an id or a modification time (a deleted
 * resource, a body not JSON) is known by its topic and the digest of its bytes.
 */
export function wooChangeKey(topic: string, rawBody: Buffer, body: unknown): string {
  const resource = body as { id?: unknown; date_modified_gmt?: unknown } | null;
  if (typeof resource === "object" && resource !== null && typeof resource.id === "number") {
    if (typeof resource.date_modified_gmt === "string") return `${topic}:${resource.id}:${resource.date_modified_gmt}`;
  }
  return `${topic}:sha256:${createHash("sha256").update(rawBody).digest("hex")}`;
}
