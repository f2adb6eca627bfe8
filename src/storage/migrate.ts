import { type Kysely, type Migration, type MigrationResultSet, Migrator } from "kysely";
import type { Db, DialectName } from "./db.js";
import * as foundation from "./migrations/0001-foundation.js";
import * as carriers from "./migrations/0002-carriers.js";
import * as shipments from "./migrations/0003-shipments.js";
import * as eventsAndSubscriptions from "./migrations/0006-events-and-subscriptions.js";
import * as batchesAndPickups from "./migrations/0008-batches-and-pickups.js";

type PortableMigration = { up(db: Kysely<unknown>, dialect: DialectName): Promise<void> };

/** In order; a name never changes once released. */
const MIGRATIONS: Record<string, PortableMigration> = {
  "0001-foundation": foundation,
  "0002-carriers": carriers,
  "0003-shipments": shipments,
  "0006-events-and-subscriptions": eventsAndSubscriptions,
  "0008-batches-and-pickups": batchesAndPickups,
};

export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const migrations: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (k) => migration.up(k, db.dialect) };
  }
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
