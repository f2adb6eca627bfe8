import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Resolves when the child process has exited (at once if it already has). */
export function exited(
  child: ChildProcess,
  timeoutMs = 10_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    const timer = setTimeout(
      () => reject(new Error(`process ${child.pid} did not exit within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/**
 * How long a process a test starts may take to become ready. Generous on purpose: it is only
 * reached when something is wrong, and a loaded machine compiling TypeScript as the child loads
 * took longer than the 15 and 30 s limits this replaced.
 */
export const READINESS_LIMIT_MS = 120_000;
/** The timeout of a test or hook that starts one process and waits for it to become ready. */
export const PROCESS_TEST_TIMEOUT_MS = READINESS_LIMIT_MS + 60_000;
/** How much of a child's output a failure shows: its end, where the reason usually is. */
const OUTPUT_TAIL_CHARS = 8_000;

/** Polls until `check` yields a value, every `everyMs`, failing after `timeoutMs`: waits for an event, not a duration. */
export async function waitFor<T>(
  what: () => string,
  check: () => Promise<T | undefined> | T | undefined,
  { everyMs = 50, timeoutMs = 15_000 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A TCP port nobody listens on right now, for a server process a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A child process a test started, with everything it wrote so far. */
export interface RunningProcess {
  child: ChildProcess;
  /** stdout and stderr, interleaved as they arrived. */
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once the child has exited and its output streams are closed. */
  closed: Promise<void>;
}

export interface RunningServer extends RunningProcess {
  baseUrl: string;
}

/** Starts `node --import tsx <args>` from the project root with `env` added, capturing its output. */
export function startProcess(args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let output = "";
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    output += chunk.toString();
  });
  return { child, output: () => output, stdout: () => stdout, stderr: () => stderr, closed };
}

/** The end of what a child wrote, for a failure message. */
function outputTail(running: RunningProcess): string {
  const output = running.output();
  const tail = output.length > OUTPUT_TAIL_CHARS ? `…${output.slice(-OUTPUT_TAIL_CHARS)}` : output;
  return `\n--- output of the child (${running.child.spawnargs.slice(2).join(" ")}) ---\n${tail || "(nothing)"}`;
}

/**
 * Waits until `check` yields a value, up to `READINESS_LIMIT_MS` unless told otherwise; fails at
 * once if the child exits meanwhile. Either failure shows the end of the child's output.
 */
export async function waitForProcess<T>(
  running: RunningProcess,
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  { timeoutMs = READINESS_LIMIT_MS } = {},
): Promise<T> {
  const { child } = running;
  try {
    return await waitFor(
      () => what,
      () => {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`the child exited (${child.exitCode ?? child.signalCode}) before ${what}`);
        }
        return check();
      },
      { timeoutMs },
    );
  } catch (error) {
    // A child that exited may still have output on its way: show all of it.
    if (child.exitCode !== null || child.signalCode !== null) await running.closed;
    throw new Error(`${error instanceof Error ? error.message : String(error)}${outputTail(running)}`, {
      cause: error,
    });
  }
}

/**
 * Starts a server process (`args` after `node --import tsx`, from the project root) on a free port
 * with `env` added, and waits until it answers /healthz.
 */
export async function startServerProcess(
  args: string[],
  env: Record<string, string>,
  { timeoutMs = READINESS_LIMIT_MS } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const running = startProcess(args, { ...env, PORT: String(port), HOST: "127.0.0.1" });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForProcess(
    running,
    `${args.join(" ")} to answer GET /healthz`,
    async () => {
      try {
        return (await fetch(`${baseUrl}/healthz`)).ok ? true : undefined;
      } catch {
        return undefined;
      }
    },
    { timeoutMs },
  );
  return { ...running, baseUrl };
}

/** The CLI's entry point, run from source, for the role helpers below. */
const CLI = "src/cli/index.ts";

/**
 * `porter serve --no-worker`: an API-only process on a free port, ready once it answers /healthz.
 * Give every process of one deployment the same database, DATA_DIR (or file store) and SECRET_KEY.
 */
export function startApiProcess(env: Record<string, string>): Promise<RunningServer> {
  return startServerProcess([CLI, "serve", "--no-worker"], env);
}

/** `porter worker`: a jobs-only process (no HTTP), ready once it says it is running. */
export async function startWorkerProcess(env: Record<string, string>): Promise<RunningProcess> {
  const running = startProcess([CLI, "worker"], env);
  await waitForProcess(running, "the worker's start line", () =>
    /Worker worker-\S+ is running/.test(running.stdout()) ? true : undefined,
  );
  return running;
}

/** Kills what `startProcess` or `startServerProcess` started, if it still runs. */
export async function stopProcess(running: RunningProcess | undefined): Promise<void> {
  const child = running?.child;
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await exited(child).catch(() => {});
  }
}
