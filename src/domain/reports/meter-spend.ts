import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "../../storage/schema.js";
import type { AccountScope, DomainServices } from "../services.js";
import { type ReportRequest, type ReportScope, reportScope, type TimeWindow } from "./report-scope.js";

/** What labels cost in one UTC week (from Monday) with one carrier, net of refunds and adjustments. */
export interface WeeklySpend {
  /** The week's Monday, `YYYY-MM-DD` in UTC. */
  week: string;
  carrierCode: string;
  /** Positive when the meter paid out; a week whose refunds outweigh its labels is negative. */
  spentCents: number;
}

export interface MeterSpendRequest extends TimeWindow, ReportRequest {}

const DAY_MS = 86_400_000;

/** The Monday (UTC) of the week a `YYYY-MM-DD` day falls in. */
export function mondayOf(day: string): string {
  const time = Date.parse(`${day}T00:00:00.000Z`);
  const sinceMonday = (new Date(time).getUTCDay() + 6) % 7;
  return new Date(time - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The ledger summed by day and carrier in the database, over the same entries the meter
 * transaction report lists that belong to a shipment (refills have no carrier). `created_at` is
 * an ISO 8601 UTC text on both engines, so its first ten characters are the UTC day, and the same
 * portable `substr` groups them on SQLite and PostgreSQL. A year is at most 366 rows per carrier,
 * whatever the number of ledger rows.
 */
function spendByDay(db: Kysely<Database>, report: ReportScope, window: TimeWindow) {
  let query = db
    .selectFrom("meter_entries")
    .innerJoin("shipments", "shipments.id", "meter_entries.shipment_id")
    .where(
      "meter_entries.account_id",
      "in",
      report.accounts.map((a) => a.id),
    )
    .where("meter_entries.mode", "=", report.mode)
    .where("meter_entries.status", "!=", "rejected");
  if (window.from) query = query.where("meter_entries.created_at", ">=", window.from);
  if (window.to) query = query.where("meter_entries.created_at", "<=", window.to);
  const day = (eb: ExpressionBuilder<Database, "meter_entries" | "shipments">) =>
    eb.fn<string>("substr", ["meter_entries.created_at", eb.lit(1), eb.lit(10)]);
  return query
    .select((eb) => [
      day(eb).as("day"),
      "shipments.carrier_code as carrier_code",
      eb.fn.sum<number | string>("meter_entries.amount_cents").as("cents"),
    ])
    .groupBy((eb) => [day(eb), "shipments.carrier_code"])
    .execute();
}

/**
 * Spend by carrier and UTC week (Monday start) for the meter transaction report's chart: the
 * database sums the ledger by day, and the days (a few hundred rows) are added into their weeks
 * here, in integer cents. Ordered by week, then carrier.
 */
export async function meterSpendByWeek(
  services: DomainServices,
  scope: AccountScope,
  request: MeterSpendRequest,
): Promise<WeeklySpend[]> {
  const report = await reportScope(services, scope, request.includeChildren);
  const weeks = new Map<string, WeeklySpend>();
  for (const row of await spendByDay(services.db, report, request)) {
    const week = mondayOf(row.day);
    const key = `${week} ${row.carrier_code}`;
    const found = weeks.get(key) ?? { week, carrierCode: row.carrier_code, spentCents: 0 };
    // The ledger counts money into the meter as positive; spend is what went out.
    found.spentCents -= Number(row.cents);
    weeks.set(key, found);
  }
  return [...weeks.values()].sort((a, b) =>
    a.week === b.week ? a.carrierCode.localeCompare(b.carrierCode) : a.week.localeCompare(b.week),
  );
}
