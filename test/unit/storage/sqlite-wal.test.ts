import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../../../src/storage/db.js";

/** Resolves once `check` holds, looking again on every turn of the event loop's timers. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 20_000; turn += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`gave up waiting: ${what}`);
}

describe("the SQLite write-ahead log", () => {
  let dir: string;
  let db: Db | undefined;

  afterEach(async () => {
    await db?.close();
    db = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("is checkpointed and truncated while the database is idle, not left at its largest", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-wal-"));
    const file = path.join(dir, "porter.sqlite");
    const wal = `${file}-wal`;
    db = openDatabase(`sqlite://${file}`, { checkpointIntervalMs: 20 });
    await sql`CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db.kysely);
    // About 4 MB of writes: under the automatic checkpoint's 10,000 pages, so only the periodic
    // checkpoint empties the log.
    const body = "x".repeat(4_000);
    for (let batch = 0; batch < 10; batch += 1) {
      await db.kysely.transaction().execute(async (trx) => {
        for (let row = 0; row < 100; row += 1) {
          await sql`INSERT INTO filler (body) VALUES (${body})`.execute(trx);
        }
      });
    }
    await until(() => fs.existsSync(wal) && fs.statSync(wal).size === 0, "the WAL file truncated to 0 bytes");
    const count = await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(db.kysely);
    expect(count.rows[0]?.n).toBe(1000);
  });

  it("limits what the log keeps after an automatic checkpoint (journal_size_limit)", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-wal-"));
    db = openDatabase(`sqlite://${path.join(dir, "porter.sqlite")}`);
    const limit = await sql<{ journal_size_limit: number }>`PRAGMA journal_size_limit`.execute(db.kysely);
    expect(limit.rows[0]?.journal_size_limit).toBeGreaterThan(0);
    expect(limit.rows[0]?.journal_size_limit).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});
