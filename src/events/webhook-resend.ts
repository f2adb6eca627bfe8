import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { Database } from "../storage/schema.js";
import { readEventsAfter } from "./events.repository.js";
import { completeDelivery, findDeliveryById, findSubscriptionById } from "./subscriptions.repository.js";
import { attemptResult } from "./webhook-dispatcher.js";
import { EVENTS_PER_MESSAGE } from "./webhook-message.js";
import type { WebhookPoster } from "./webhook-poster.js";

/**
 * Sends a pending re-send as the message it repeats (same events, same `webhook-id`) and records
 * the outcome on it. The subscription's cursor and error count stay as they are. Running it twice
 * sends at most once more: a delivery no longer pending is left alone.
 */
export async function sendPendingDelivery(
  db: Kysely<Database>,
  clock: Clock,
  poster: WebhookPoster,
  deliveryId: number,
): Promise<void> {
  const delivery = await findDeliveryById(db, deliveryId);
  if (delivery?.status !== "pending") return;
  const subscription = await findSubscriptionById(db, delivery.subscription_id);
  if (!subscription || subscription.deleted_at) {
    await completeDelivery(db, delivery.id, {
      status: "failed",
      error_message: "the subscription was deleted",
      completed_at: clock.now().toISOString(),
    });
    return;
  }
  const events = await readEventsAfter(
    db,
    { accountId: subscription.account_id, mode: subscription.mode, stream: subscription.subscription_type },
    delivery.first_event_id - 1,
    EVENTS_PER_MESSAGE,
    delivery.last_event_id,
  );
  const outcome = await poster.post(subscription, delivery.message_id, events);
  await completeDelivery(db, delivery.id, attemptResult(outcome, clock.now()));
}
