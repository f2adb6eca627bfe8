/**
 * The meter report over a year of ledger (part of `npm run bench`; alone:
 * `node --expose-gc --import tsx scripts/bench-reports.ts`): 1,000,000 ledger rows over 2025 (label
 * debits of 10,000 USPS shipments, a refill every fiftieth row) are written straight to a fresh
 * SQLite database by a child process, then a server in this process answers over HTTP on loopback:
 * - the report's first page (10,000 rows, the default), and pages of 100 with and without a
 *   carrier filter, and the spend by carrier and week (the year, and a month): the first answer,
 *   then the median of five more;
 * - the whole report as CSV, read as it streams; the process's resident memory is sampled every
 *   10 ms, and its highest value above what it was before the request is reported.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { openServices } from "../src/app.js";
import { ManualClock } from "../src/clock.js";
import { loadConfig } from "../src/config.js";
import { createAccount } from "../src/domain/accounts/create-account.js";
import { createUser } from "../src/domain/accounts/create-user.js";
import { buildServer } from "../src/http/server.js";
import { seedShipments } from "./bench-batch.js";

const ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000);
const SHIPMENTS = 10_000;
const YEAR_MS = 365 * 86_400_000;

export interface ReportMeasurement {
  rows: number;
  seedSeconds: number;
  pages: { name: string; firstMs: number; medianMs: number; medianCpuMs: number; kb: number }[];
  csv: {
    seconds: number;
    cpuSeconds: number;
    lines: number;
    mb: number;
    rssBeforeMb: number;
    peakRssGrowthMb: number;
    liveHeapGrowthMb: number | undefined;
  };
}

/** 1,000,000 ledger rows over 2025, written with one prepared statement in one transaction. */
function seedLedger(file: string, accountId: number, shipmentIds: readonly number[]): void {
  const sqlite = new BetterSqlite3(file);
  const insert = sqlite.prepare(
    `insert into meter_entries (account_id, mode, kind, amount_cents, shipment_id, description, status, available_at, created_at)
     values (?, 'test', ?, ?, ?, ?, 'posted', ?, ?)`,
  );
  const start = Date.parse("2025-01-01T00:00:00.000Z");
  let balanceCents = 0;
  sqlite.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const at = new Date(start + Math.floor((i * YEAR_MS) / ROWS)).toISOString();
      if (i % 50 === 0) {
        insert.run(accountId, "refill", 50_000, null, "Refill charged to visa ending 4242", at, at);
        balanceCents += 50_000;
      } else {
        balanceCents -= 700;
        const shipment = shipmentIds[i % shipmentIds.length] as number;
        insert.run(
          accountId,
          "label_purchase",
          -700,
          shipment,
          `Ground Advantage label for shipment ${shipment}`,
          at,
          at,
        );
      }
    }
    // Written straight, the ledger's rows bypass the balance row the application keeps with them.
    sqlite
      .prepare(
        `insert into meter_balances (account_id, mode, posted_cents, held_cents, held_count) values (?, 'test', ?, 0, 0)`,
      )
      .run(accountId, balanceCents);
  })();
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();
}

function rssMb(): number {
  return process.memoryUsage().rss / 1_048_576;
}

/**
 * One GET read to its end: the time to the last byte, the CPU time this process (server and
 * client) spent meanwhile, which a busy machine inflates less than the wall time, the bytes and
 * the lines.
 */
