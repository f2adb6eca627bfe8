import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database } from "../../storage/schema.js";
import type { AccountScope } from "../services.js";

/** Whose key it is: an account and mode (the request's scope) and the user whose API key sent it. */
export interface IdempotencyScope extends AccountScope {
  userId: number;
}

export interface StoredResponse {
  status: number;
  body: string;
}

/** This run's hold on a key: `requestId` stays the same for every run of one request. */
export interface Hold {
  requestId: string;
  attempt: string;
}

export type Reservation =
  | { outcome: "reserved"; hold: Hold }
  | { outcome: "replay"; response: StoredResponse }
  | { outcome: "in_progress" }
  | { outcome: "key_reused" };

export interface ReserveOptions {
  now: Date;
  ttlMs: number;
  /** The process asking; it renews the lease of every key it holds (`renewIdempotencyLeases`). */
  holder: string;
  leaseMs: number;
  /** A run started before this is taken over even if its holder still renews its lease. */
  staleBefore: Date;
}

/** What twins of a request wait on: signalled when the key's run stores its answer or frees the key. */
export const idempotencyTopic = (scope: IdempotencyScope, key: string): string =>
  `idempotency:${scope.accountId}:${scope.mode}:${scope.userId}:${key}`;

const byKey = (db: Kysely<Database>, scope: IdempotencyScope, key: string) =>
  db
    .selectFrom("idempotency_keys")
    .selectAll()
    .where(ownedBy(scope))
    .where("user_id", "=", scope.userId)
    .where("idempotency_key", "=", key);

/**
 * Claims an idempotency key for one request. The insert is the lock: of two concurrent requests
 * with the same key exactly one inserts, the other reads what the first left. A run whose holder
 * stopped renewing its lease (a dead process) is taken over by the same request, keeping its
 * request id so the new run can find what the dead one started.
 */
export async function reserveIdempotencyKey(
  db: Kysely<Database>,
  scope: IdempotencyScope,
  key: string,
  requestHash: string,
  options: ReserveOptions,
): Promise<Reservation> {
  const { now, holder } = options;
  const stamp = now.toISOString();
  const hold = { requestId: randomUUID(), attempt: randomUUID() };
  const run = {
    state: "in_progress" as const,
    holder,
    attempt: hold.attempt,
    lease_until: new Date(now.getTime() + options.leaseMs).toISOString(),
    response_status: null,
    response_body: null,
    created_at: stamp,
    expires_at: new Date(now.getTime() + options.ttlMs).toISOString(),
  };
  const inserted = await db
    .insertInto("idempotency_keys")
    .values({
      account_id: scope.accountId,
      mode: scope.mode,
      user_id: scope.userId,
      idempotency_key: key,
      request_hash: requestHash,
      request_id: hold.requestId,
      ...run,
    })
    .onConflict((oc) => oc.columns(["account_id", "mode", "user_id", "idempotency_key"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { outcome: "reserved", hold };

  const existing = await byKey(db, scope, key).executeTakeFirst();
  const expired = !existing || existing.expires_at <= stamp;
  if (!expired && existing.request_hash !== requestHash) return { outcome: "key_reused" };
  const holderGone =
    existing?.state === "in_progress" &&
    (existing.lease_until <= stamp || existing.created_at <= options.staleBefore.toISOString());
  if (expired || holderGone) {
    // An expired key starts a new request; a dead holder's request goes on under its request id.
    const requestId = expired ? hold.requestId : existing.request_id;
    // Take over only if nobody else did in between: the run must still be the one we read.
    const taken = await db
      .updateTable("idempotency_keys")
      .set({ ...run, request_hash: requestHash, request_id: requestId })
      .where(ownedBy(scope))
      .where("user_id", "=", scope.userId)
      .where("idempotency_key", "=", key)
      .where("attempt", "=", existing?.attempt ?? "")
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1
      ? { outcome: "reserved", hold: { requestId, attempt: hold.attempt } }
      : { outcome: "in_progress" };
  }
  if (existing.state === "in_progress") return { outcome: "in_progress" };
  return {
    outcome: "replay",
    response: { status: existing.response_status ?? 200, body: existing.response_body ?? "" },
  };
}

/** The holder is alive: every key it still works on stays its own for another lease. */
export async function renewIdempotencyLeases(
  db: Kysely<Database>,
  holder: string,
  attempts: readonly string[],
  leaseUntil: Date,
): Promise<void> {
  if (attempts.length === 0) return;
  await db
    .updateTable("idempotency_keys")
    .set({ lease_until: leaseUntil.toISOString() })
    .where("holder", "=", holder)
    .where("attempt", "in", attempts)
    .where("state", "=", "in_progress")
    .execute();
}

/**
 * Stores the answer, replayed until `expiresAt` (then pruned), unless another run took the key
 * over meanwhile (then its answer counts).
 */
export async function completeIdempotencyKey(
  db: Kysely<Database>,
  scope: IdempotencyScope,
  key: string,
  attempt: string,
  response: StoredResponse,
  expiresAt: Date,
): Promise<void> {
  await db
    .updateTable("idempotency_keys")
    .set({
      state: "done",
      holder: null,
      response_status: response.status,
      response_body: response.body,
      expires_at: expiresAt.toISOString(),
    })
    .where(ownedBy(scope))
    .where("user_id", "=", scope.userId)
    .where("idempotency_key", "=", key)
    .where("attempt", "=", attempt)
    .execute();
}

/** A failed request frees its key, so the client may retry it. */
export async function releaseIdempotencyKey(
  db: Kysely<Database>,
  scope: IdempotencyScope,
  key: string,
  attempt: string,
): Promise<void> {
  await db
    .deleteFrom("idempotency_keys")
    .where(ownedBy(scope))
    .where("user_id", "=", scope.userId)
    .where("idempotency_key", "=", key)
    .where("attempt", "=", attempt)
    .execute();
}
