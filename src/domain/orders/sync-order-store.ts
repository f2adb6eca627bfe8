import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema.js";
import { type ImportedOrder, StoreConnectorError } from "../../stores/store-connector.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";
import { importOrders } from "./import-orders.js";
import { getOrderStore } from "./order-stores.js";
import type { OrderStoreRow } from "./order-stores.repository.js";
import { describePlatformFailure, openConnector, platformOf } from "./store-connection.js";

export const SYNC_ORDER_STORE_JOB = "order_store.sync";

export interface SyncOrderStorePayload {
  storeId: number;
  /** Read orders updated since this instant instead of since the store's cursor (a reconciliation). */
  since?: string | null;
}

export interface SyncOptions {
  /** Orders asked for per page. */
  pageSize?: number;
}

/** A page is retried this many times when the database refuses it (an order a webhook inserted meanwhile). */
const PAGE_ATTEMPTS = 3;

function newestUpdate(orders: readonly ImportedOrder[], held: string | null): string | null {
  let newest = held;
  for (const order of orders) {
    const at = new Date(order.updatedAt).toISOString();
    if (newest === null || at > newest) newest = at;
  }
  return newest;
}

async function setSyncState(db: Kysely<Database>, storeId: number, state: Partial<OrderStoreRow>): Promise<void> {
  await db.updateTable("order_stores").set(state).where("id", "=", storeId).execute();
}

/** One page in one transaction: the orders and the cursor move together, so a failure loses nothing already imported. */
async function importPage(services: DomainServices, storeId: number, orders: readonly ImportedOrder[]): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await services.db.transaction().execute(async (trx) => {
        await importOrders(trx, { id: storeId }, orders, services.clock.now().toISOString());
        const store = await trx
          .selectFrom("order_stores")
          .select("sync_cursor")
          .where("id", "=", storeId)
          .executeTakeFirstOrThrow();
        await setSyncState(trx, storeId, { sync_cursor: newestUpdate(orders, store.sync_cursor) });
      });
      return;
    } catch (error) {
      if (error instanceof DomainError || attempt >= PAGE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Imports a platform store's new and changed orders, page by page, oldest update first. Each page
 * is committed with the store's cursor (the newest update imported), so a sync that fails part way
 * keeps what it imported and the next one resumes there. Imports are idempotent (see importOrders):
 * running a sync twice, or beside webhooks, creates no duplicates and never rolls an order back.
 * The outcome is the store's sync state: `succeeded` with `last_synced_at`, or `failed` with the
 * platform's words in `sync_error`. Answers the state it left.
 */
export async function syncOrderStore(
  services: DomainServices,
  payload: SyncOrderStorePayload,
  options: SyncOptions = {},
): Promise<OrderStoreRow | undefined> {
  const store = await services.db
    .selectFrom("order_stores")
    .selectAll()
    .where("id", "=", payload.storeId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!store) return undefined;
  const platform = platformOf(services, store);
  if (!platform) return store;
  const startedAt = services.clock.now().toISOString();
  await setSyncState(services.db, store.id, { sync_status: "running" });
  try {
    const connector = openConnector(services, store, platform);
    const updatedSince = payload.since !== undefined ? payload.since : store.sync_cursor;
    let cursor: string | null = null;
    do {
      const page = await connector.fetchOrders({ updatedSince, cursor, pageSize: options.pageSize });
      if (page.nextCursor !== null && page.nextCursor === cursor) {
        throw new StoreConnectorError("invalid_response", "the platform answered the same page twice");
      }
      await importPage(services, store.id, page.orders);
      cursor = page.nextCursor;
    } while (cursor !== null);
    await setSyncState(services.db, store.id, {
      sync_status: "succeeded",
      sync_error: null,
      last_synced_at: startedAt,
    });
  } catch (error) {
    const known = error instanceof StoreConnectorError || error instanceof DomainError;
    const message =
      error instanceof StoreConnectorError
        ? describePlatformFailure(error)
        : known
          ? (error as Error).message
          : "Porter failed while importing; the log has the details";
    await setSyncState(services.db, store.id, { sync_status: "failed", sync_error: message });
    if (!known) throw error;
  }
  return services.db.selectFrom("order_stores").selectAll().where("id", "=", store.id).executeTakeFirst();
}

/** A sync of the store waiting in the queue (or running), so a second request does not queue another. */
async function queuedSync(db: Kysely<Database>, storeId: number): Promise<boolean> {
  const row = await db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", SYNC_ORDER_STORE_JOB)
    .where("payload", "=", JSON.stringify({ storeId } satisfies SyncOrderStorePayload))
    .where("state", "in", ["queued", "running"])
    .executeTakeFirst();
  return row !== undefined;
}

/** Queues an import of the store's new and changed orders unless one is already waiting. */
export async function queueOrderStoreSync(services: DomainServices, store: OrderStoreRow): Promise<OrderStoreRow> {
  if (await queuedSync(services.db, store.id)) return store;
  return services.db.transaction().execute(async (trx) => {
    await services.jobs.enqueue(SYNC_ORDER_STORE_JOB, { storeId: store.id } satisfies SyncOrderStorePayload, {
      maxAttempts: 3,
      executor: trx,
    });
    return trx
      .updateTable("order_stores")
      .set({ sync_status: store.sync_status === "running" ? "running" : "queued" })
      .where("id", "=", store.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** On demand: a platform store's sync is queued; a custom store has nothing to sync from. */
export async function requestOrderStoreSync(
  services: DomainServices,
  scope: AccountScope,
  storeId: number,
): Promise<OrderStoreRow> {
  const store = await getOrderStore(services, scope, storeId);
  if (!platformOf(services, store)) {
    throw new DomainError(
      "order_store.no_connector",
      store.service_type === "custom"
        ? `Store ${store.id} is a custom store: its orders come through the API, there is no platform to sync from.`
        : `Porter cannot connect to ${store.service_type} stores yet.`,
    );
  }
  return queueOrderStoreSync(services, store);
}
