import type { Kysely } from "kysely";
import { CALL_COUNT_RETENTION_MS, pruneCallCounts } from "../../storage/carrier-call-counts.js";
import type { Database } from "../../storage/schema.js";
import { pruneEndedSessions, pruneExpiredSignInLinks } from "../accounts/dashboard-sessions.js";
import type { DomainServices } from "../services.js";

export const PRUNE_JOB = "data.prune";

/** How long each kind of passing record is kept, and how the pruning job paces itself. */
export interface RetentionPolicy {
  jobRetentionMs: number;
  eventRetentionMs: number;
  webhookDeliveryRetentionMs: number;
  pruneIntervalMs: number;
  pruneBatchSize: number;
}

/** Rows deleted by one pruning run, by table. */
export interface PruneCounts {
  idempotency_keys: number;
  jobs: number;
  events: number;
  webhook_deliveries: number;
  carrier_call_counts: number;
  dashboard_sessions: number;
  sign_in_links: number;
}

/**
 * Batches one run deletes per table at most; what is left waits for the next run, so a backlog
 * (the first run on an old database) is worked off over several runs rather than in one long one.
 */
const MAX_BATCHES_PER_RUN = 200;

/** A pruning run that keeps failing is retried for a day or so before it counts as failed for good. */
const PRUNE_ATTEMPTS = 20;

/** Lets other work (a purchase's queries) in between two batches. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes with `deleteBatch` (which deletes up to `batchSize` rows and says how many it did) until
 * a batch comes back short. Each batch is its own short statement: no long transaction holds locks
 * a purchase needs, and PostgreSQL locks only the rows being deleted.
 */
async function inBatches(batchSize: number, deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch += 1) {
    const deleted = await deleteBatch(batchSize);
    total += deleted;
    if (deleted < batchSize) break;
    await pause();
  }
  return total;
}

/** Answers of idempotent requests past their expiry, and runs abandoned by a dead process long ago. */
async function pruneIdempotencyKeys(db: Kysely<Database>, now: string, limit: number): Promise<number> {
  const rows = await db
    .selectFrom("idempotency_keys")
    .select(["account_id", "mode", "user_id", "idempotency_key"])
    .where("expires_at", "<=", now)
    .where((eb) => eb.or([eb("state", "=", "done"), eb("lease_until", "<=", now)]))
    .orderBy("expires_at")
    .limit(limit)
    .execute();
  if (rows.length === 0) return 0;
  await db
    .deleteFrom("idempotency_keys")
    .where((eb) =>
      eb(
        eb.refTuple("account_id", "mode", "user_id", "idempotency_key"),
        "in",
        rows.map((row) => eb.tuple(row.account_id, row.mode, row.user_id, row.idempotency_key)),
      ),
    )
    // A key taken again meanwhile (a new request after expiry) has a later expiry: it stays.
    .where("expires_at", "<=", now)
    .execute();
  return rows.length;
}

/**
 * Deletes the rows a batch picked (a finished row never changes back, so picking and deleting need
 * no transaction); says how many were picked, so the caller knows whether more may be left.
 */
async function deletePicked(
  db: Kysely<Database>,
  table: "jobs" | "events" | "webhook_deliveries",
  picked: Array<{ id: number }>,
): Promise<number> {
  if (picked.length > 0) {
    await db
      .deleteFrom(table)
      .where(
        "id",
        "in",
        picked.map((row) => row.id),
      )
      .execute();
  }
  return picked.length;
}

/** Jobs done, or failed for good (a money incident records those), before `before`. */
async function pruneJobs(db: Kysely<Database>, before: string, limit: number): Promise<number> {
  const picked = await db
    .selectFrom("jobs")
    .select("id")
    .where("state", "in", ["done", "failed"])
    .where("updated_at", "<", before)
    .orderBy("updated_at")
    .limit(limit)
    .execute();
  return deletePicked(db, "jobs", picked);
}

