/** Servers in processes of their own for the benchmark: started, pinned, watched and stopped. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { rateShipment } from "../test/helpers/shipments.js";

/**
 * On a small machine the load generator and the server fight for the same cores, and the figures
 * then measure the fight. With `taskset` available, each server gets CPU 1 and the benchmark CPU 0.
 */
export const SERVER_CPU = os.cpus().length >= 2 && hasTaskset() ? "1" : undefined;

function hasTaskset(): boolean {
  return spawnSync("taskset", ["-c", "0", "true"]).status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Spawns node with `args`, pinned to the servers' CPU where it can be. */
export function spawnPinned(args: readonly string[], env: NodeJS.ProcessEnv, stdout: number | "ignore"): ChildProcess {
  const [program, programArgs] = SERVER_CPU
    ? ["taskset", ["-c", SERVER_CPU, process.execPath, ...args]]
    : [process.execPath, [...args]];
  return spawn(program, programArgs, { env: { ...process.env, ...env }, stdio: ["ignore", stdout, "inherit"] });
}

/**
 * Starts a process whose output goes to a file, as a deployed server's would (a pipe read by this
 * process would compete with the load generator), and resolves once the file matches `ready`.
 */
export async function start(
  command: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  outputFile: string,
): Promise<{ child: ChildProcess; output: string }> {
  const out = fs.openSync(outputFile, "w");
  const child = spawnPinned(command, env, out);
  fs.closeSync(out);
  for (let waited = 0; waited < 60_000; waited += 50) {
    const output = fs.readFileSync(outputFile, "utf8");
    if (ready.test(output)) return { child, output };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`${command.join(" ")} did not become ready: ${fs.readFileSync(outputFile, "utf8").slice(-2000)}`);
}

/** Ends a server and waits until it has exited (it may still be writing files). */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return gone;
}

export async function untilAnswering(url: string, pollMs = 100): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (answer) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** CPU time (user + system) a process has used so far, in µs, where /proc exists. */
export function cpuTimeUs(pid: number | undefined): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process in MB, where /proc exists. */
export function residentMb(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export interface PorterProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:port/api/v2` */
  url: string;
  origin: string;
  key: string;
  auth: Record<string, string>;
}

/**
 * `porter serve` from the built tree (dist/) with `args`, its data in `dataDir`, its output in
 * `<dataDir>/<name>.log`. A fresh database prints the demo account's test key; an existing one
 * needs the key it printed then (`known.key`).
 */
export async function startPorter(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  dataDir: string,
  name: string,
  known: { port?: number; key?: string } = {},
): Promise<PorterProcess> {
  const port = known.port ?? (await freePort());
  const { child, output } = await start(
    ["dist/cli/index.js", "serve", ...args],
    {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      KEY_CONCURRENCY_LIMIT: "1000",
      ...env,
    },
    known.key ? /already has accounts/ : /test: +pk_test_\w+/,
    path.join(dataDir, `${name}.log`),
  );
  const key = known.key ?? (/test: +(pk_test_\w+)/.exec(output)?.[1] as string);
  const origin = `http://127.0.0.1:${port}`;
  // The keys are printed before the server listens.
  await untilAnswering(`${origin}/healthz`);
  return { child, url: `${origin}/api/v2`, origin, key, auth: { authorization: `Bearer ${key}` } };
}

export const SANDBOX_CARD = {
  payment_method: {
    type: "cc",
    account_number: "4242424242424242",
    expiry: "1239",
    verification_code: "123",
    default_payment_method: true,
  },
};
export const AUTOMATIC_REFILL = { meter: { refill_trigger_balance: 1000, refill_amount: 10000 } };

/** A default sandbox card and automatic refills of 10,000.00 whenever the balance nears 1,000.00. */
export async function fundByAutomaticRefill(porterUrl: string, auth: Record<string, string>): Promise<void> {
  const send = async (method: string, url: string, body: unknown) => {
    const response = await fetch(`${porterUrl}${url}`, {
      method,
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  };
  await send("POST", "/payment_methods", SANDBOX_CARD);
  await send("PUT", "/meter", AUTOMATIC_REFILL);
}

// The same shipment the HTTP tests rate and buy.
export const RATE_BODY = JSON.stringify(rateShipment());

/** The same shipment bought over and over, as UPS Ground, in one label format. */
export function shipBody(format: string): string {
  const { shipment } = JSON.parse(RATE_BODY) as { shipment: Record<string, unknown> };
  return JSON.stringify({ shipment: { ...shipment, service_id: 666, label_format: format, label_size: "4x6" } });
}
