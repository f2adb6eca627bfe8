/**
 * `npm run bench`: every figure of the performance goals (docs/performance.md), each printed with
 * its goal and whether this run met it, on SQLite and, when it is reachable, PostgreSQL
 * (BENCH_POSTGRES_URL, default the local server's `postgres` database; each run makes and drops
 * databases of its own). Throughput and latency are measured next to a bare Fastify server in the
 * same run and reported as ratios, which travel between machines where raw figures do not. Each
 * server runs in its own process; autocannon drives them from this one.
 * BENCH_SECONDS (default 10) sets the length of each run, BENCH_WARMUP_SECONDS (default 5) each
 * warm-up (label purchases warm up four times as long).
 * Sections given as arguments run alone, in this order:
 * - `ping`: authenticated `GET /test/ping` next to the bare server's constant JSON, on the
 *   API-only process (`serve --no-worker`) and on the all-in-one process (`serve`);
 * - `rates`: `POST /rates` with 4,000 distinct questions next to the bare server answering the same
 *   rate answer, serialised per request; and one question asked over and over;
 * - `labels`: create-and-ship (ZPL, PDF, PNG) on both processes in alternating rounds, the
 *   all-in-one as a share of the API-only;
 * - `memory`: resident memory of the all-in-one process idle and after a mixed load;
 * - `statements`: SQL statements per label purchase (scripts/bench-statements.ts);
 * - `startup`: `porter serve` on an existing database to its first answer, and `porter --help`;
 * - `list`: the first page of shipments among 1,000,000 (scripts/bench-list.ts);
 * - `batches`, `reports`, `webhooks` (SQLite; scripts/bench-batch.ts, bench-reports.ts,
 *   bench-webhooks.ts); `libraries`: the hand-written parts against the libraries they replace
 *   (scripts/bench-libraries.ts); `dashboard`: the dashboard bundle's size, and the shipments
 *   list's first render in Chromium on the 1,000,000-row account (scripts/bench-dashboard.ts).
 * E.g. `npm run bench -- labels`.
 */
