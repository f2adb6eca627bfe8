import type { Insertable, Kysely, Selectable, Transaction } from "kysely";
import type { Database, MeterEntryTable } from "../../storage/schema.js";
import type { AccountScope } from "../services.js";

export type MeterEntryRow = Selectable<MeterEntryTable>;

export interface MeterTotals {
  /** Sum of posted entries: what the account may spend. */
  balanceCents: number;
  /** Refunds on the ledger still held (USPS holds voided postage for 30 days). */
  pendingRefundCents: number;
  pendingRefundCount: number;
}

/**
 * Play money every test-mode meter opens with (the demo account's, every account's and child's),
 * so test labels, charged at their price like production ones, can be bought at once and a 402 or
 * an automatic refill can be tried with the sandbox's test cards. Production meters open at zero.
 */
export const SANDBOX_OPENING_CREDIT_CENTS = 100_000;

/**
 * The meter as its balance row keeps it: one read by primary key, whatever the ledger's length (a
 * test meter's opening credit is the rule above, not a ledger entry nor part of the row).
 */
export async function meterTotals(db: Kysely<Database>, scope: AccountScope): Promise<MeterTotals> {
  const row = await db
    .selectFrom("meter_balances")
    .select(["posted_cents", "held_cents", "held_count"])
    .where("account_id", "=", scope.accountId)
    .where("mode", "=", scope.mode)
    .executeTakeFirst();
  return {
    balanceCents: (row?.posted_cents ?? 0) + (scope.mode === "test" ? SANDBOX_OPENING_CREDIT_CENTS : 0),
    pendingRefundCents: row?.held_cents ?? 0,
    pendingRefundCount: row?.held_count ?? 0,
  };
}

/**
 * Every entry goes on the ledger through here: the entry and its effect on the meter's balance row
 * are written in one transaction (the caller's, or one of its own), so the row always equals the
 * ledger's sums. The ledger stays append-only and the source of truth.
 */
export async function appendMeterEntry(db: Kysely<Database>, row: Insertable<MeterEntryTable>): Promise<MeterEntryRow> {
  if (!db.isTransaction) return db.transaction().execute((trx) => appendMeterEntry(trx, row));
  const entry = await db.insertInto("meter_entries").values(row).returningAll().executeTakeFirstOrThrow();
  if (entry.status === "posted") await moveBalance(db, entry, { posted: entry.amount_cents, held: 0, heldCount: 0 });
  if (entry.status === "held") await moveBalance(db, entry, { posted: 0, held: entry.amount_cents, heldCount: 1 });
  return entry;
}

/**
 * A posted debit (`entry.amount_cents` below zero) taken only if the meter covers it, in one
 * conditional update of the balance row: parallel debits wait on the row's lock and each sees the
 * balance the one before it left, so none overdraws. With `aboveRefillTrigger`, it is taken only
 * if the balance stays at or above the account's automatic refill trigger as well (no refill is
 * due). Undefined, and nothing written, when the balance does not allow it.
 */
export async function takeFromMeter(
  trx: Transaction<Database>,
  entry: Insertable<MeterEntryTable> & { amount_cents: number },
  options: { aboveRefillTrigger: boolean },
): Promise<MeterEntryRow | undefined> {
  const opening = entry.mode === "test" ? SANDBOX_OPENING_CREDIT_CENTS : 0;
  const take = () =>
    trx
      .updateTable("meter_balances")
      .set((eb) => ({ posted_cents: eb("posted_cents", "+", entry.amount_cents) }))
      .where("account_id", "=", entry.account_id)
      .where("mode", "=", entry.mode)
      .where((eb) => eb(eb("posted_cents", "+", opening + entry.amount_cents), ">=", 0))
      .$if(options.aboveRefillTrigger, (update) =>
        update.where((eb) =>
          eb(
            eb("posted_cents", "+", opening + entry.amount_cents),
            ">=",
            eb.fn.coalesce(
              eb
                .selectFrom("accounts")
                .select("refill_trigger_cents")
                .where("id", "=", entry.account_id)
                .where("refill_amount_cents", "is not", null),
              eb.lit(0),
            ),
          ),
        ),
      )
      .returning("posted_cents")
      .executeTakeFirst();
  let taken = await take();
  if (!taken) {
    // A meter's row is made by its first entry: one that has none yet gets it empty, then pays.
    await trx
      .insertInto("meter_balances")
      .values({ account_id: entry.account_id, mode: entry.mode, posted_cents: 0, held_cents: 0, held_count: 0 })
      .onConflict((conflict) => conflict.columns(["account_id", "mode"]).doNothing())
      .execute();
    taken = await take();
  }
  if (!taken) return undefined;
  return trx.insertInto("meter_entries").values(entry).returningAll().executeTakeFirstOrThrow();
}

/** A held entry (a refund USPS held) posted once its hold is over; undefined when it was not held. */
export async function postHeldEntry(db: Kysely<Database>, entryId: number): Promise<MeterEntryRow | undefined> {
  if (!db.isTransaction) return db.transaction().execute((trx) => postHeldEntry(trx, entryId));
  const entry = await db
    .updateTable("meter_entries")
    .set({ status: "posted" })
    .where("id", "=", entryId)
    .where("status", "=", "held")
    .returningAll()
    .executeTakeFirst();
  if (entry) await moveBalance(db, entry, { posted: entry.amount_cents, held: -entry.amount_cents, heldCount: -1 });
  return entry;
}

/**
 * Adds to the meter's balance row in one statement, creating it on first use: parallel writers
 * each add their own amounts (the row's lock orders them), so none is lost.
 */
async function moveBalance(
  db: Kysely<Database>,
  meter: Pick<MeterEntryRow, "account_id" | "mode">,
  move: { posted: number; held: number; heldCount: number },
): Promise<void> {
  await db
    .insertInto("meter_balances")
    .values({
      account_id: meter.account_id,
      mode: meter.mode,
      posted_cents: move.posted,
      held_cents: move.held,
      held_count: move.heldCount,
    })
    .onConflict((conflict) =>
      conflict.columns(["account_id", "mode"]).doUpdateSet((eb) => ({
        posted_cents: eb("meter_balances.posted_cents", "+", eb.ref("excluded.posted_cents")),
        held_cents: eb("meter_balances.held_cents", "+", eb.ref("excluded.held_cents")),
        held_count: eb("meter_balances.held_count", "+", eb.ref("excluded.held_count")),
      })),
    )
    .execute();
}
