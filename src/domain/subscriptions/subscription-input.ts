import type { EventStream } from "../../events/outbox.js";
import { generateSigningSecret } from "../../events/webhook-message.js";
import { checkTarget, TargetRefused } from "../../events/webhook-target.js";
import type { OutboundPolicy } from "../../net/outbound-guard.js";
import type { WebhookSubscriptionTable } from "../../storage/schema.js";
import type { SecretBox } from "../../storage/secret-box.js";
import { DomainError } from "../errors.js";

export type AuthType = "hmac" | "http_basic";

/** What a client may set on a subscription (every field of create; each optional on update). */
export interface SubscriptionFields {
  subscriptionType?: EventStream;
  url?: string;
  payloadFormat?: "json";
  authType?: AuthType;
  hmacSharedSecret?: string;
  httpUsername?: string;
  httpPassword?: string;
}

export interface SealedAuthentication {
  columns: Pick<
    WebhookSubscriptionTable,
    "auth_type" | "hmac_secret_sealed" | "hmac_secret_last4" | "http_basic_sealed"
  >;
  /** A signing secret set by this request, shown once in its answer. */
  shownSecret: string | undefined;
}

export async function checkedUrl(url: string, policy: OutboundPolicy): Promise<string> {
  try {
    return (await checkTarget(url, policy)).toString();
  } catch (error) {
    if (error instanceof TargetRefused) throw new DomainError("subscription.target_refused", error.message);
    throw error;
  }
}

/**
 * The authentication columns for the requested auth type: `hmac` keeps the current secret unless
 * a new one is given or there is none (then one is generated); `http_basic` needs a user name and
 * password unless it keeps its current ones. Secrets are stored sealed, never in clear.
 */
export function sealAuthentication(
  secrets: SecretBox,
  fields: SubscriptionFields,
  current?: Pick<
    WebhookSubscriptionTable,
    "auth_type" | "hmac_secret_sealed" | "hmac_secret_last4" | "http_basic_sealed"
  >,
): SealedAuthentication {
  const authType = fields.authType ?? current?.auth_type ?? "hmac";
  if (authType === "hmac") {
    const keep = fields.hmacSharedSecret === undefined && current?.hmac_secret_sealed;
    if (keep && current) {
      return {
        columns: {
          auth_type: "hmac",
          hmac_secret_sealed: current.hmac_secret_sealed,
          hmac_secret_last4: current.hmac_secret_last4,
          http_basic_sealed: null,
        },
        shownSecret: undefined,
      };
    }
    const secret = fields.hmacSharedSecret ?? generateSigningSecret();
    return {
      columns: {
        auth_type: "hmac",
        hmac_secret_sealed: secrets.seal(secret),
        hmac_secret_last4: secret.slice(-4),
        http_basic_sealed: null,
      },
      shownSecret: secret,
    };
  }
  const given = fields.httpUsername !== undefined || fields.httpPassword !== undefined;
  if (!given && current?.auth_type === "http_basic" && current.http_basic_sealed) {
    return {
      columns: { ...current, auth_type: "http_basic", hmac_secret_sealed: null, hmac_secret_last4: null },
      shownSecret: undefined,
    };
  }
  if (!fields.httpUsername || fields.httpPassword === undefined) {
    throw new DomainError(
      "subscription.credentials_missing",
      "auth_type http_basic needs http_username and http_password.",
    );
  }
  return {
    columns: {
      auth_type: "http_basic",
      hmac_secret_sealed: null,
      hmac_secret_last4: null,
      http_basic_sealed: secrets.seal(JSON.stringify({ username: fields.httpUsername, password: fields.httpPassword })),
    },
    shownSecret: undefined,
  };
}
