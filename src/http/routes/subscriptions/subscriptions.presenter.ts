import type { DeliveryRow, SubscriptionRow } from "../../../events/subscriptions.repository.js";

/**
 * eHub's Subscription, every key present. The signing secret is shown in full only by
 * the request that set it (`shownSecret`); afterwards it is masked to its last four characters.
 */
export function presentSubscription(row: SubscriptionRow, shownSecret?: string) {
  return {
    id: row.id,
    subscription_type: row.subscription_type,
    status: row.status,
    url: row.url,
    payload_format: row.payload_format,
    auth_type: row.auth_type,
    hmac_shared_secret: shownSecret ?? (row.hmac_secret_last4 ? `****${row.hmac_secret_last4}` : null),
    last_pushed_at: row.last_pushed_at,
    last_pushed_id: row.last_pushed_id,
    error_count: row.error_count,
    last_response_code: row.last_response_code,
    last_response_message: row.last_response_message,
  };
}

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    subscription_id: row.subscription_id,
    request_id: row.message_id,
    trigger: row.trigger,
    status: row.status,
    event_count: row.event_count,
    first_event_id: row.first_event_id,
    last_event_id: row.last_event_id,
    response_code: row.response_code,
    response_excerpt: row.response_excerpt,
    error_message: row.error_message,
    latency_ms: row.latency_ms,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}
