import { randomBytes, randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { EventRow } from "./events.repository.js";
import type { EventStream } from "./outbox.js";

/** At most this many events travel in one webhook body. */
export const EVENTS_PER_MESSAGE = 100;

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * The signer for a secret: a `whsec_…` secret is base64 of the key, as the Standard Webhooks
 * libraries read it; any other secret (eHub lets clients choose one) is used as its own bytes,
 * which receivers give their library in its `raw` format.
 */
export function signerFor(secret: string): Webhook {
  if (secret.startsWith("whsec_")) {
    try {
      return new Webhook(secret);
    } catch {
      // not base64 after all: falls through to the raw form
    }
  }
  return new Webhook(Buffer.from(secret, "utf8"), { format: "raw" });
}

export function newMessageId(): string {
  return `msg_${randomUUID().replaceAll("-", "")}`;
}

/**
 * eHub's webhook body (`{subscription_type, status, payload: […]}`; payment events have no
 * top-level status), assembled from the stored JSON of each event without parsing it again.
 */
export function messageBody(subscriptionType: EventStream, events: readonly EventRow[]): string {
  const head =
    subscriptionType === "payment_status"
      ? `{"subscription_type":"payment_status","payload":[`
      : `{"subscription_type":"${subscriptionType}","status":"active","payload":[`;
  return `${head}${events.map((event) => event.payload).join(",")}]}`;
}

export type Authentication =
  | { type: "hmac"; signer: Webhook }
  | { type: "http_basic"; username: string; password: string };

/**
 * The request headers of one attempt. The timestamp is the wall-clock time of sending: receivers
 * compare it with their own clock to refuse replays.
 */
export function messageHeaders(
  auth: Authentication,
  messageId: string,
  body: string,
  sentAt: Date = new Date(),
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Porter-Webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
  };
  if (auth.type === "hmac") headers["webhook-signature"] = auth.signer.sign(messageId, sentAt, body);
  else headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
  return headers;
}
