import { type Kysely, type Migration, type MigrationResultSet, Migrator, sql } from "kysely";
import type { Db, DialectName } from "./db.js";
import * as foundation from "./migrations/0001-foundation.js";
import * as carriers from "./migrations/0002-carriers.js";
import * as shipments from "./migrations/0003-shipments.js";
import * as idempotencyHolders from "./migrations/0004-idempotency-holders.js";
import * as ehubServiceIds from "./migrations/0005-ehub-service-ids.js";
import * as eventsAndSubscriptions from "./migrations/0006-events-and-subscriptions.js";
import * as trackingEvents from "./migrations/0007-tracking-events.js";
import * as batchesAndPickups from "./migrations/0008-batches-and-pickups.js";
import * as paymentMethodsAndMeter from "./migrations/0010-payment-methods-and-meter.js";
import * as orderStoresAndOrders from "./migrations/0011-order-stores-and-orders.js";
import * as meterFunding from "./migrations/0012-meter-funding.js";
import * as reportsAndAdjustments from "./migrations/0013-reports-and-adjustments.js";
import * as storeSync from "./migrations/0014-store-sync.js";
import * as orderShipmentItems from "./migrations/0015-order-shipment-items-and-label-links.js";
import * as shipmentCarrierAccount from "./migrations/0016-shipment-carrier-account.js";
import * as meterBalances from "./migrations/0017-meter-balances.js";
import * as carrierCustomsDocuments from "./migrations/0020-carrier-customs-documents.js";
import * as pickupCarrierDetails from "./migrations/0021-pickup-carrier-details.js";
import * as moneyIncidents from "./migrations/0022-money-incidents.js";
import * as orderCurrency from "./migrations/0023-order-currency.js";
import * as retention from "./migrations/0026-retention.js";
import * as publicTracking from "./migrations/0028-public-tracking.js";
import * as carrierCallCounts from "./migrations/0029-carrier-call-counts.js";
import * as returnLabels from "./migrations/0030-return-labels.js";
import * as dashboardSessions from "./migrations/0031-dashboard-sessions.js";
import * as shipmentCounts from "./migrations/0035-shipment-counts.js";

type PortableMigration = { up(db: Kysely<unknown>, dialect: DialectName): Promise<void> };

/** In order; a name never changes once released. */
const MIGRATIONS: Record<string, PortableMigration> = {
  "0001-foundation": foundation,
  "0002-carriers": carriers,
  "0003-shipments": shipments,
  "0004-idempotency-holders": idempotencyHolders,
  "0005-ehub-service-ids": ehubServiceIds,
  "0006-events-and-subscriptions": eventsAndSubscriptions,
  "0007-tracking-events": trackingEvents,
  "0008-batches-and-pickups": batchesAndPickups,
  "0010-payment-methods-and-meter": paymentMethodsAndMeter,
  "0011-order-stores-and-orders": orderStoresAndOrders,
  "0012-meter-funding": meterFunding,
  "0013-reports-and-adjustments": reportsAndAdjustments,
  "0014-store-sync": storeSync,
  "0015-order-shipment-items-and-label-links": orderShipmentItems,
  "0016-shipment-carrier-account": shipmentCarrierAccount,
  "0017-meter-balances": meterBalances,
  "0020-carrier-customs-documents": carrierCustomsDocuments,
  "0021-pickup-carrier-details": pickupCarrierDetails,
  "0022-money-incidents": moneyIncidents,
  "0023-order-currency": orderCurrency,
  "0026-retention": retention,
  "0028-public-tracking": publicTracking,
  "0029-carrier-call-counts": carrierCallCounts,
  "0030-return-labels": returnLabels,
  "0031-dashboard-sessions": dashboardSessions,
  "0035-shipment-counts": shipmentCounts,
};

async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely);
  return rows[0]?.schema ?? "public";
}

async function migratorFor(db: Db): Promise<Migrator> {
  const migrations: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (k) => migration.up(k, db.dialect) };
  }
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    // Kysely looks for its bookkeeping tables in every schema it can see: on a PostgreSQL server
    // whose other schemas hold them (other installations, other test runs) it would take theirs
    // for ours. The schema the connection works in is the one that counts.
    migrationTableSchema: db.dialect === "postgres" ? await currentSchema(db) : undefined,
    // Migrations are numbered when work starts and may be released out of that order: a database
    // that already ran a later number still runs an earlier one that arrives after it.
    allowUnorderedMigrations: true,
  });
}

function succeeded(result: MigrationResultSet): MigrationResultSet {
  if (result.error) throw result.error;
  return result;
}

/** The advisory lock's first key, "port" in ASCII; the second is the schema's hash. */
const MIGRATION_LOCK_CLASS = 0x706f7274;

/**
 * Runs `migrate` while holding a PostgreSQL advisory lock on this database's schema, so that of
 * several processes starting together (API processes and workers after an upgrade) one migrates
 * and the others wait, then find nothing left to do. Kysely's own lock covers only the migrations'
 * transaction, not the creation of its bookkeeping tables before it; this one covers the whole
 * start-up step. Other one-time start-up work (the demo account, the recurring jobs' first rounds)
 * takes it too, where two processes would otherwise both see "none yet". SQLite needs none: one
 * process owns a database file.
 */
export async function underSchemaLock<T>(db: Db, migrate: () => Promise<T>): Promise<T> {
  if (db.dialect !== "postgres") return migrate();
  return db.kysely.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_CLASS}, hashtext(current_schema()))`.execute(connection);
    try {
      return await migrate();
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_CLASS}, hashtext(current_schema()))`.execute(connection);
    }
  });
}

export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const result = succeeded(await underSchemaLock(db, async () => (await migratorFor(db)).migrateToLatest()));
  // What migrations deleted leaves the write-ahead log too (0004 drops stored answers with keys).
  if (db.dialect === "sqlite" && (result.results?.length ?? 0) > 0) {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db.kysely);
  }
  return result;
}

/** Runs the migrations up to and including `name` (a data migration is tested on rows from before it). */
export async function migrateUpTo(db: Db, name: string): Promise<MigrationResultSet> {
  return succeeded(await underSchemaLock(db, async () => (await migratorFor(db)).migrateTo(name)));
}
