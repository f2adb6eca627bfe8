/**
 * `npm run bench`: throughput and latency of Porter next to a bare Fastify server measured in the
 * same run on the same machine, reported as ratios so the figures travel between machines.
 * Each server runs in its own process; autocannon drives them from this one.
 * BENCH_SECONDS (default 10) sets the length of each run. Label purchases (ZPL, PDF, PNG) are
 * measured at 10 connections; their req/s is labels bought per second. Then a batch of 1,000 and
 * one of 10,000 shipments is created and its SCAN form generated (scripts/bench-batch.ts); the meter
 * transaction report over 1,000,000 ledger rows, a page and the whole CSV (scripts/bench-reports.ts).
 * Last, webhook events delivered per second by one worker process to a receiver on loopback
 * (scripts/bench-webhooks.ts), and the dashboard bundle's size (scripts/bench-dashboard.ts).
 * Sections given as arguments run alone, in this order: `ping` (ping and rates against the
 * baseline), `labels`, `batches`, `reports`, `webhooks`, `dashboard`; e.g. `npm run bench -- labels`.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { rateShipment } from "../test/helpers/shipments.js";
import { batchTable, measureBatch } from "./bench-batch.js";
import { dashboardBundleTable } from "./bench-dashboard.js";
import { measureMeterReport, reportTable } from "./bench-reports.js";
import { measureWebhookDelivery } from "./bench-webhooks.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Each comparison with the baseline is split into this many alternating rounds. */
const ROUNDS = 5;
/**
 * On a small machine the load generator and the server fight for the same cores, and the figures
 * then measure the fight. With `taskset` available, each server gets CPU 1 and this process CPU 0.
 */
const SERVER_CPU = os.cpus().length >= 2 && hasTaskset() ? "1" : undefined;

function hasTaskset(): boolean {
  return spawnSync("taskset", ["-c", "0", "true"]).status === 0;
}
const CONNECTIONS = [10, 50];

const SECTIONS = ["ping", "labels", "batches", "reports", "webhooks", "dashboard"] as const;
type Section = (typeof SECTIONS)[number];

/** The sections named on the command line, or all of them. */
function chosenSections(args: readonly string[]): ReadonlySet<Section> {
  const unknown = args.filter((arg) => !(SECTIONS as readonly string[]).includes(arg));
  if (unknown.length > 0) throw new Error(`unknown section ${unknown.join(", ")}; choose from ${SECTIONS.join(", ")}`);
  return new Set(args.length === 0 ? SECTIONS : (args as Section[]));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a process whose output goes to a file, as a deployed server's would (a pipe read by this
 * process would compete with the load generator), and resolves once the file matches `ready`.
 */
async function start(
  command: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  outputFile: string,
): Promise<{ child: ChildProcess; output: string }> {
  const out = fs.openSync(outputFile, "w");
  const [program, args] = SERVER_CPU
    ? ["taskset", ["-c", SERVER_CPU, process.execPath, ...command]]
    : [process.execPath, command];
  const child = spawn(program, args, { env: { ...process.env, ...env }, stdio: ["ignore", out, "inherit"] });
  fs.closeSync(out);
  for (let waited = 0; waited < 30_000; waited += 50) {
    const output = fs.readFileSync(outputFile, "utf8");
    if (ready.test(output)) return { child, output };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`${command.join(" ")} did not become ready`);
}

/** Ends a server and waits until it has exited (it may still be writing files). */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return gone;
}

