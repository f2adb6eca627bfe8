import type { OutboundPolicy } from "../net/outbound-guard.js";
import type { SecretBox } from "../storage/secret-box.js";
import type { EventRow } from "./events.repository.js";
import type { SubscriptionRow } from "./subscriptions.repository.js";
import { type Authentication, messageBody, messageHeaders, signerFor } from "./webhook-message.js";
import { type WebhookOutcome, WebhookSender } from "./webhook-sender.js";

/** Sends one message of a subscription: eHub's body, signed or with Basic auth as it asks. */
export class WebhookPoster {
  readonly #sender: WebhookSender;

  constructor(
    private readonly secrets: SecretBox,
    policy: OutboundPolicy,
    timeoutMs: number,
  ) {
    this.#sender = new WebhookSender(policy, timeoutMs);
  }

  async post(subscription: SubscriptionRow, messageId: string, events: readonly EventRow[]): Promise<WebhookOutcome> {
    const body = messageBody(subscription.subscription_type, events);
    return this.#sender.send({
      url: subscription.url,
      body,
      headers: messageHeaders(this.#authentication(subscription), messageId, body),
    });
  }

  close(): void {
    this.#sender.close();
  }

  #authentication(subscription: SubscriptionRow): Authentication {
    if (subscription.auth_type === "http_basic" && subscription.http_basic_sealed) {
      const { username, password } = JSON.parse(this.secrets.open(subscription.http_basic_sealed)) as {
        username: string;
        password: string;
      };
      return { type: "http_basic", username, password };
    }
    if (!subscription.hmac_secret_sealed) throw new Error(`subscription ${subscription.id} has no signing secret`);
    return { type: "hmac", signer: signerFor(this.secrets.open(subscription.hmac_secret_sealed)) };
  }
}
