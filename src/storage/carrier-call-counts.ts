import { type Kysely, sql } from "kysely";
import type { DialectName } from "./db.js";
import type { Database } from "./schema.js";

const MINUTE_MS = 60_000;
/**
 * Minute buckets a call counts in: its own and the 60 after it, so a call leaves the budget
 * between 60 and 61 minutes after it was made, never before its hour is over.
 */
const WINDOW_MINUTES = 61;
/** How long the pruning job keeps counts: well past the window. */
export const CALL_COUNT_RETENTION_MS = 2 * 60 * MINUTE_MS;

/**
 * Hourly carrier call budgets counted on the database, so that every Porter process on it spends
 * one allowance. Each call is one increment of its minute's row; a call past the limit is taken
 * back in the same transaction, so the count never shows it.
 */
export class DatabaseCallCounter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async take(
    budget: string,
    purpose: string,
    limit: number,
    now: Date,
  ): Promise<{ callsLastHour: number; refusedUntil?: Date }> {
    const minute = Math.floor(now.getTime() / MINUTE_MS);
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === "postgres") {
        // Two processes counting the same budget wait for each other, even when their calls fall
        // in different minutes (rows the other would not lock).
        await sql`select pg_advisory_xact_lock(hashtext(${`carrier_call_counts:${budget}:${purpose}`}))`.execute(trx);
      }
      // The increment comes first: on SQLite it takes the write lock, so the sum below is this
      // database's only one until the transaction ends.
      await trx
        .insertInto("carrier_call_counts")
        .values({ budget, purpose, minute, calls: 1 })
        .onConflict((oc) =>
          oc.columns(["budget", "purpose", "minute"]).doUpdateSet({ calls: sql`carrier_call_counts.calls + 1` }),
        )
        .execute();
      const rows = await trx
        .selectFrom("carrier_call_counts")
        .select(["minute", "calls"])
        .where("budget", "=", budget)
        .where("purpose", "=", purpose)
        .where("minute", ">", minute - WINDOW_MINUTES)
        .where("calls", ">", 0)
        .orderBy("minute")
        .execute();
      const counted = rows.reduce((sum, row) => sum + Number(row.calls), 0);
      if (counted <= limit) return { callsLastHour: counted };
      await trx
        .updateTable("carrier_call_counts")
        .set({ calls: sql`calls - 1` })
        .where("budget", "=", budget)
        .where("purpose", "=", purpose)
        .where("minute", "=", minute)
        .execute();
      const oldest = Number(rows[0]?.minute ?? minute);
      return { callsLastHour: counted - 1, refusedUntil: new Date((oldest + WINDOW_MINUTES) * MINUTE_MS) };
    });
  }
}

/** Deletes up to `limit` counts older than `before` (ISO time); says how many it deleted. */
export async function pruneCallCounts(db: Kysely<Database>, before: string, limit: number): Promise<number> {
  const minute = Math.floor(new Date(before).getTime() / MINUTE_MS);
  const picked = await db
    .selectFrom("carrier_call_counts")
    .select(["budget", "purpose", "minute"])
    .where("minute", "<", minute)
    .orderBy("minute")
    .limit(limit)
    .execute();
  if (picked.length === 0) return 0;
  await db
    .deleteFrom("carrier_call_counts")
    .where((eb) =>
      eb(
        eb.refTuple("budget", "purpose", "minute"),
        "in",
        picked.map((row) => eb.tuple(row.budget, row.purpose, row.minute)),
      ),
    )
    .execute();
  return picked.length;
}
