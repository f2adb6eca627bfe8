import type { Kysely, Selectable } from "kysely";
import type { Database, ShipmentAdjustmentTable } from "../../storage/schema.js";
import type { AccountScope, DomainServices } from "../services.js";
import {
  exportReport,
  type ReportExport,
  type ReportPage,
  type ReportRequest,
  type ReportScope,
  readReportPage,
  type TimeWindow,
  walkByKeyset,
} from "./report-scope.js";

export type ShipmentAdjustmentRow = Selectable<ShipmentAdjustmentTable>;
type Db = Kysely<Database>;

function adjustments(db: Db, mode: ReportScope["mode"], window: TimeWindow) {
  let query = db.selectFrom("shipment_adjustments").selectAll().where("mode", "=", mode);
  if (window.from) query = query.where("created_at", ">=", window.from);
  if (window.to) query = query.where("created_at", "<=", window.to);
  return query;
}

/** One page in report order (customer, then time); one row more is read to know if another follows. */
async function shipmentAdjustmentPage(
  db: Db,
  scope: ReportScope,
  window: TimeWindow,
  page: { limit: number; offset: number },
): Promise<{ rows: ShipmentAdjustmentRow[]; hasNext: boolean }> {
  const rows = await adjustments(db, scope.mode, window)
    .where(
      "account_id",
      "in",
      scope.accounts.map((a) => a.id),
    )
    .orderBy("account_id")
    .orderBy("created_at")
    .orderBy("id")
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
  return { rows: rows.slice(0, page.limit), hasNext: rows.length > page.limit };
}

/** Every adjustment in the window in report order, `batchSize` at a time. */
function shipmentAdjustmentBatches(
  db: Db,
  scope: ReportScope,
  window: TimeWindow,
  batchSize: number,
): AsyncGenerator<ShipmentAdjustmentRow[]> {
  return walkByKeyset(scope, batchSize, (accountId, after, limit) => {
    let query = adjustments(db, scope.mode, window).where("account_id", "=", accountId);
    if (after) {
      query = query.where((eb) => eb(eb.refTuple("created_at", "id"), ">", eb.tuple(after.createdAt, after.id)));
    }
    return query.orderBy("created_at").orderBy("id").limit(limit).execute();
  });
}

export interface ShipmentAdjustmentRequest extends TimeWindow, ReportRequest {}

/** The shipment adjustment report, one page of it. */
export function shipmentAdjustmentReport(
  services: DomainServices,
  scope: AccountScope,
  request: ShipmentAdjustmentRequest,
  page: { limit: number; offset: number },
): Promise<ReportPage<ShipmentAdjustmentRow>> {
  return readReportPage(services, scope, request, (report) =>
    shipmentAdjustmentPage(services.db, report, request, page),
  );
}

/** The whole shipment adjustment report, read in batches as it is written out. */
export function shipmentAdjustmentExport(
  services: DomainServices,
  scope: AccountScope,
  request: ShipmentAdjustmentRequest,
  batchSize: number,
): Promise<ReportExport<ShipmentAdjustmentRow>> {
  return exportReport(services, scope, request, (report) =>
    shipmentAdjustmentBatches(services.db, report, request, batchSize),
  );
}
