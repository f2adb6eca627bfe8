import { findAccount, listChildAccounts } from "../accounts/accounts.repository.js";
import type { AccountScope, DomainServices } from "../services.js";

/** One account whose rows a report shows, with the name its rows carry. */
export interface ReportAccount {
  id: number;
  name: string;
}

/** Which rows a report reads: the caller's own, or also its children's (`include_children`), in one mode. */
export interface ReportScope {
  accounts: ReportAccount[];
  mode: AccountScope["mode"];
}

/** The caller's account first, then its children by id: the order the reports list customers in. */
export async function reportScope(
  services: DomainServices,
  scope: AccountScope,
  includeChildren: boolean,
): Promise<ReportScope> {
  const own = await findAccount(services.db, scope.accountId);
  const children = includeChildren ? await listChildAccounts(services.db, scope.accountId) : [];
  return {
    accounts: [{ id: scope.accountId, name: own?.name ?? "" }, ...children.map((a) => ({ id: a.id, name: a.name }))],
    mode: scope.mode,
  };
}

/** What a report request asks, beyond its own filters. */
export interface ReportRequest {
  includeChildren: boolean;
}

/**
 * A page of a report, with the names of the customers its rows belong to, and whether another page
 * follows (a report is not counted: counting a year of ledger would cost more than the page).
 */
export interface ReportPage<Row> {
  customers: ReadonlyMap<number, string>;
  rows: Row[];
  hasNext: boolean;
}

/** A whole report read in batches, with the names of the customers its rows belong to. */
export interface ReportExport<Row> {
  customers: ReadonlyMap<number, string>;
  batches: AsyncGenerator<Row[]>;
}

const customerNames = (scope: ReportScope): ReadonlyMap<number, string> =>
  new Map(scope.accounts.map((a) => [a.id, a.name]));

export async function readReportPage<Row>(
  services: DomainServices,
  scope: AccountScope,
  request: ReportRequest,
  read: (report: ReportScope) => Promise<{ rows: Row[]; hasNext: boolean }>,
): Promise<ReportPage<Row>> {
  const report = await reportScope(services, scope, request.includeChildren);
  return { customers: customerNames(report), ...(await read(report)) };
}

export async function exportReport<Row>(
  services: DomainServices,
  scope: AccountScope,
  request: ReportRequest,
  read: (report: ReportScope) => AsyncGenerator<Row[]>,
): Promise<ReportExport<Row>> {
  const report = await reportScope(services, scope, request.includeChildren);
  return { customers: customerNames(report), batches: read(report) };
}

/** A report's time window: ISO instants, both ends included (as the shipment list reads them). */
export interface TimeWindow {
  from?: string;
  to?: string;
}

/** Where a keyset walk stands: the last row read of one account. */
export interface KeysetPosition {
  createdAt: string;
  id: number;
}

/**
 * Reads a report's rows a batch at a time, account by account, each batch one range of an
 * `(account_id, mode, created_at, id)` index after the last row read: memory holds one batch,
 * however many rows the report has, and no batch costs more than the first.
 */
export async function* walkByKeyset<Row extends { id: number; created_at: string }>(
  scope: ReportScope,
  batchSize: number,
  read: (accountId: number, after: KeysetPosition | undefined, limit: number) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  for (const account of scope.accounts) {
    let after: KeysetPosition | undefined;
    for (;;) {
      const rows = await read(account.id, after, batchSize);
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) break;
      const last = rows[rows.length - 1] as Row;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
}
