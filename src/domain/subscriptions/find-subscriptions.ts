import {
  findSubscription,
  listSubscriptions,
  type SubscriptionRow,
  updateSubscription,
} from "../../events/subscriptions.repository.js";
import { notFound } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";

export async function getSubscription(
  services: DomainServices,
  scope: AccountScope,
  id: number,
): Promise<SubscriptionRow> {
  const row = await findSubscription(services.db, scope, id);
  if (!row) throw notFound("subscription", id);
  return row;
}

export function findSubscriptions(
  services: DomainServices,
  scope: AccountScope,
  filter: Parameters<typeof listSubscriptions>[2],
  page: { limit: number; offset: number },
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  return listSubscriptions(services.db, scope, filter, page);
}

/** Stops deliveries for good; the delivery history stays. */
export async function deleteSubscription(services: DomainServices, scope: AccountScope, id: number): Promise<void> {
  const row = await getSubscription(services, scope, id);
  const now = services.clock.now().toISOString();
  await updateSubscription(services.db, row.id, { deleted_at: now, updated_at: now });
}
