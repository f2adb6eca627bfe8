import fs from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, type SqliteDatabase, SqliteDialect, type SqliteStatement, sql } from "kysely";
import pg from "pg";
import { BoundedMap } from "../bounded-map.js";
import type { Database } from "./schema.js";
import { SchemaScopedPostgresDialect } from "./schema-introspector.js";
import { PostgresChannel, WakeUps } from "./wake-ups.js";

export type DialectName = "sqlite" | "postgres";

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Wakes requests waiting for each other, across processes on PostgreSQL. */
  wakeUps: WakeUps;
  /**
   * SQLite only: copies the database to `file` with SQLite's online backup, page by page between
   * other work, so the copy is consistent while the database stays in use.
   */
  backup?(file: string): Promise<void>;
  close(): Promise<void>;
}

/** `sqlite:///abs/file`, `sqlite://relative/file`, `sqlite://:memory:` → a filesystem path. */
function sqlitePath(url: string): string {
  const rest = url.replace(/^sqlite:\/\//, "");
  return rest === ":memory:" ? rest : path.resolve(rest);
}

/**
 * Kysely prepares every query afresh; preparing costs more than running a small query, and the
 * application sends the same few hundred SQL texts over and over, so prepared statements are kept.
 */
function withStatementCache(sqlite: BetterSqlite3.Database, capacity = 500): SqliteDatabase {
  const statements = new BoundedMap<string, SqliteStatement>(capacity);
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

export interface OpenOptions {
  /** How often an SQLite file's write-ahead log is checkpointed and truncated; `SQLITE_CHECKPOINT_MS` unless given. */
  checkpointIntervalMs?: number;
}

/**
 * How often the write-ahead log of an SQLite file is copied into the database and truncated to
 * nothing. The automatic checkpoint (every 10,000 pages, below) copies pages back but never makes
 * the file smaller, so without this a log grown to 40 MB stays that size beside a small database.
 */
export const SQLITE_CHECKPOINT_MS = 60_000;
/** What the log file is cut back to whenever a checkpoint lets it start over (4 MB). */
const SQLITE_JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024;

/**
 * Checkpoints the log now and then through Kysely, so the checkpoint waits for the connection like
 * any query and never lands inside an open transaction. A checkpoint that cannot finish (readers
 * on an older snapshot) leaves the log as it is; the next one tries again.
 */
function checkpointPeriodically(kysely: Kysely<Database>, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sql`PRAGMA wal_checkpoint(TRUNCATE)`
      .execute(kysely)
      // Nothing is lost (the log keeps every write), but an operator should see a log that cannot shrink.
      .catch((error: unknown) =>
        process.emitWarning(`SQLite checkpoint failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export function openDatabase(url: string, options: OpenOptions = {}): Db {
  if (url.startsWith("sqlite://")) {
    const file = sqlitePath(url);
    if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
    const sqlite = new BetterSqlite3(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("synchronous = NORMAL");
    // A label purchase dirties some 27 pages over its three transactions, so the default
    // checkpoint (every 1,000 WAL pages) ran every few dozen purchases, each time copying pages
    // that the next purchases dirty again and syncing twice. Every 10,000 pages (a WAL of about
    // 40 MB) copies each hot page once per ten times as many purchases.
    sqlite.pragma("wal_autocheckpoint = 10000");
    sqlite.pragma(`journal_size_limit = ${SQLITE_JOURNAL_SIZE_LIMIT}`);
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    const stopCheckpoints =
      file === ":memory:"
        ? () => undefined
        : checkpointPeriodically(kysely, options.checkpointIntervalMs ?? SQLITE_CHECKPOINT_MS);
    // One process per database file by design: other processes sharing it are left to polling.
    const wakeUps = new WakeUps();
    return {
      kysely,
      dialect: "sqlite",
      wakeUps,
      backup: async (destination) => void (await sqlite.backup(destination)),
      close: () => {
        stopCheckpoints();
        return kysely.destroy();
      },
    };
  }
  // A PostgreSQL URL may carry `?options=-c search_path=<schema>` to use a schema other than
  // `public` (the test suite gives each file its own).
  // int8 (counts, sums) arrives as text from pg; every such value fits a double here.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A connection that breaks (the server restarted, the network dropped it) emits "error": while
  // idle in the pool the pool re-emits it, while checked out between two queries (a transaction
  // awaiting a carrier) the client itself does. Unheard, either event would end the process. The
  // query in hand fails as unreachable (isDatabaseUnreachable), the pool discards the connection,
  // and the next query opens a new one.
  const broken = (error: Error) => console.warn(`a PostgreSQL connection broke and is discarded: ${error.message}`);
  pool.on("error", broken);
  pool.on("connect", (client) => client.on("error", broken));
  const kysely = new Kysely<Database>({ dialect: new SchemaScopedPostgresDialect({ pool }) });
  const wakeUps = new WakeUps(new PostgresChannel(pool, url));
  return {
    kysely,
    dialect: "postgres",
    wakeUps,
    close: async () => {
      await wakeUps.close();
      await kysely.destroy();
    },
  };
}

/** Error codes of a database that cannot be reached: the socket's, and PostgreSQL's own. */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);
/** 57P01-57P03: the server is shutting down, crashed or not yet accepting connections. */
const UNREACHABLE_SQLSTATES = /^(08|57P0[123])/;
/** What node-postgres says when a connection ends under a query, or cannot be had. */
const UNREACHABLE_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed)/;

/**
 * Whether `error` (or one it was caused by) says the database cannot be reached right now, as
 * while PostgreSQL restarts: a request failing so is a 503 to retry, not a fault of Porter's.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || UNREACHABLE_SQLSTATES.test(code))) return true;
    if (UNREACHABLE_MESSAGES.test(cause.message)) return true;
    if (cause instanceof AggregateError && cause.errors.some((inner) => isDatabaseUnreachable(inner))) return true;
  }
  return false;
}