import { type ChildProcess, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { batchTable, measureBatch } from "./bench-batch.js";
import { dashboardBundleTable, measureDashboardFirstRender } from "./bench-dashboard.js";
import { type Engine, measureShipmentList, recreateDatabase, SHIPMENT_ROWS } from "./bench-list.js";
import {
  cpuTimeUs,
  freePort,
  fundByAutomaticRefill,
  median,
  type PorterProcess,
  RATE_BODY,
  residentMb,
  SERVER_CPU,
  shipBody,
  spawnPinned,
  start,
  startPorter,
  stop,
} from "./bench-processes.js";
import { distinctRateQuestions, QuestionCycle } from "./bench-questions.js";
import { measureMeterReport, reportTable } from "./bench-reports.js";
import { countPurchaseStatements } from "./bench-statements.js";
import { measureWebhookDelivery } from "./bench-webhooks.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
/** Each comparison with the baseline is split into this many alternating rounds. */
const ROUNDS = 5;
const CONNECTIONS = [10, 50];
const DISTINCT_QUESTIONS = 4000;

const SECTIONS = [
  "ping",
  "rates",
  "labels",
  "memory",
  "statements",
  "startup",
  "list",
  "batches",
  "reports",
  "webhooks",
  "libraries",
  "dashboard",
] as const;
type Section = (typeof SECTIONS)[number];

/** The sections named on the command line, or all of them. */
function chosenSections(args: readonly string[]): ReadonlySet<Section> {
  const unknown = args.filter((arg) => !(SECTIONS as readonly string[]).includes(arg));
  if (unknown.length > 0) throw new Error(`unknown section ${unknown.join(", ")}; choose from ${SECTIONS.join(", ")}`);
  return new Set(args.length === 0 ? SECTIONS : (args as Section[]));
}

/** One row of the goals: what was measured, against what goal, and whether it was met. */
interface Goal {
  figure: string;
  engine: string;
  measured: string;
  goal: string;
  met: boolean | undefined;
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
  /** A new body for every request, in turn. */
  questions?: QuestionCycle;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuUs: number | undefined;
}

async function round(server: ChildProcess, target: Target, connections: number, seconds: number): Promise<Round> {
  const cpuBefore = cpuTimeUs(server.pid);
  const { questions, ...request } = target;
  const result = await autocannon({
    ...request,
    connections,
    duration: seconds,
    pipelining: 1,
    ...(questions ? { requests: [{ setupRequest: (asked) => ({ ...asked, body: questions.next() }) }] } : {}),
  });
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

const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** SQLite, and PostgreSQL when its server answers. Each data directory gets a database of its own. */
async function engines(): Promise<Engine[]> {
  const sqlite: Engine = { name: "SQLite", env: () => ({}) };
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  const reachable = await client.connect().then(
    () => true,
    () => false,
  );
  if (!reachable) {
    console.log(`PostgreSQL is not reachable at ${POSTGRES_URL.replace(/\/\/[^@]*@/, "//")}: SQLite only.`);
    return [sqlite];
  }
  await client.end();
  const postgres: Engine = {
    name: "PostgreSQL",
    env: (dataDir) => {
      const url = new URL(POSTGRES_URL);
      url.pathname = `/porter_bench_${createHash("sha1").update(path.basename(dataDir)).digest("hex").slice(0, 12)}`;
      return { DATABASE_URL: url.toString() };
    },
  };
  return [sqlite, postgres];
}

/** A fresh data directory (and database) for one server; `dispose` removes both. */
async function freshStore(
  engine: Engine,
): Promise<{ dataDir: string; env: NodeJS.ProcessEnv; dispose(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-bench-"));
  const env = engine.env(dataDir);
  if (env.DATABASE_URL) await recreateDatabase(env.DATABASE_URL);
  return {
    dataDir,
    env,
    dispose: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (env.DATABASE_URL) await dropDatabase(env.DATABASE_URL);
    },
  };
}

async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => client.end());
}

/**
 * The bare Fastify server: `GET /ping` and, once it is given Porter's answer to a distinct question,
 * `POST /rates` answering that object (started when the first rate answer is known).
 */
class Yardstick {
  #server: { child: ChildProcess; port: number } | undefined;
  readonly #dir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-bench-yardstick-"));
  answerBytes = 0;

