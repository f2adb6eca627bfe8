import type { Updateable } from "kysely";
import { positionBefore } from "../../events/events.repository.js";
import { updateSubscription } from "../../events/subscriptions.repository.js";
import type { OutboundPolicy } from "../../net/outbound-guard.js";
import type { WebhookSubscriptionTable } from "../../storage/schema.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import type { SubscriptionResult } from "./create-subscription.js";
import { getSubscription } from "./find-subscriptions.js";
import { checkedUrl, type SubscriptionFields, sealAuthentication } from "./subscription-input.js";

/** eHub replays at most 30 days. */
export const REWIND_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SubscriptionChanges extends SubscriptionFields {
  status?: "active" | "error_disabled";
  /** Re-send every event created at or after this instant. */
  rewindTo?: Date;
}

/**
 * Changes any field given. `status: active` re-enables a disabled subscription (its error count
 * starts again from zero and the batch that failed is retried at once); `rewind_to_date` moves the
 * cursor back to just before the first event created on or after that time, at most 30 days ago.
 */
export async function changeSubscription(
  services: DomainServices,
  scope: AccountScope,
  id: number,
  changes: SubscriptionChanges,
  policy: OutboundPolicy,
): Promise<SubscriptionResult> {
  const current = await getSubscription(services, scope, id);
  const now = services.clock.now();
  const set: Updateable<WebhookSubscriptionTable> = { updated_at: now.toISOString() };
  if (changes.url !== undefined) set.url = await checkedUrl(changes.url, policy);
  if (changes.subscriptionType !== undefined && changes.subscriptionType !== current.subscription_type) {
    throw new DomainError(
      "subscription.type_unchangeable",
      "A subscription's subscription_type cannot change; create a new subscription for the other stream.",
    );
  }
  const auth =
    changes.authType !== undefined ||
    changes.hmacSharedSecret !== undefined ||
    changes.httpUsername !== undefined ||
    changes.httpPassword !== undefined
      ? sealAuthentication(services.secrets, changes, current)
      : undefined;
  if (auth) Object.assign(set, auth.columns);
  if (changes.status === "active" && current.status !== "active") {
    Object.assign(set, { status: "active", error_count: 0, next_attempt_at: now.toISOString() });
  } else if (changes.status === "error_disabled") {
    set.status = "error_disabled";
  }
  if (changes.rewindTo) {
    const since = changes.rewindTo;
    if (since.getTime() > now.getTime() || since.getTime() < now.getTime() - REWIND_DAYS * DAY_MS) {
      throw new DomainError(
        "subscription.rewind_out_of_range",
        `rewind_to_date must be between ${REWIND_DAYS} days ago and now.`,
      );
    }
    Object.assign(set, {
      cursor_event_id: await positionBefore(
        services.db,
        { accountId: scope.accountId, mode: scope.mode, stream: current.subscription_type },
        since.toISOString(),
      ),
      batch_through_id: null,
      batch_message_id: null,
      next_attempt_at: now.toISOString(),
    });
  }
  const row = await updateSubscription(services.db, current.id, set);
  return { row, shownSecret: auth?.shownSecret };
}
