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

/** The balance is derived from the append-only ledger, one indexed range per account and mode. */
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
    balanceCents: Number(posted?.cents ?? 0),
    pendingRefundCents: Number(held?.cents ?? 0),
    pendingRefundCount: Number(held?.entries ?? 0),
  };
}