  async started(rateAnswer: string): Promise<{ child: ChildProcess; port: number }> {
    if (this.#server) return this.#server;
    const answerFile = path.join(this.#dir, "rate-answer.json");
    fs.writeFileSync(answerFile, rateAnswer);
    this.answerBytes = Buffer.byteLength(rateAnswer);
    const port = await freePort();
    const { child } = await start(
      ["--import", "tsx", "scripts/bench-baseline.ts", String(port), answerFile],
      {},
      /ready/,
      path.join(this.#dir, "baseline.log"),
    );
    this.#server = { child, port };
    return this.#server;
  }

  ping(server: { child: ChildProcess; port: number }) {
    return { server: server.child, target: { url: `http://127.0.0.1:${server.port}/ping` } };
  }

  async stop(): Promise<void> {
    if (this.#server) await stop(this.#server.child);
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }
}

const pingOf = (porter: PorterProcess): Target => ({ url: `${porter.url}/test/ping`, headers: porter.auth });
const ratesOf = (porter: PorterProcess, questions?: QuestionCycle): Target => ({
  url: `${porter.url}/rates`,
  method: "POST",
  headers: { ...porter.auth, "content-type": "application/json" },
  body: RATE_BODY,
  questions,
});
const shipOf = (porter: PorterProcess, format: string): Target => ({
  url: `${porter.url}/shipments/ship`,
  method: "POST",
  headers: { ...porter.auth, "content-type": "application/json" },
  body: shipBody(format),
});

async function warmUp(targets: ReadonlyArray<readonly [Target, number]>): Promise<void> {
  // A freshly started server is still compiling its hot paths (V8 needs several seconds of load
  // to settle): every measured request is warmed up first, and that is not reported. Purchases
  // warm up longest: a fresh label directory on ext4 costs several times more per new file until
  // it holds some ten thousand (the filesystem grows its directory index).
  for (const [target, seconds] of targets) {
    const { questions, ...request } = target;
    await autocannon({
      ...request,
      connections: 10,
      duration: seconds,
      ...(questions ? { requests: [{ setupRequest: (asked) => ({ ...asked, body: questions.next() }) }] } : {}),
    });
  }
}

const LABEL_GOALS: Record<string, number> = { zpl: 1000, pdf: 400, png: 150 };

interface ProcessFigures {
  rows: Measurement[];
  goals: Goal[];
}

/** Porter's answer to `question`, the body the bare server's rates yardstick answers with. */
async function yardstickFor(porter: PorterProcess, yardstick: Yardstick, question: string) {
  const answer = await fetch(`${porter.url}/rates`, {
    method: "POST",
    headers: { ...porter.auth, "content-type": "application/json" },
    body: question,
  });
  return yardstick.started(await answer.text());
}

/** A Porter process of `args` on a fresh store of `engine`, stopped and its store dropped after `measure`. */
async function withPorter<T>(
  engine: Engine,
  args: readonly string[],
  name: string,
  measure: (porter: PorterProcess) => Promise<T>,
): Promise<T> {
  const store = await freshStore(engine);
  const porter = await startPorter(args, store.env, store.dataDir, name);
  try {
    return await measure(porter);
  } finally {
    await stop(porter.child);
    await store.dispose();
  }
}

/** The API-only process (`serve --no-worker`): ping and rates. */
async function measureApiOnly(
  engine: Engine,
  sections: ReadonlySet<Section>,
  yardstick: Yardstick,
  questions: readonly string[],
): Promise<ProcessFigures> {
  return withPorter(engine, ["--no-worker"], "api-only", async (porter) => {
    const rows: Measurement[] = [];
    const goals: Goal[] = [];
    await fundByAutomaticRefill(porter.url, porter.auth);
    const bare = await yardstickFor(porter, yardstick, questions[0] as string);
    const distinct = ratesOf(porter, new QuestionCycle(questions));
    const bareRates: Target = {
      url: `http://127.0.0.1:${bare.port}/rates`,
      method: "POST",
      headers: { "content-type": "application/json" },
      questions: new QuestionCycle(questions),
    };
    await warmUp([
      ...(sections.has("ping") || sections.has("rates")
        ? ([[yardstick.ping(bare).target, WARM_UP_SECONDS]] as const)
        : []),
      ...(sections.has("ping") ? ([[pingOf(porter), WARM_UP_SECONDS]] as const) : []),
      ...(sections.has("rates")
        ? ([
            [ratesOf(porter), WARM_UP_SECONDS],
            [distinct, WARM_UP_SECONDS],
            [bareRates, WARM_UP_SECONDS],
          ] as const)
        : []),
    ]);
    const porterSide = (target: Target) => ({ server: porter.child, target });
    for (const connections of sections.has("ping") || sections.has("rates") ? CONNECTIONS : []) {
      const baseRounds: Round[] = [];
      const pingAndSame: Array<[Section, string, Target]> = [
        ["ping", "GET /test/ping (authenticated), API-only", pingOf(porter)],
        ["rates", "POST /rates, one question over and over", ratesOf(porter)],
      ];
      for (const [section, name, target] of pingAndSame.filter(([wanted]) => sections.has(wanted))) {
        const compared = await compare(name, connections, porterSide(target), yardstick.ping(bare));
        rows.push(compared.measured);
        baseRounds.push(...compared.baseRounds);
        if (section === "ping" && connections === 10) {
          goals.push(pingGoal("API-only (`serve --no-worker`)", engine, compared.measured));
        }
      }
      const baseRow = summary("baseline (bare Fastify ping)", connections, baseRounds);
      rows.push({ ...baseRow, ratio: 1, cpuRatio: baseRow.cpuUs === undefined ? undefined : 1 });
    }
    if (sections.has("rates")) {
      const rates = await compare(`POST /rates, ${questions.length} distinct questions`, 10, porterSide(distinct), {
        server: bare.child,
        target: bareRates,
      });
      const baseRow = summary("baseline (bare Fastify, the same rate answer)", 10, rates.baseRounds);
      rows.push(rates.measured, { ...baseRow, ratio: 1, cpuRatio: baseRow.cpuUs === undefined ? undefined : 1 });
      const { ratio = 0, p99, errors } = rates.measured;
      goals.push({
        figure: `POST /rates, ${questions.length} distinct questions, 10 connections (× the bare server answering the same ${Math.round(yardstick.answerBytes / 1024)} KB answer)`,
        engine: engine.name,
        measured: `${ratio.toFixed(2)}×, p99 ${p99} ms (${Math.round(rates.measured.rps)}/s against ${Math.round(baseRow.rps)}/s${errors ? `, ${errors} errors` : ""})`,
        goal: "≥ 0.5× with p99 ≤ 10 ms",
        met: ratio >= 0.5 && p99 <= 10 && errors === 0,
      });
    }
    return { rows, goals };
  });
}

function pingGoal(process: string, engine: Engine, ping: Measurement): Goal {
  const ratio = ping.ratio ?? 0;
  return {
    figure: `authenticated GET /test/ping × bare Fastify constant JSON, ${process}, 10 connections`,
    engine: engine.name,
    measured: `${ratio.toFixed(2)}× (CPU ${ping.cpuRatio === undefined ? "–" : `${ping.cpuRatio.toFixed(2)}×`})`,
    goal: "≥ 0.8×",
    met: ratio >= 0.8 && ping.errors === 0,
  };
}

/**
 * The all-in-one process (`serve`: the worker in the process, as a one-box user runs it): resident
 * memory idle, ping, and memory after a mixed load.
 */
async function measureAllInOne(
  engine: Engine,
  sections: ReadonlySet<Section>,
  yardstick: Yardstick,
  questions: readonly string[],
): Promise<ProcessFigures> {
  return withPorter(engine, [], "all-in-one", async (porter) => {
    const rows: Measurement[] = [];
    const goals: Goal[] = [];
    // Idle: started, answered, then left alone for a few seconds (the worker polls meanwhile).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idleMb = residentMb(porter.child.pid);
    await fundByAutomaticRefill(porter.url, porter.auth);
    await warmUp([...(sections.has("ping") ? ([[pingOf(porter), WARM_UP_SECONDS]] as const) : [])]);
    if (sections.has("ping")) {
      const bare = await yardstickFor(porter, yardstick, questions[0] as string);
      const ping = await compare(
        "GET /test/ping (authenticated), all-in-one",
        10,
        { server: porter.child, target: pingOf(porter) },
        yardstick.ping(bare),
      );
      rows.push(ping.measured);
      goals.push(pingGoal("all-in-one (`serve`)", engine, ping.measured));
    }
    if (sections.has("memory")) {
      // A mixed load: pings, distinct rate questions, purchases and shipment lists at once.
      const cycle = new QuestionCycle(questions);
      const mixed: Array<[Target, number]> = [
        [pingOf(porter), 2],
        [ratesOf(porter, cycle), 4],
        [shipOf(porter, "zpl"), 3],
        [{ url: `${porter.url}/shipments`, headers: porter.auth }, 1],
      ];
      await Promise.all(
        mixed.map(([target, connections]) => {
          const { questions: asked, ...request } = target;
          return autocannon({
            ...request,
            connections,
            duration: SECONDS,
            ...(asked ? { requests: [{ setupRequest: (next) => ({ ...next, body: asked.next() }) }] } : {}),
          });
        }),
      );
      const loadedMb = residentMb(porter.child.pid);
      const mb = (value: number | undefined) => (value === undefined ? "–" : `${Math.round(value)} MB`);
      goals.push(
        {
          figure: "resident memory, all-in-one process, idle (started, 3 s alone)",
          engine: engine.name,
          measured: mb(idleMb),
          goal: "≤ 120 MB",
          met: idleMb === undefined ? undefined : idleMb <= 120,
        },
        {
          figure: `resident memory, all-in-one process, after ${SECONDS} s of mixed load (and the rows above)`,
          engine: engine.name,
          measured: mb(loadedMb),
          goal: "≤ 200 MB",
          met: loadedMb === undefined ? undefined : loadedMb <= 200,
        },
      );
    }
    return { rows, goals };
  });
}

/**
 * Label purchases on the API-only and the all-in-one process at once, in alternating rounds (the
 * machine's speed drifts within minutes, and one run of each a minute apart measured the drift):
 * the process not measured is stopped (SIGSTOP) meanwhile, so its worker takes nothing from the
 * other's round, and resumed after.
 */
async function measureLabels(engine: Engine): Promise<ProcessFigures> {
  const stores = [await freshStore(engine), await freshStore(engine)] as const;
  const apiOnly = await startPorter(["--no-worker"], stores[0].env, stores[0].dataDir, "labels-api-only");
  const allInOne = await startPorter([], stores[1].env, stores[1].dataDir, "labels-all-in-one");
  const rows: Measurement[] = [];
  const goals: Goal[] = [];
  /** `work` on `porter` while the other process is stopped. */
  const alone = async <T>(porter: PorterProcess, work: () => Promise<T>): Promise<T> => {
    const other = porter === apiOnly ? allInOne : apiOnly;
    other.child.kill("SIGSTOP");
    try {
      return await work();
    } finally {
      other.child.kill("SIGCONT");
    }
  };
  try {
    for (const porter of [apiOnly, allInOne]) {
      await fundByAutomaticRefill(porter.url, porter.auth);
      await alone(porter, () => warmUp([[shipOf(porter, "zpl"), 4 * WARM_UP_SECONDS]]));
    }
    for (const format of ["zpl", "pdf", "png"]) {
      const apiRounds: Round[] = [];
      const allRounds: Round[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        apiRounds.push(await alone(apiOnly, () => round(apiOnly.child, shipOf(apiOnly, format), 10, SECONDS / ROUNDS)));
        allRounds.push(
          await alone(allInOne, () => round(allInOne.child, shipOf(allInOne, format), 10, SECONDS / ROUNDS)),
        );
      }
      const api = summary(`POST /shipments/ship (${format} label), API-only`, 10, apiRounds);
      const all = summary(`POST /shipments/ship (${format} label), all-in-one`, 10, allRounds);
      // A round in which no purchase finished (a slow machine, short rounds) gives no share.
      const shares = allRounds.flatMap((r, i) => (apiRounds[i]!.rps > 0 ? [r.rps / apiRounds[i]!.rps] : []));
      all.ratio = shares.length > 0 ? median(shares) : undefined;
      rows.push(api, all);
      const goal = LABEL_GOALS[format]!;
      const cpuGoalMet = format !== "zpl" || api.cpuUs === undefined || api.cpuUs <= 1000;
      const errors = (row: Measurement) => (row.errors ? `, ${row.errors} errors` : "");
      goals.push(
        {
          figure: `create-and-ship ${format.toUpperCase()}, API-only process, 10 connections`,
          engine: engine.name,
          measured: `${Math.round(api.rps)}/s, ${api.cpuUs === undefined ? "–" : (api.cpuUs / 1000).toFixed(2)} ms CPU each${errors(api)}`,
          goal: `≥ ${goal}/s${format === "zpl" ? " (≤ 1 ms CPU each)" : ""}`,
          met: api.rps >= goal && cpuGoalMet && api.errors === 0,
        },
        {
          figure: `create-and-ship ${format.toUpperCase()}, all-in-one process × API-only (alternating rounds)`,
          engine: engine.name,
          measured: `${all.ratio === undefined ? "–" : `${all.ratio.toFixed(2)}×`} (${Math.round(all.rps)}/s against ${Math.round(api.rps)}/s${errors(all)})`,
          goal: "≥ 0.8×",
          met: all.ratio === undefined ? undefined : all.ratio >= 0.8 && all.errors === 0,
        },
      );
    }
  } finally {
    await Promise.all([stop(apiOnly.child), stop(allInOne.child)]);
    await Promise.all(stores.map((store) => store.dispose()));
  }
  return { rows, goals };
}

/**
 * `porter serve` on a built tree and an existing database, to its first answer of `/healthz`:
 * wall time and the CPU time the process used by then, the median of three starts.
 */
async function measureStartUp(engine: Engine): Promise<Goal[]> {
  const store = await freshStore(engine);
  try {
    const first = await startPorter(["--no-worker"], store.env, store.dataDir, "first-start");
    await stop(first.child);
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const out = fs.openSync(path.join(store.dataDir, `start-${attempt}.log`), "w");
      const started = performance.now();
      const child = spawnPinned(
        ["dist/cli/index.js", "serve"],
        { PORT: String(port), HOST: "127.0.0.1", DATA_DIR: store.dataDir, LOG_LEVEL: "info", ...store.env },
        out,
      );
      fs.closeSync(out);
      let cpu: number | undefined;
      for (;;) {
        const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (response) => response.ok,
          () => false,
        );
        if (ok) {
          cpu = cpuTimeUs(child.pid);
          break;
        }
        if (child.exitCode !== null || performance.now() - started > 60_000) throw new Error("serve did not answer");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      walls.push((performance.now() - started) / 1000);
      if (cpu !== undefined) cpus.push(cpu / 1e6);
      await stop(child);
    }
    const wall = median(walls);
    const cpu = cpus.length === walls.length ? median(cpus) : undefined;
    return [
      {
        figure: "start-up: `porter serve` (built, existing database) to its first answer, median of 3",
        engine: engine.name,
        measured: `${wall.toFixed(2)} s, ${cpu === undefined ? "–" : cpu.toFixed(2)} CPU-s`,
        goal: "≤ 1 s and ≤ 1 CPU-s",
        met: wall <= 1 && (cpu === undefined || cpu <= 1),
      },
    ];
  } finally {
    await store.dispose();
  }
}

/** `porter --help`, the median of five. */
function measureHelp(): Goal {
  const times: number[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, ["bin/porter.js", "--help"], { stdio: "ignore" });
    if (result.status !== 0) throw new Error("porter --help failed");
    times.push((performance.now() - started) / 1000);
  }
  const wall = median(times);
  return {
    figure: "`porter --help`, median of 5",
    engine: "–",
    measured: `${wall.toFixed(2)} s`,
    goal: "≤ 0.3 s",
    met: wall <= 0.3,
  };
}

async function measureStatements(engine: Engine): Promise<Goal> {
  const store = await freshStore(engine);
  try {
    const counted = await countPurchaseStatements(store.env);
    return {
      figure: "SQL statements per label purchase (UPS ZPL, automatic refill on; begin and commit included)",
      engine: engine.name,
      measured: `${counted.warm} (the first purchase: ${counted.cold})`,
      goal: "≤ 13",
      met: counted.warm <= 13,
    };
  } finally {
    await store.dispose();
  }
}

function printServerTable(engine: string, rows: readonly Measurement[]): void {
  const pinning = SERVER_CPU ? "servers pinned to CPU 1, load generator to CPU 0" : "no CPU pinning";
  console.log(`\n${engine}: ${os.cpus().length} cores, Node ${process.version}, ${SECONDS} s per run, ${pinning}\n`);
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

function printGoals(goals: readonly Goal[]): void {
  console.log("\nThe goals (docs/performance.md), this run:\n");
  console.log("| figure | engine | this run | goal | met |");
  console.log("|---|---|---|---|---|");
  for (const goal of goals) {
    const met = goal.met === undefined ? "not measured" : goal.met ? "met" : "not met";
    console.log(`| ${goal.figure} | ${goal.engine} | ${goal.measured} | ${goal.goal} | ${met} |`);
  }
}

async function main(): Promise<void> {
  const sections = chosenSections(process.argv.slice(2));
  if (SERVER_CPU) spawnSync("taskset", ["-p", "-c", "0", String(process.pid)]);
  else console.log("No taskset (or a single core): servers and the load generator share the cores.");
  const goals: Goal[] = [];
  const serverRows: Array<[string, Measurement[]]> = [];
  const servers = ["ping", "rates", "labels", "memory"].some((section) => sections.has(section as Section));
  const questions = servers ? distinctRateQuestions(DISTINCT_QUESTIONS) : [];
  const yardstick = new Yardstick();
  try {
    for (const engine of await engines()) {
      if (servers) {
        const apiOnly =
          sections.has("ping") || sections.has("rates")
            ? await measureApiOnly(engine, sections, yardstick, questions)
            : { rows: [], goals: [] };
        const allInOne =
          sections.has("ping") || sections.has("memory")
            ? await measureAllInOne(engine, sections, yardstick, questions)
            : { rows: [], goals: [] };
        const labels = sections.has("labels") ? await measureLabels(engine) : { rows: [], goals: [] };
        serverRows.push([engine.name, [...apiOnly.rows, ...allInOne.rows, ...labels.rows]]);
        goals.push(...apiOnly.goals, ...allInOne.goals, ...labels.goals);
      }
      if (sections.has("statements")) goals.push(await measureStatements(engine));
      if (sections.has("startup")) goals.push(...(await measureStartUp(engine)));
      if (sections.has("list")) {
        const list = await measureShipmentList(engine);
        goals.push({
          figure: `list shipments, first page, ${SHIPMENT_ROWS.toLocaleString("en-US")} rows (median of 20)`,
          engine: engine.name,
          measured: `${list.medianMs.toFixed(1)} ms (first ${list.firstMs.toFixed(1)} ms; ${list.cpuMsPerRequest === undefined ? "–" : list.cpuMsPerRequest.toFixed(1)} ms server CPU${list.seededSeconds === undefined ? "" : `; seeded in ${list.seededSeconds.toFixed(0)} s`})`,
          goal: "< 20 ms",
          met: list.medianMs < 20,
        });
        goals.push({
          figure: "the same, searched by status / by one tracking number (median of 5)",
          engine: engine.name,
          measured: `${list.statusMs.toFixed(1)} ms / ${list.trackingNumberMs.toFixed(1)} ms`,
          goal: "< 20 ms",
          met: list.statusMs < 20 && list.trackingNumberMs < 20,
        });
      }
      if (sections.has("dashboard")) {
        const render = await measureDashboardFirstRender(engine);
        goals.push({
          figure: `dashboard: the shipments list's first render in Chromium, ${SHIPMENT_ROWS.toLocaleString("en-US")} rows (median of 5)`,
          engine: engine.name,
          measured: `${render.medianMs.toFixed(0)} ms (the first after signing in ${render.firstMs.toFixed(0)} ms)`,
          goal: "< 1 s",
          met: render.medianMs < 1000,
        });
      }
    }
  } finally {
    await yardstick.stop();
  }
  if (sections.has("startup")) goals.push(measureHelp());
  const webhooks = sections.has("webhooks") ? await measureWebhookDelivery(SERVER_CPU) : undefined;

  for (const [engine, rows] of serverRows) printServerTable(engine, rows);
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
  if (sections.has("libraries")) {
    const { libraryTable, measureLibraries } = await import("./bench-libraries.js");
    console.log(`\n${libraryTable(await measureLibraries())}`);
  }
  if (goals.length > 0) printGoals(goals);
}

await main();