interface Measurement {
  name: string;
  connections: number;
  rps: number;
  /** Requests per second as a share of the baseline's, in the same rounds. */
  ratio?: number;
  /** Server CPU time per request, µs (Linux), and as a multiple of the baseline's. */
  cpuUs?: number;
  cpuRatio?: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Target {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuUs: number | undefined;
}

/** CPU time (user + system) a process has used so far, in µs, where /proc exists. */
function cpuTimeUs(pid: number | undefined): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

async function round(server: ChildProcess, target: Target, connections: number, seconds: number): Promise<Round> {
  const cpuBefore = cpuTimeUs(server.pid);
  const result = await autocannon({ ...target, connections, duration: seconds, pipelining: 1 });
  const cpuAfter = cpuTimeUs(server.pid);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuUs:
      cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
        ? undefined
        : (cpuAfter - cpuBefore) / result.requests.total,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function summary(name: string, connections: number, rounds: Round[]): Measurement {
  const cpu = rounds.map((r) => r.cpuUs).filter((us): us is number => us !== undefined);
  return {
    name,
    connections,
    rps: median(rounds.map((r) => r.rps)),
    cpuUs: cpu.length === rounds.length ? median(cpu) : undefined,
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
  };
}

/**
 * Porter next to the baseline, in alternating short rounds: this machine's speed drifts by tens
 * of percent within minutes, and a ratio of two runs taken a minute apart measured the drift.
 * Each round's ratio compares runs seconds apart; the figures reported are the medians.
 */
async function compare(
  name: string,
  connections: number,
  porter: { server: ChildProcess; target: Target },
  baseline: { server: ChildProcess; target: Target },
): Promise<{ measured: Measurement; baseRounds: Round[] }> {
  const porterRounds: Round[] = [];
  const baseRounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    baseRounds.push(await round(baseline.server, baseline.target, connections, SECONDS / ROUNDS));
    porterRounds.push(await round(porter.server, porter.target, connections, SECONDS / ROUNDS));
  }
  const measured = summary(name, connections, porterRounds);
  measured.ratio = median(porterRounds.map((r, i) => r.rps / baseRounds[i]!.rps));
  const cpuRatios = porterRounds.flatMap((r, i) => {
    const baseCpu = baseRounds[i]!.cpuUs;
    return r.cpuUs === undefined || baseCpu === undefined ? [] : [baseCpu / r.cpuUs];
  });
  if (cpuRatios.length === ROUNDS) measured.cpuRatio = median(cpuRatios);
  return { measured, baseRounds };
}

async function untilAnswering(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (answer) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A default sandbox card and automatic refills of 10,000.00 whenever the balance nears 1,000.00. */
async function fundByAutomaticRefill(porterUrl: string, auth: Record<string, string>): Promise<void> {
  const send = async (method: string, url: string, body: unknown) => {
    const response = await fetch(`${porterUrl}${url}`, {
      method,
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  };
  await send("POST", "/payment_methods", {
    payment_method: {
      type: "cc",
      account_number: "4242424242424242",
      expiry: "1239",
      verification_code: "123",
      default_payment_method: true,
    },
  });
  await send("PUT", "/meter", { meter: { refill_trigger_balance: 1000, refill_amount: 10000 } });
}

/** The same shipment bought over and over, as UPS Ground, in one label format. */
function shipBody(format: string): string {
  const { shipment } = JSON.parse(RATE_BODY) as { shipment: Record<string, unknown> };
  return JSON.stringify({ shipment: { ...shipment, service_id: 666, label_format: format, label_size: "4x6" } });
}

// The same shipment the HTTP tests rate and buy.
const RATE_BODY = JSON.stringify(rateShipment());

/** Ping and rates next to the baseline, and label purchases, as the sections ask. */
async function measureServer(sections: ReadonlySet<Section>): Promise<Measurement[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-bench-"));
  const [basePort, porterPort] = [await freePort(), await freePort()];
  const baseline = await start(
    ["--import", "tsx", "scripts/bench-baseline.ts", String(basePort)],
    {},
    /ready/,
    path.join(dataDir, "baseline.log"),
  );
  const porter = await start(
    ["dist/cli/index.js", "serve", "--no-worker"],
    {
      PORT: String(porterPort),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      KEY_CONCURRENCY_LIMIT: "1000",
    },
    /test: +pk_test_\w+/,
    path.join(dataDir, "porter.log"),
  );
  const key = /test: +(pk_test_\w+)/.exec(porter.output)?.[1] as string;
  const auth = { authorization: `Bearer ${key}` };
  const porterUrl = `http://127.0.0.1:${porterPort}/api/v2`;
  const rateRequest = {
    url: `${porterUrl}/rates`,
    method: "POST" as const,
    headers: { ...auth, "content-type": "application/json" },
    body: RATE_BODY,
  };

  const shipRequest = (format: string) => ({
    url: `${porterUrl}/shipments/ship`,
    method: "POST" as const,
    headers: { ...auth, "content-type": "application/json" },
    body: shipBody(format),
  });

  // The keys are printed before the server listens.
  await untilAnswering(`http://127.0.0.1:${porterPort}/healthz`);
  // Labels are paid from the meter: a sandbox card refills it automatically while purchases run.
  await fundByAutomaticRefill(porterUrl, auth);

  const rows: Measurement[] = [];
  try {
    // A freshly started server is still compiling its hot paths (V8 needs several seconds of
    // load to settle; a shorter warm-up left the first measured run ~30 % slow): warm up every
    // measured request first, and do not report it. Purchases warm up longest: a fresh label
    // directory on ext4 costs several times more per new file until it holds some ten thousand
    // (the filesystem grows its directory index), and a running store is past that.
    const warmUps = [
      ...(sections.has("ping")
        ? ([
            [{ url: `http://127.0.0.1:${basePort}/ping` }, 5],
            [{ url: `${porterUrl}/test/ping`, headers: auth }, 5],
            [rateRequest, 5],
          ] as const)
        : []),
      ...(sections.has("labels") ? ([[shipRequest("zpl"), 20]] as const) : []),
    ];
    for (const [options, seconds] of warmUps) {
      await autocannon({ ...options, connections: 10, duration: seconds });
    }
    const base = { server: baseline.child, target: { url: `http://127.0.0.1:${basePort}/ping` } };
    for (const connections of sections.has("ping") ? CONNECTIONS : []) {
      const ping = await compare(
        "GET /test/ping (authenticated)",
        connections,
        {
          server: porter.child,
          target: { url: `${porterUrl}/test/ping`, headers: auth },
        },
        base,
      );
      const rates = await compare("POST /rates", connections, { server: porter.child, target: rateRequest }, base);
      const baseRow = summary("baseline (bare Fastify)", connections, [...ping.baseRounds, ...rates.baseRounds]);
      rows.push(
        { ...baseRow, ratio: 1, cpuRatio: baseRow.cpuUs === undefined ? undefined : 1 },
        ping.measured,
        rates.measured,
      );
    }
    for (const format of sections.has("labels") ? ["zpl", "pdf", "png"] : []) {
      const purchases = await round(porter.child, shipRequest(format), 10, SECONDS);
      rows.push(summary(`POST /shipments/ship (${format} label)`, 10, [purchases]));
    }
  } finally {
    await Promise.all([stop(baseline.child), stop(porter.child)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

function printServerTable(rows: readonly Measurement[]): void {
  const pinning = SERVER_CPU ? "servers pinned to CPU 1, load generator to CPU 0" : "no CPU pinning";
  console.log(`\n${os.cpus().length} cores, Node ${process.version}, ${SECONDS} s per run, ${pinning}\n`);
  console.log(
    `Ping and rates alternate with the baseline in ${ROUNDS} rounds of ${SECONDS / ROUNDS} s; figures are the rounds' medians.`,
  );
  console.log("CPU × baseline: the baseline's CPU time per request over this row's (Linux only).\n");
  console.log(
    "| run | connections | req/s | × baseline | CPU µs/request | CPU × baseline | p50 ms | p99 ms | errors |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  const shown = (value: number | undefined, digits: number) => (value === undefined ? "–" : value.toFixed(digits));
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.connections} | ${Math.round(row.rps)} | ${shown(row.ratio, 2)} | ${shown(row.cpuUs, 1)} | ${shown(row.cpuRatio, 2)} | ${row.p50} | ${row.p99} | ${row.errors} |`,
    );
  }
}

async function main(): Promise<void> {
  const sections = chosenSections(process.argv.slice(2));
  if (SERVER_CPU) spawnSync("taskset", ["-p", "-c", "0", String(process.pid)]);
  const serverRows = sections.has("ping") || sections.has("labels") ? await measureServer(sections) : [];
  const webhooks = sections.has("webhooks") ? await measureWebhookDelivery(SERVER_CPU) : undefined;

  if (serverRows.length > 0) printServerTable(serverRows);
  if (sections.has("batches")) {
    console.log("\nA batch created and its SCAN form generated (goal: 10,000 shipments in under 10 s):\n");
    console.log(batchTable([await measureBatch(1000), await measureBatch(10_000)]));
  }
  if (sections.has("reports")) console.log(`\n${reportTable(await measureMeterReport())}`);
  if (sections.has("dashboard")) console.log(`\n${dashboardBundleTable()}`);
  if (webhooks) {
    console.log(
      `\nWebhooks: one worker delivered ${webhooks.events} events in ${webhooks.messages} signed messages at ${Math.round(webhooks.eventsPerSecond)} events/s (goal 2,000).`,
    );
  }
}

await main();