function fetchAll(
  url: string,
  headers: Record<string, string>,
): Promise<{ ms: number; cpuMs: number; bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    http
      .get(url, { headers }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`));
        let bytes = 0;
        let lines = 0;
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        response.on("end", () => {
          const used = process.cpuUsage(cpu);
          resolve({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, bytes, lines });
        });
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * A fresh data directory holding an account, its shipments and its ledger. Seeding runs in a
 * process of its own, so that the memory it used is not counted against the export.
 */
function seedDataDir(): { dataDir: string; key: string; seedSeconds: number } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-bench-reports-"));
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--seed", dataDir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const key = /^key (pk_test_\w+)$/m.exec(child.stdout)?.[1];
  if (child.status !== 0 || !key) throw new Error(`seeding the ledger failed: ${child.stdout}`);
  return { dataDir, key, seedSeconds: (performance.now() - started) / 1000 };
}

async function seed(dataDir: string): Promise<string> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const services = await openServices(config, new ManualClock("2026-01-15T15:00:00.000Z"));
  try {
    const account = await createAccount(services, { name: "Bench Shipping Co" });
    const { keys } = await createUser(services, {
      accountId: account.id,
      email: "bench@porter.local",
      roles: ["Owner", "API"],
    });
    if (!keys) throw new Error("the bench user has no keys");
    const shipmentIds = await seedShipments(services, account.id, SHIPMENTS);
    seedLedger(config.databaseUrl.replace(/^sqlite:\/\//, ""), account.id, shipmentIds);
    return keys.test;
  } finally {
    await services.database.close();
  }
}

export async function measureMeterReport(): Promise<ReportMeasurement> {
  const { dataDir, key, seedSeconds } = seedDataDir();
  const services = await openServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }));
  const app = await buildServer(services, { logger: false });
  try {
    await app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v2/reports/meter_transaction`;
    const auth = { authorization: `Bearer ${key}` };

    const pages: ReportMeasurement["pages"] = [];
    for (const [name, query] of [
      ["first page, 10,000 rows (the default per_page)", ""],
      ["first page, per_page=100", "?per_page=100"],
      ["first page, per_page=100, carrier_code=usps", "?per_page=100&carrier_code=usps"],
      ["July, per_page=100 (from_time, to_time)", "?per_page=100&from_time=2025-07-01&to_time=2025-07-31"],
      ["page 50 of 100 (offset 490,000 rows)", "?page=50"],
      // The dashboard's chart: the whole year summed by carrier and week in the database.
      ["spend by carrier and week, the whole year (/spend)", "/spend"],
      [
        "spend by carrier and week, July (/spend, from_time, to_time)",
        "/spend?from_time=2025-07-01&to_time=2025-07-31",
      ],
    ] as const) {
      const first = await fetchAll(`${base}${query}`, auth);
      const runs = [];
      for (let i = 0; i < 5; i++) runs.push(await fetchAll(`${base}${query}`, auth));
      pages.push({
        name,
        firstMs: first.ms,
        medianMs: median(runs.map((r) => r.ms)),
        medianCpuMs: median(runs.map((r) => r.cpuMs)),
        kb: first.bytes / 1024,
      });
    }

    global.gc?.();
    const rssBefore = rssMb();
    const heapBefore = process.memoryUsage().heapUsed / 1_048_576;
    let peak = rssBefore;
    let liveHeapPeak = heapBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb());
    }, 10);
    // What the export holds, as opposed to garbage not collected yet: the heap after a collection.
    const collector = setInterval(() => {
      if (!global.gc) return;
      global.gc();
      liveHeapPeak = Math.max(liveHeapPeak, process.memoryUsage().heapUsed / 1_048_576);
    }, 1000);
    const csv = await fetchAll(base, { ...auth, accept: "text/csv" });
    clearInterval(sampler);
    clearInterval(collector);
    peak = Math.max(peak, rssMb());
    if (csv.lines - 1 !== ROWS) throw new Error(`the CSV held ${csv.lines - 1} rows, not ${ROWS}`);
    return {
      rows: ROWS,
      seedSeconds,
      pages,
      csv: {
        seconds: csv.ms / 1000,
        cpuSeconds: csv.cpuMs / 1000,
        lines: csv.lines - 1,
        mb: csv.bytes / 1_048_576,
        rssBeforeMb: rssBefore,
        peakRssGrowthMb: peak - rssBefore,
        liveHeapGrowthMb: global.gc ? liveHeapPeak - heapBefore : undefined,
      },
    };
  } finally {
    await app.close();
    await services.database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function reportTable(m: ReportMeasurement): string {
  const lines = [
    `The meter transaction report over ${m.rows.toLocaleString("en-US")} ledger rows (seeded in ${m.seedSeconds.toFixed(1)} s):`,
    "",
    "| request | first answer (ms) | median of 5 (ms) | median CPU (ms) | body (KB) |",
    "|---|---|---|---|---|",
    ...m.pages.map(
      (p) =>
        `| ${p.name} | ${p.firstMs.toFixed(1)} | ${p.medianMs.toFixed(1)} | ${p.medianCpuMs.toFixed(1)} | ${Math.round(p.kb)} |`,
    ),
    "",
    `CSV of all of them (Accept: text/csv): ${m.csv.lines.toLocaleString("en-US")} rows, ${m.csv.mb.toFixed(1)} MB in ${m.csv.seconds.toFixed(1)} s (${m.csv.cpuSeconds.toFixed(1)} s of CPU); resident memory ${m.csv.rssBeforeMb.toFixed(0)} MB before, at most ${m.csv.peakRssGrowthMb.toFixed(1)} MB above it while streaming${m.csv.liveHeapGrowthMb === undefined ? "" : `; the heap after each collection (every second) at most ${m.csv.liveHeapGrowthMb.toFixed(1)} MB above where it started`}.`,
  ];
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seedInto = process.argv.indexOf("--seed");
  if (seedInto > 0) console.log(`key ${await seed(process.argv[seedInto + 1] as string)}`);
  else console.log(reportTable(await measureMeterReport()));
}
