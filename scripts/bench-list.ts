/**
 * The first page of `GET /shipments` on an account with 1,000,000 shipments (BENCH_SHIPMENT_ROWS),
 * on SQLite and on PostgreSQL. One shipment is bought over HTTP and copied by one bulk insert per
 * table (shipments, parcels, labels) straight into the database, which takes seconds where buying them
 * would take hours. The seeded database is kept in the temporary directory, named by the newest
 * migration and the row count, for the next run; delete it to seed anew.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import {
  cpuTimeUs,
  freePort,
  fundByAutomaticRefill,
  median,
  type PorterProcess,
  shipBody,
  startPorter,
  stop,
} from "./bench-processes.js";

export const SHIPMENT_ROWS = Number(process.env.BENCH_SHIPMENT_ROWS ?? 1_000_000);

/** The newest migration's name: a seed made under an older schema is not reused. */
const NEWEST_MIGRATION = fs
  .readdirSync(new URL("../src/storage/migrations/", import.meta.url))
  .filter((name) => /^\d{4}-.*\.ts$/.test(name))
  .sort()
  .at(-1)!
  .replace(/\.ts$/, "");

export interface Engine {
  name: "SQLite" | "PostgreSQL";
  /** Where a server keeps this database: an environment for `porter serve`. */
  env(dataDir: string): NodeJS.ProcessEnv;
}

export interface ListFigure {
  engine: Engine["name"];
  rows: number;
  seededSeconds: number | undefined;
  firstMs: number;
  medianMs: number;
  cpuMsPerRequest: number | undefined;
  /** The dashboard's searches, the first page each (median of 5): by status, and by one tracking number. */
  statusMs: number;
  trackingNumberMs: number;
}

/** Copies `columns` of the seed rows, with some columns given other values. */
function copied(columns: readonly string[], replaced: Record<string, string>, source: string): string {
  return columns.map((column) => replaced[column] ?? `${source}.${column}`).join(", ");
}

/** Shipment columns that are unique, or that would set the worker to work, are not copied. */
const SHIPMENT_NULLS = { request_key: "NULL", public_tracking_token: "NULL", tracking_refresh_at: "NULL" };

/** Each copied parcel has a tracking number of its own, as real ones do, for the search by tracking number. */
const PARCEL_COPIES = { tracking_number: "p.tracking_number || '-' || s.id" };

/** Each copied parcel gets a copy of the seed's label, under a file name of its own (they are unique). */
function labelCopies(labels: readonly string[], seed: number): string {
  return `INSERT INTO labels (parcel_id, shipment_id, ${labels.join(", ")})
    SELECT p.id, p.shipment_id, ${copied(labels, { file_name: "l.file_name || '-' || p.id" }, "l")}
    FROM parcels p JOIN labels l ON l.shipment_id = ${seed} WHERE p.shipment_id > ${seed}`;
}

async function bulkInsert(engine: Engine["name"], dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const copies = SHIPMENT_ROWS - 1;
  if (engine === "SQLite") {
    const db = new BetterSqlite3(path.join(dataDir, "porter.sqlite"));
    const columnsOf = (table: string) =>
      (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>)
        .map((column) => column.name)
        .filter((name) => name !== "id");
    const seed = (db.prepare("SELECT max(id) AS id FROM shipments").get() as { id: number }).id;
    const shipments = columnsOf("shipments");
    const parcels = columnsOf("parcels").filter((name) => name !== "shipment_id");
    const labels = columnsOf("labels").filter((name) => name !== "shipment_id" && name !== "parcel_id");
    db.transaction(() => {
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${copies})
         INSERT INTO shipments (${shipments.join(", ")})
         SELECT ${copied(shipments, SHIPMENT_NULLS, "s")} FROM shipments s, n WHERE s.id = ${seed}`,
      ).run();
      db.prepare(
        `INSERT INTO parcels (shipment_id, ${parcels.join(", ")})
         SELECT s.id, ${copied(parcels, PARCEL_COPIES, "p")} FROM shipments s JOIN parcels p ON p.shipment_id = ${seed} WHERE s.id > ${seed}`,
      ).run();
      db.prepare(labelCopies(labels, seed)).run();
    })();
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const columnsOf = async (table: string) =>
      (
        await client.query<{ column_name: string }>(
          "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
          [table],
        )
      ).rows
        .map((row) => row.column_name)
        .filter((name) => name !== "id");
    const seed = (await client.query<{ id: number }>("SELECT max(id) AS id FROM shipments")).rows[0]!.id;
    const shipments = await columnsOf("shipments");
    const parcels = (await columnsOf("parcels")).filter((name) => name !== "shipment_id");
    const labels = (await columnsOf("labels")).filter((name) => name !== "shipment_id" && name !== "parcel_id");
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO shipments (${shipments.join(", ")})
       SELECT ${copied(shipments, SHIPMENT_NULLS, "s")} FROM shipments s, generate_series(1, ${copies}) n WHERE s.id = ${seed}`,
    );
    await client.query(
      `INSERT INTO parcels (shipment_id, ${parcels.join(", ")})
       SELECT s.id, ${copied(parcels, PARCEL_COPIES, "p")} FROM shipments s JOIN parcels p ON p.shipment_id = ${seed} WHERE s.id > ${seed}`,
    );
    await client.query(labelCopies(labels, seed));
    await client.query("COMMIT");
    await client.query("ANALYZE shipments; ANALYZE parcels; ANALYZE labels; ANALYZE shipment_counts");
  } finally {
    await client.end();
  }
}

