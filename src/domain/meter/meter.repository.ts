import type { Kysely } from "kysely";
import { ownedBy } from "../../storage/owned-by.js";
import type { Database } from "../../storage/schema.js";
import type { AccountScope } from "../services.js";

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
 * The balance is derived from the append-only ledger, one indexed range per account and mode (a
 * test meter's opening credit is the rule above, not a ledger entry).
 */
export async function meterTotals(db: Kysely<Database>, scope: AccountScope): Promise<MeterTotals> {
  const rows = await db
    .selectFrom("meter_entries")
    .select((eb) => [
      "status",
      eb.fn.coalesce(eb.fn.sum<number>("amount_cents"), eb.lit(0)).as("cents"),
      eb.fn.countAll<number>().as("entries"),
    ])
    .where(ownedBy(scope))
    .groupBy("status")
    .execute();
  const posted = rows.find((row) => row.status === "posted");
  const held = rows.find((row) => row.status === "held");
  return {
    balanceCents: Number(posted?.cents ?? 0) + (scope.mode === "test" ? SANDBOX_OPENING_CREDIT_CENTS : 0),
    pendingRefundCents: Number(held?.cents ?? 0),
    pendingRefundCount: Number(held?.entries ?? 0),
  };
}
