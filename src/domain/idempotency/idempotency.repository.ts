import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema.js";
import type { AccountScope } from "../services.js";

export interface StoredResponse {
  status: number;
  body: string;
}

export type Reservation =
  | { outcome: "reserved" }
  | { outcome: "replay"; response: StoredResponse }
  | { outcome: "in_progress" }
  | { outcome: "key_reused" };

const keyOf = (scope: AccountScope, key: string) => ({
  account_id: scope.accountId,
  mode: scope.mode,
  idempotency_key: key,
});

/**
 * Claims an idempotency key for one request. The insert is the lock: of two concurrent requests
 * with the same key exactly one inserts, the other reads what the first left. A reservation whose
 * request died (crash, dropped connection) is taken over once `staleBefore` has passed.
 */
export async function reserveIdempotencyKey(
  db: Kysely<Database>,
  scope: AccountScope,
  key: string,
  requestHash: string,
  now: Date,
  ttlMs: number,
  staleBefore: Date,
): Promise<Reservation> {
  const where = keyOf(scope, key);
  const fresh = {
    ...where,
    request_hash: requestHash,
    state: "in_progress" as const,
    response_status: null,
    response_body: null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlMs).toISOString(),
  };
  const inserted = await db
    .insertInto("idempotency_keys")
    .values(fresh)
    .onConflict((oc) => oc.columns(["account_id", "mode", "idempotency_key"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { outcome: "reserved" };

  const existing = await db
    .selectFrom("idempotency_keys")
    .selectAll()
    .where("account_id", "=", where.account_id)
    .where("mode", "=", where.mode)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  const expired = !existing || existing.expires_at <= now.toISOString();
  const abandoned = existing?.state === "in_progress" && existing.created_at <= staleBefore.toISOString();
  if (expired || abandoned) {
    // Take over only if nobody else did in between: the row must still be the one we read.
    const taken = await db
      .updateTable("idempotency_keys")
      .set(fresh)
      .where("account_id", "=", where.account_id)
      .where("mode", "=", where.mode)
      .where("idempotency_key", "=", key)
      .where("created_at", "=", existing?.created_at ?? "")
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1 ? { outcome: "reserved" } : { outcome: "in_progress" };
  }
  if (existing.request_hash !== requestHash) return { outcome: "key_reused" };
  if (existing.state === "in_progress") return { outcome: "in_progress" };
  return {
    outcome: "replay",
    response: { status: existing.response_status ?? 200, body: existing.response_body ?? "" },
  };
}

export async function completeIdempotencyKey(
  db: Kysely<Database>,
  scope: AccountScope,
  key: string,
  response: StoredResponse,
): Promise<void> {
  const where = keyOf(scope, key);
  await db
    .updateTable("idempotency_keys")
    .set({ state: "done", response_status: response.status, response_body: response.body })
    .where("account_id", "=", where.account_id)
    .where("mode", "=", where.mode)
    .where("idempotency_key", "=", key)
    .execute();
}

/** A failed request frees its key, so the client may retry it. */
export async function releaseIdempotencyKey(db: Kysely<Database>, scope: AccountScope, key: string): Promise<void> {
  const where = keyOf(scope, key);
  await db
    .deleteFrom("idempotency_keys")
    .where("account_id", "=", where.account_id)
    .where("mode", "=", where.mode)
    .where("idempotency_key", "=", key)
    .execute();
}
