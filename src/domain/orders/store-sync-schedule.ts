import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema.js";
import type { DomainServices } from "../services.js";
import { queueOrderStoreSync, SYNC_ORDER_STORE_JOB, type SyncOrderStorePayload } from "./sync-order-store.js";

/** Every platform store's import of new and changed orders, on the sync interval. */
export const SYNC_ALL_STORES_JOB = "order_stores.sync_all";
/** Every platform store's re-read of a recent window, hourly: platforms do not promise every webhook arrives. */
export const RECONCILE_STORES_JOB = "order_stores.reconcile_all";

const HOUR_MS = 3_600_000;

export interface StoreSyncSchedule {
  syncIntervalMs: number;
  reconcileWindowMs: number;
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
}

/** Queues a sync of every platform store, then the next round. */
export async function syncAllStores(services: DomainServices, schedule: StoreSyncSchedule): Promise<number> {
  const stores = await platformStores(services.db);
  for (const store of stores) await queueOrderStoreSync(services, store);
  await queueNextRound(
    services,
    SYNC_ALL_STORES_JOB,
    new Date(services.clock.now().getTime() + schedule.syncIntervalMs),
  );
  return stores.length;
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
