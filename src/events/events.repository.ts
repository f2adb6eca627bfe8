import type { Kysely, Selectable } from "kysely";
import type { KeyMode } from "../domain/accounts/api-keys.js";
import { ownedBy } from "../storage/owned-by.js";
import type { Database, EventTable } from "../storage/schema.js";
import type { EventStream } from "./outbox.js";

export type EventRow = Selectable<EventTable>;

/** One account's stream in one mode. */
export interface StreamRef {
  accountId: number;
  mode: KeyMode;
  stream: EventStream;
}

/** Events after `afterId`, oldest first. */
export async function readEventsAfter(
  db: Kysely<Database>,
  ref: StreamRef,
  afterId: number,
  limit: number,
  throughId?: number,
): Promise<EventRow[]> {
  let query = db
    .selectFrom("events")
    .selectAll()
    .where("account_id", "=", ref.accountId)
    .where("mode", "=", ref.mode)
    .where("stream", "=", ref.stream)
    .where("id", ">", afterId);
  if (throughId !== undefined) query = query.where("id", "<=", throughId);
  return query.orderBy("id").limit(limit).execute();
}

/** The pull API's page: every stream of the account and mode, or one. */
export async function readAccountEvents(
  db: Kysely<Database>,
  scope: { accountId: number; mode: KeyMode },
  afterId: number,
  limit: number,
  stream?: EventStream,
): Promise<EventRow[]> {
  let query = db.selectFrom("events").selectAll().where(ownedBy(scope)).where("id", ">", afterId);
  if (stream) query = query.where("stream", "=", stream);
  return query.orderBy("id").limit(limit).execute();
}

/** The id of the stream's newest event (0 when it has none). */
export async function streamHead(db: Kysely<Database>, ref: StreamRef): Promise<number> {
  const row = await db
    .selectFrom("event_streams")
    .select("last_event_id")
    .where("account_id", "=", ref.accountId)
    .where("mode", "=", ref.mode)
    .where("stream", "=", ref.stream)
    .executeTakeFirst();
  return row?.last_event_id ?? 0;
}

/** The id just before the stream's first event created at or after `since` (the head when none was). */
export async function positionBefore(db: Kysely<Database>, ref: StreamRef, since: string): Promise<number> {
  const first = await db
    .selectFrom("events")
    .select("id")
    .where("account_id", "=", ref.accountId)
    .where("mode", "=", ref.mode)
    .where("stream", "=", ref.stream)
    .where("created_at", ">=", since)
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return first ? first.id - 1 : streamHead(db, ref);
}
