import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type Db, openDatabase } from "../../src/storage/db.js";
import { migrateToLatest, migrateUpTo } from "../../src/storage/migrate.js";

/**
 * A fresh, migrated database for one test file: a temporary SQLite file by default, or a new
 * schema in the PostgreSQL database named by TEST_DATABASE_URL.
 */
export interface TestDatabase {
  db: Db;
  /** What another process needs to reach the same data. */
  url: string;
  schema?: string;
  /** Environment for a child process that must use this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export const testDialect = (): "sqlite" | "postgres" =>
  process.env.TEST_DATABASE_URL?.startsWith("postgres") ? "postgres" : "sqlite";

/**
 * `upTo` stops after that migration, so a later data migration can be tested on old rows; `null`
 * leaves the database empty (for tests of migrating itself).
 */
export async function createTestDatabase(upTo?: string | null): Promise<TestDatabase> {
  const migrate = async (db: Db) => {
    if (upTo === null) return;
    await (upTo ? migrateUpTo(db, upTo) : migrateToLatest(db));
  };
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl?.startsWith("postgres")) {
    const schema = `porter_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = `${pgUrl}${pgUrl.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const db = openDatabase(url);
    await migrate(db);
    return {
      db,
      url,
      schema,
      env: { DATABASE_URL: url },
      drop: async () => {
        await db.close();
        const cleanup = new pg.Client({ connectionString: pgUrl });
        await cleanup.connect();
        await cleanup.query(`drop schema ${schema} cascade`);
        await cleanup.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-test-"));
  const url = `sqlite://${path.join(dir, "test.sqlite")}`;
  const db = openDatabase(url);
  await migrate(db);
  return {
    db,
    url,
    env: { DATABASE_URL: url },
    drop: async () => {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