/**
 * Events created before `before` that no active subscription still has to deliver. A subscription
 * disabled after failing keeps nothing back: once it is older than the retention, it is gone.
 */
async function pruneEvents(db: Kysely<Database>, before: string, limit: number): Promise<number> {
  const picked = await db
    .selectFrom("events as e")
    .select("e.id")
    .where("e.created_at", "<", before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("webhook_subscriptions as s")
            .select("s.id")
            .whereRef("s.account_id", "=", "e.account_id")
            .whereRef("s.mode", "=", "e.mode")
            .whereRef("s.subscription_type", "=", "e.stream")
            .where("s.status", "=", "active")
            .where("s.deleted_at", "is", null)
            .whereRef("s.cursor_event_id", "<", "e.id"),
        ),
      ),
    )
    .orderBy("e.id")
    .limit(limit)
    .execute();
  return deletePicked(db, "events", picked);
}

/** Delivery records finished (succeeded or failed) before `before`; pending ones always stay. */
async function pruneWebhookDeliveries(db: Kysely<Database>, before: string, limit: number): Promise<number> {
  const picked = await db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("status", "in", ["succeeded", "failed"])
    .where("completed_at", "<", before)
    .orderBy("completed_at")
    .limit(limit)
    .execute();
  return deletePicked(db, "webhook_deliveries", picked);
}

/**
 * Deletes what is past its retention: expired idempotency answers, finished jobs, delivered
 * events, finished webhook deliveries, carrier call counts past their hour, and ended dashboard
 * sessions and expired sign-in links. Shipments,
 * labels, the meter's ledger, reports and tracking history are never pruned.
 */
export async function pruneExpiredData(services: DomainServices, policy: RetentionPolicy): Promise<PruneCounts> {
  const now = services.clock.now().getTime();
  const before = (ms: number) => new Date(now - ms).toISOString();
  const { db } = services;
  const size = policy.pruneBatchSize;
  return {
    idempotency_keys: await inBatches(size, (limit) => pruneIdempotencyKeys(db, new Date(now).toISOString(), limit)),
    jobs: await inBatches(size, (limit) => pruneJobs(db, before(policy.jobRetentionMs), limit)),
    events: await inBatches(size, (limit) => pruneEvents(db, before(policy.eventRetentionMs), limit)),
    webhook_deliveries: await inBatches(size, (limit) =>
      pruneWebhookDeliveries(db, before(policy.webhookDeliveryRetentionMs), limit),
    ),
    carrier_call_counts: await inBatches(size, (limit) => pruneCallCounts(db, before(CALL_COUNT_RETENTION_MS), limit)),
    dashboard_sessions: await inBatches(size, (limit) => pruneEndedSessions(db, new Date(now), limit)),
    sign_in_links: await inBatches(size, (limit) => pruneExpiredSignInLinks(db, new Date(now), limit)),
  };
}

/**
 * Keeps one pruning job queued: called when a worker starts; each run queues the next one
 * interval later. A run already waiting is left alone, so workers starting together do not
 * multiply the chain.
 */
export async function schedulePruning(services: DomainServices): Promise<void> {
  const waiting = await services.db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", PRUNE_JOB)
    .where("state", "in", ["queued", "running"])
    .executeTakeFirst();
  if (waiting) return;
  await services.jobs.enqueue(PRUNE_JOB, {}, { maxAttempts: PRUNE_ATTEMPTS });
}

/** The pruning job: prunes, then queues the next run. */
export async function runPruning(services: DomainServices, policy: RetentionPolicy): Promise<PruneCounts> {
  const counts = await pruneExpiredData(services, policy);
  await services.jobs.enqueue(
    PRUNE_JOB,
    {},
    { runAt: new Date(services.clock.now().getTime() + policy.pruneIntervalMs), maxAttempts: PRUNE_ATTEMPTS },
  );
  return counts;
}
