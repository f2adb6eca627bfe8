import type { Kysely } from "kysely";
import { type Clock, systemClock } from "../clock.js";
import type { KeyMode } from "../domain/accounts/api-keys.js";
import type { Database } from "../storage/schema.js";

export type EventStream = "shipment_tracking" | "payment_status";
export const EVENT_STREAMS: readonly EventStream[] = ["shipment_tracking", "payment_status"];

/** Rows per INSERT: six parameters each stays far below SQLite's and PostgreSQL's parameter limits. */
const ROWS_PER_INSERT = 500;

export interface OutboxEvent {
  accountId: number;
  mode: KeyMode;
  stream: EventStream;
  /** One item of the eHub webhook `payload` array, JSON-serialisable. */
  payload: Record<string, unknown>;
  /** When it happened (ISO 8601 UTC). */
  occurredAt: string;
}

/**
 * Appends events to the stream; call with the transaction of the change that caused them, so an
 * event exists exactly when the change does. Each affected stream's head row is locked first:
 * on PostgreSQL ids would otherwise be taken before commit and could become visible out of
 * order, and a subscription whose cursor passed a later id would skip the earlier one for good.
 * Call it last in the transaction, so the lock is held briefly.
 */
export async function appendEvents(
  db: Kysely<Database>,
  events: readonly OutboxEvent[],
  clock: Clock = systemClock,
): Promise<void> {
  if (events.length === 0) return;
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => appendEvents(trx, events, clock));
    return;
  }
  const createdAt = clock.now().toISOString();
  const heads = new Map<string, { account_id: number; mode: KeyMode; stream: EventStream }>();
  for (const event of events) {
    heads.set(`${event.accountId}/${event.mode}/${event.stream}`, {
      account_id: event.accountId,
      mode: event.mode,
      stream: event.stream,
    });
  }
  // Always locked in one order, so two appenders never wait on each other's heads.
  const ordered = [...heads.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, head]) => head);
  for (const head of ordered) {
    await db
      .insertInto("event_streams")
      .values({ ...head, last_event_id: 0 })
      .onConflict((oc) =>
        oc
          .columns(["account_id", "mode", "stream"])
          .doUpdateSet((eb) => ({ last_event_id: eb.ref("event_streams.last_event_id") })),
      )
      .execute();
  }
  const inserted: { id: number; account_id: number; mode: string; stream: string }[] = [];
  for (let start = 0; start < events.length; start += ROWS_PER_INSERT) {
    const rows = await db
      .insertInto("events")
      .values(
        events.slice(start, start + ROWS_PER_INSERT).map((event) => ({
          account_id: event.accountId,
          mode: event.mode,
          stream: event.stream,
          payload: JSON.stringify(event.payload),
          occurred_at: event.occurredAt,
          created_at: createdAt,
        })),
      )
      .returning(["id", "account_id", "mode", "stream"])
      .execute();
    inserted.push(...rows);
  }
  const lastIds = new Map<string, number>();
  for (const row of inserted) {
    const key = `${row.account_id}/${row.mode}/${row.stream}`;
    lastIds.set(key, Math.max(lastIds.get(key) ?? 0, row.id));
  }
  for (const [key, head] of heads) {
    await db
      .updateTable("event_streams")
      .set({ last_event_id: lastIds.get(key) ?? 0 })
      .where("account_id", "=", head.account_id)
      .where("mode", "=", head.mode)
      .where("stream", "=", head.stream)
      .execute();
  }
}
