import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema.js";
import type { AccountScope, DomainServices } from "../services.js";
import {
  exportReport,
  type KeysetPosition,
  type ReportExport,
  type ReportPage,
  type ReportRequest,
  type ReportScope,
  readReportPage,
  type TimeWindow,
  walkByKeyset,
} from "./report-scope.js";

export interface MeterTransactionFilter extends TimeWindow {
  carrierCode?: string;
  serviceCode?: string;
  /** Only entries of shipments in this status (eHub: "based on shipments status"). */
  shipmentStatus?: string;
}

/** A ledger entry as the meter transaction report shows it, with its shipment's tracking numbers. */
export interface MeterTransaction {
  id: number;
  account_id: number;
  created_at: string;
  amount_cents: number;
  trackingNumbers: string[];
}

type Db = Kysely<Database>;

/** Parcels are looked up this many shipments at a time, well inside every engine's bind limit. */
const SHIPMENTS_PER_LOOKUP = 1000;

/**
 * The ledger entries a report may show: everything that moved (or will move, once a hold ends)
 * money on the meter, so not refills the gateway declined. Shipment filters probe each entry's
 * shipment by its key, which keeps the walk in the ledger index's order.
 */
function entries(db: Db, mode: ReportScope["mode"], filter: MeterTransactionFilter) {
  let query = db
    .selectFrom("meter_entries")
    .where("meter_entries.mode", "=", mode)
    .where("meter_entries.status", "!=", "rejected");
  if (filter.from) query = query.where("meter_entries.created_at", ">=", filter.from);
  if (filter.to) query = query.where("meter_entries.created_at", "<=", filter.to);
  const { carrierCode, serviceCode, shipmentStatus } = filter;
  if (carrierCode || serviceCode || shipmentStatus) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("shipments")
          .select(eb.lit(1).as("found"))
          .whereRef("shipments.id", "=", "meter_entries.shipment_id")
          .$if(carrierCode !== undefined, (q) => q.where("shipments.carrier_code", "=", carrierCode as string))
          .$if(serviceCode !== undefined, (q) => q.where("shipments.service_code", "=", serviceCode as string))
          .$if(shipmentStatus !== undefined, (q) => q.where("shipments.status", "=", shipmentStatus as string)),
      ),
    );
  }
  return query;
}

const COLUMNS = [
  "meter_entries.id",
  "meter_entries.account_id",
  "meter_entries.created_at",
  "meter_entries.amount_cents",
  "meter_entries.shipment_id",
] as const;

/** One page in report order (customer, then time); one row more is read to know if another follows. */
async function meterTransactionPage(
  db: Db,
  scope: ReportScope,
  filter: MeterTransactionFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: MeterTransaction[]; hasNext: boolean }> {
  const rows = await entries(db, scope.mode, filter)
    .where(
      "meter_entries.account_id",
      "in",
      scope.accounts.map((a) => a.id),
    )
    .select(COLUMNS)
    .orderBy("meter_entries.account_id")
    .orderBy("meter_entries.created_at")
    .orderBy("meter_entries.id")
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
  return { rows: await withTrackingNumbers(db, rows.slice(0, page.limit)), hasNext: rows.length > page.limit };
}

/** Every matching entry in report order, `batchSize` at a time (for exports of any length). */
function meterTransactionBatches(
  db: Db,
  scope: ReportScope,
  filter: MeterTransactionFilter,
  batchSize: number,
): AsyncGenerator<MeterTransaction[]> {
  return walkByKeyset(scope, batchSize, async (accountId, after: KeysetPosition | undefined, limit) => {
    let query = entries(db, scope.mode, filter).where("meter_entries.account_id", "=", accountId);
    if (after) {
      query = query.where((eb) =>
        eb(eb.refTuple("meter_entries.created_at", "meter_entries.id"), ">", eb.tuple(after.createdAt, after.id)),
      );
    }
    const rows = await query
      .select(COLUMNS)
      .orderBy("meter_entries.created_at")
      .orderBy("meter_entries.id")
      .limit(limit)
      .execute();
    return withTrackingNumbers(db, rows);
  });
}

async function withTrackingNumbers(
  db: Db,
  rows: readonly {
    id: number;
    account_id: number;
    created_at: string;
    amount_cents: number;
    shipment_id: number | null;
  }[],
): Promise<MeterTransaction[]> {
  const distinct = new Set<number>();
  for (const row of rows) if (row.shipment_id !== null) distinct.add(row.shipment_id);
  const shipmentIds = [...distinct];
  const numbers = new Map<number, string[]>();
  for (let start = 0; start < shipmentIds.length; start += SHIPMENTS_PER_LOOKUP) {
    const parcels = await db
      .selectFrom("parcels")
      .select(["shipment_id", "tracking_number"])
      .where("shipment_id", "in", shipmentIds.slice(start, start + SHIPMENTS_PER_LOOKUP))
      .where("tracking_number", "is not", null)
      .orderBy("shipment_id")
      .orderBy("position")
      .execute();
    for (const parcel of parcels) {
      const list = numbers.get(parcel.shipment_id) ?? [];
      list.push(parcel.tracking_number as string);
      numbers.set(parcel.shipment_id, list);
    }
  }
  // Written out rather than spread: a page has ten thousand rows.
  return rows.map((row) => ({
    id: row.id,
    account_id: row.account_id,
    created_at: row.created_at,
    amount_cents: row.amount_cents,
    trackingNumbers: row.shipment_id === null ? [] : (numbers.get(row.shipment_id) ?? []),
  }));
}

export interface MeterTransactionRequest extends MeterTransactionFilter, ReportRequest {}

/** The meter transaction report, one page of it. */
export function meterTransactionReport(
  services: DomainServices,
  scope: AccountScope,
  request: MeterTransactionRequest,
  page: { limit: number; offset: number },
): Promise<ReportPage<MeterTransaction>> {
  return readReportPage(services, scope, request, (report) => meterTransactionPage(services.db, report, request, page));
}

/** The whole meter transaction report, read in batches as it is written out. */
export function meterTransactionExport(
  services: DomainServices,
  scope: AccountScope,
  request: MeterTransactionRequest,
  batchSize: number,
): Promise<ReportExport<MeterTransaction>> {
  return exportReport(services, scope, request, (report) =>
    meterTransactionBatches(services.db, report, request, batchSize),
  );
}
