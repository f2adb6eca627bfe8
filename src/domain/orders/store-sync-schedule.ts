import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema.js";
import type { DomainServices } from "../services.js";
import type { OrderStoreRow } from "./order-stores.repository.js";
import { queueOrderStoreSync, SYNC_ORDER_STORE_JOB, type SyncOrderStorePayload } from "./sync-order-store.js";

/** Every platform store's import of new and changed orders, on the sync interval. */
export const SYNC_ALL_STORES_JOB = "order_stores.sync_all";
/** Every platform store's re-read of a recent window, hourly: platforms do not promise every webhook arrives. */
export const RECONCILE_STORES_JOB = "order_stores.reconcile_all";

/**
 * Every store of a platform that never retries a failed webhook delivery (WooCommerce), and that
 * has had deliveries, synced on a short interval: an order whose delivery failed is imported within
 * minutes instead of at the next sync round.
 */
export const RECONCILE_WEBHOOK_STORES_JOB = "order_stores.reconcile_webhooks";

const HOUR_MS = 3_600_000;

export interface StoreSyncSchedule {
  syncIntervalMs: number;
  reconcileWindowMs: number;
  webhookReconcileIntervalMs: number;
}

export interface RecurringPayload {
  /** ISO instant this round was due. */
  at: string;
}

async function platformStores(db: Kysely<Database>) {
  return db
    .selectFrom("order_stores")
    .selectAll()
    .where("service_type", "!=", "custom")
    .where("deleted_at", "is", null)
    .orderBy("id")
    .execute();
}

async function queueNextRound(services: DomainServices, kind: string, at: Date): Promise<void> {
  const waiting = await services.db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", kind)
    .where("state", "=", "queued")
    .executeTakeFirst();
  if (waiting) return;
  await services.jobs.enqueue(kind, { at: at.toISOString() } satisfies RecurringPayload, { runAt: at, maxAttempts: 3 });
}

/** Keeps one round of each kind queued; called when a worker starts. Rounds already waiting are left alone. */
export async function scheduleStoreSyncs(services: DomainServices, schedule: StoreSyncSchedule): Promise<void> {
  const now = services.clock.now().getTime();
  await queueNextRound(services, SYNC_ALL_STORES_JOB, new Date(now + schedule.syncIntervalMs));
  await queueNextRound(services, RECONCILE_STORES_JOB, new Date(now + HOUR_MS));
  await queueNextRound(services, RECONCILE_WEBHOOK_STORES_JOB, new Date(now + schedule.webhookReconcileIntervalMs));
}

/** Queues a sync of each store (unless one is waiting), then the round of `kind` due `intervalMs` from now. */
async function queueSyncRound(
  services: DomainServices,
  stores: readonly OrderStoreRow[],
  kind: string,
  intervalMs: number,
): Promise<number> {
  for (const store of stores) await queueOrderStoreSync(services, store);
  await queueNextRound(services, kind, new Date(services.clock.now().getTime() + intervalMs));
  return stores.length;
}

/** Queues a sync of every platform store, then the next round. */
export async function syncAllStores(services: DomainServices, schedule: StoreSyncSchedule): Promise<number> {
  return queueSyncRound(services, await platformStores(services.db), SYNC_ALL_STORES_JOB, schedule.syncIntervalMs);
}

/**
 * Queues, for every platform store, a re-read of the orders updated in the reconciliation window,
 * whatever the store's cursor says: an order whose webhook never came, and that no sync read
 * because its update was older than the cursor when it became visible, is caught here. Imports are
 * idempotent, so what is already current changes nothing. Then queues the next round.
 */
export async function reconcileAllStores(services: DomainServices, schedule: StoreSyncSchedule): Promise<number> {
  const now = services.clock.now().getTime();
  const since = new Date(now - schedule.reconcileWindowMs).toISOString();
  const stores = await platformStores(services.db);
  for (const store of stores) {
    await services.jobs.enqueue(SYNC_ORDER_STORE_JOB, { storeId: store.id, since } satisfies SyncOrderStorePayload, {
      maxAttempts: 3,
    });
  }
  await queueNextRound(services, RECONCILE_STORES_JOB, new Date(now + HOUR_MS));
  return stores.length;
}

/**
 * Queues a sync, from the store's cursor (the newest change a sync imported, WooCommerce's
 * `modified_after`), of every store whose platform does not retry failed webhook deliveries and
 * that has taken at least one delivery; a store without webhooks waits for the sync round. A sync
 * already waiting is not queued twice. Then queues the next round. Answers how many stores it read.
 */
export async function reconcileWebhookStores(services: DomainServices, schedule: StoreSyncSchedule): Promise<number> {
  const unretried = (await platformStores(services.db)).filter(
    (store) => services.storeConnectors.platform(store.service_type)?.webhooksUnretried === true,
  );
  const withDeliveries =
    unretried.length === 0
      ? []
      : await services.db
          .selectFrom("store_webhook_deliveries")
          .select("order_store_id")
          .distinct()
          .where(
            "order_store_id",
            "in",
            unretried.map((store) => store.id),
          )
          .execute();
  const hooked = new Set(withDeliveries.map((row) => row.order_store_id));
  return queueSyncRound(
    services,
    unretried.filter((store) => hooked.has(store.id)),
    RECONCILE_WEBHOOK_STORES_JOB,
    schedule.webhookReconcileIntervalMs,
  );
}
