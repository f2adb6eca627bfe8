import fs from "node:fs";
import { sql } from "kysely";
import type { TestDatabase } from "./database.js";

/** Every row of every table of the test's database, each as one line of text (JSON on SQLite). */
export async function everyStoredRow(database: TestDatabase): Promise<string[]> {
  const db = database.db.kysely;
  if (database.db.dialect === "sqlite") {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    const dumps = await Promise.all(
      tables.rows.map(async ({ name }) => (await sql<object>`select * from ${sql.table(name)}`.execute(db)).rows),
    );
    return dumps.flat().map((row) => JSON.stringify(row));
  }
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = ${database.schema}`.execute(db);
  const dumps = await Promise.all(
    tables.rows.map(
      async ({ table_name }) =>
        (await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(db)).rows,
    ),
  );
  return dumps.flat().map((r) => r.row);
}

/**
 * Every byte the database holds, as text: the SQLite file and its write-ahead log, or on
 * PostgreSQL every row of every table of the test's schema.
 */
export async function everythingStored(database: TestDatabase): Promise<string> {
  if (database.db.dialect === "sqlite") {
    const file = database.url.replace(/^sqlite:\/\//, "");
    return [file, `${file}-wal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString("latin1"))
      .join("\n");
  }
  return (await everyStoredRow(database)).join("\n");
}
