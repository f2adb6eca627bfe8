import {
  type DeliveryRow,
  findDelivery,
  insertDelivery,
  listDeliveries,
} from "../../events/subscriptions.repository.js";
import { notFound } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { getSubscription } from "./find-subscriptions.js";

export const RESEND_DELIVERY_JOB = "webhook.resend";

export async function findDeliveries(
  services: DomainServices,
  scope: AccountScope,
  subscriptionId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const subscription = await getSubscription(services, scope, subscriptionId);
  return listDeliveries(services.db, subscription.id, page);
}

/**
 * Queues one recorded message to be sent again, as it was (same events, same `webhook-id`), as a
 * new pending delivery; a worker sends it. The cursor and the error count do not move.
 */
export async function resendDelivery(
  services: DomainServices,
  scope: AccountScope,
  subscriptionId: number,
  deliveryId: number,
): Promise<DeliveryRow> {
  const subscription = await getSubscription(services, scope, subscriptionId);
  const original = await findDelivery(services.db, subscription.id, deliveryId);
  if (!original) throw notFound("delivery", deliveryId);
  const now = services.clock.now().toISOString();
  return services.db.transaction().execute(async (trx) => {
    const pending = await insertDelivery(trx, {
      subscription_id: subscription.id,
      message_id: original.message_id,
      trigger: "manual_retry",
      status: "pending",
      first_event_id: original.first_event_id,
      last_event_id: original.last_event_id,
      event_count: original.event_count,
      response_code: null,
      response_excerpt: null,
      error_message: null,
      latency_ms: null,
      created_at: now,
      completed_at: null,
    });
    await services.jobs.enqueue(RESEND_DELIVERY_JOB, { deliveryId: pending.id }, { executor: trx, maxAttempts: 3 });
    return pending;
  });
}