/** The seeded data directory (and database) with the demo account's test key, made if missing. */
export async function seeded(
  engine: Engine,
): Promise<{ dataDir: string; key: string; seededSeconds: number | undefined }> {
  const dataDir = path.join(
    os.tmpdir(),
    `porter-bench-shipments-${NEWEST_MIGRATION}-${engine.name.toLowerCase()}-${SHIPMENT_ROWS}`,
  );
  const marker = path.join(dataDir, "seeded.json");
  if (fs.existsSync(marker)) {
    return { dataDir, seededSeconds: undefined, ...(JSON.parse(fs.readFileSync(marker, "utf8")) as { key: string }) };
  }
  const started = performance.now();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const env = engine.env(dataDir);
  if (env.DATABASE_URL) await recreateDatabase(env.DATABASE_URL);
  const porter = await startPorter(["--no-worker"], env, dataDir, "seed");
  try {
    await fundByAutomaticRefill(porter.url, porter.auth);
    const response = await fetch(`${porter.url}/shipments/ship`, {
      method: "POST",
      headers: { ...porter.auth, "content-type": "application/json" },
      body: shipBody("zpl"),
    });
    if (!response.ok) throw new Error(`buying the seed shipment answered ${response.status}: ${await response.text()}`);
  } finally {
    await stop(porter.child);
  }
  await bulkInsert(engine.name, dataDir, env.DATABASE_URL);
  fs.writeFileSync(marker, JSON.stringify({ key: porter.key }));
  return { dataDir, key: porter.key, seededSeconds: (performance.now() - started) / 1000 };
}

/** Drops and creates the database a URL names, through the server's `postgres` database. */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

export async function measureShipmentList(engine: Engine): Promise<ListFigure> {
  const seed = await seeded(engine);
  const port = await freePort();
  const porter: PorterProcess = await startPorter(["--no-worker"], engine.env(seed.dataDir), seed.dataDir, "list", {
    port,
    key: seed.key,
  });
  let answer = "";
  const page = async (query = "") => {
    const started = performance.now();
    const response = await fetch(`${porter.url}/shipments${query}`, { headers: porter.auth });
    answer = await response.text();
    if (!response.ok) throw new Error(`GET /shipments${query} answered ${response.status}: ${answer.slice(0, 500)}`);
    return performance.now() - started;
  };
  const medianOf = async (query: string) => {
    const times: number[] = [];
    for (let request = 0; request < 5; request++) times.push(await page(query));
    return median(times);
  };
  try {
    const firstMs = await page();
    const cpuBefore = cpuTimeUs(porter.child.pid);
    const times: number[] = [];
    for (let request = 0; request < 20; request++) times.push(await page());
    const cpuAfter = cpuTimeUs(porter.child.pid);
    const newest = (JSON.parse(answer) as { shipments: Array<{ tracking_number: string }> }).shipments[0];
    return {
      engine: engine.name,
      rows: SHIPMENT_ROWS,
      seededSeconds: seed.seededSeconds,
      firstMs,
      medianMs: median(times),
      cpuMsPerRequest:
        cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / 1000 / times.length,
      statusMs: await medianOf("?status=shipped"),
      trackingNumberMs: await medianOf(`?tracking_number[]=${encodeURIComponent(newest?.tracking_number ?? "")}`),
    };
  } finally {
    await stop(porter.child);
  }
}
