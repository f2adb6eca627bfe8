import { streamHead } from "../../events/events.repository.js";
import type { EventStream } from "../../events/outbox.js";
import { insertSubscription, type SubscriptionRow } from "../../events/subscriptions.repository.js";
import type { OutboundPolicy } from "../../net/outbound-guard.js";
import type { AccountScope, DomainServices } from "../services.js";
import { checkedUrl, type SubscriptionFields, sealAuthentication } from "./subscription-input.js";

export interface SubscriptionResult {
  row: SubscriptionRow;
  /** The signing secret, in full, when this request set it. */
  shownSecret: string | undefined;
}

/**
 * A new subscription starts at the present end of its stream: it receives the events that happen
 * from now on (a rewind replays older ones).
 */
export async function createSubscription(
  services: DomainServices,
  scope: AccountScope,
  fields: SubscriptionFields & { subscriptionType: EventStream; url: string },
  policy: OutboundPolicy,
): Promise<SubscriptionResult> {
  const url = await checkedUrl(fields.url, policy);
  const auth = sealAuthentication(services.secrets, fields);
  const now = services.clock.now().toISOString();
  const row = await services.db.transaction().execute(async (trx) =>
    insertSubscription(trx, {
      account_id: scope.accountId,
      mode: scope.mode,
      subscription_type: fields.subscriptionType,
      status: "active",
      url,
      payload_format: "json",
      ...auth.columns,
      cursor_event_id: await streamHead(trx, { ...scope, stream: fields.subscriptionType }),
      batch_through_id: null,
      batch_message_id: null,
      last_pushed_id: null,
      last_pushed_at: null,
      error_count: 0,
      last_response_code: null,
      last_response_message: null,
      next_attempt_at: now,
      locked_by: null,
      locked_until: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    }),
  );
  return { row, shownSecret: auth.shownSecret };
}
