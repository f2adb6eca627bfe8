/**
 * `npm run bench`: throughput and latency of Porter next to a bare Fastify server measured in the
 * same run on the same machine, reported as ratios so the figures travel between machines.
 * Each server runs in its own process; autocannon drives them from this one.
 * BENCH_SECONDS (default 10) sets the length of each run. Label purchases (ZPL, PDF, PNG) are
 * measured at 10 connections; their req/s is labels bought per second.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { rateShipment } from "../test/helpers/shipments.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/**
 * On a small machine the load generator and the server fight for the same cores, and the figures
 * then measure the fight. With `taskset` available, each server gets CPU 1 and this process CPU 0.
 */
const SERVER_CPU = os.cpus().length >= 2 && hasTaskset() ? "1" : undefined;

function hasTaskset(): boolean {
  return spawnSync("taskset", ["-c", "0", "true"]).status === 0;
}
const CONNECTIONS = [10, 50];

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
  p50: number;
  p99: number;
  errors: number;
}

async function measure(
  name: string,
  connections: number,
  options: { url: string; method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
): Promise<Measurement> {
  const result = await autocannon({ ...options, connections, duration: SECONDS, pipelining: 1 });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, connections, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

/** The same shipment bought over and over, as UPS Ground, in one label format. */
function shipBody(format: string): string {
  const { shipment } = JSON.parse(RATE_BODY) as { shipment: Record<string, unknown> };
  return JSON.stringify({ shipment: { ...shipment, service_id: 92001, label_format: format, label_size: "4x6" } });
}

// The same shipment the HTTP tests rate and buy.
const RATE_BODY = JSON.stringify(rateShipment());

async function main(): Promise<void> {
  if (SERVER_CPU) spawnSync("taskset", ["-p", "-c", "0", String(process.pid)]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-bench-"));
  const [basePort, porterPort] = [await freePort(), await freePort()];
  const baseline = await start(
    ["--import", "tsx", "scripts/bench-baseline.ts", String(basePort)],
    {},
    /ready/,
    path.join(dataDir, "baseline.log"),
  );
  const porter = await start(
    ["dist/cli.js", "serve", "--no-worker"],
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

  const rows: Measurement[] = [];
  try {
    // A freshly started server is still compiling its hot paths (V8 needs several seconds of
    // load to settle; a shorter warm-up left the first measured run ~30 % slow): warm up every
    // measured request first, and do not report it. Purchases warm up longest: a fresh label
    // directory on ext4 costs several times more per new file until it holds some ten thousand
    // (the filesystem grows its directory index), and a running store is past that.
    for (const [options, seconds] of [
      [{ url: `http://127.0.0.1:${basePort}/ping` }, 5],
      [{ url: `${porterUrl}/test/ping`, headers: auth }, 5],
      [rateRequest, 5],
      [shipRequest("zpl"), 20],
    ] as const) {
      await autocannon({ ...options, connections: 10, duration: seconds });
    }
    for (const connections of CONNECTIONS) {
      rows.push(await measure("baseline (bare Fastify)", connections, { url: `http://127.0.0.1:${basePort}/ping` }));
      rows.push(
        await measure("GET /test/ping (authenticated)", connections, { url: `${porterUrl}/test/ping`, headers: auth }),
      );
      rows.push(await measure("POST /rates", connections, rateRequest));
    }
    for (const format of ["zpl", "pdf", "png"]) {
      rows.push(await measure(`POST /shipments/ship (${format} label)`, 10, shipRequest(format)));
    }
  } finally {
    await Promise.all([stop(baseline.child), stop(porter.child)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const pinning = SERVER_CPU ? "servers pinned to CPU 1, load generator to CPU 0" : "no CPU pinning";
  console.log(`\n${os.cpus().length} cores, Node ${process.version}, ${SECONDS} s per run, ${pinning}\n`);
  console.log("| run | connections | req/s | × baseline | p50 ms | p99 ms | errors |");
  console.log("|---|---|---|---|---|---|---|");
  for (const row of rows) {
    const base = rows.find((r) => r.connections === row.connections && r.name.startsWith("baseline"))!;
    console.log(
      `| ${row.name} | ${row.connections} | ${Math.round(row.rps)} | ${(row.rps / base.rps).toFixed(2)} | ${row.p50} | ${row.p99} | ${row.errors} |`,
    );
  }
}

await main();
