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

export interface RunningServer {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  baseUrl: string;
}

/**
 * Starts a server process (`args` after `node --import tsx`, from the project root) on a free port
 * with `env` added, and waits until it answers /healthz.
 */
export async function startServerProcess(
  args: string[],
  env: Record<string, string>,
  options: { startupTimeoutMs?: number } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(
    () => `${args.join(" ")} to answer /healthz\noutput: ${output}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`the process exited early (${child.exitCode}): ${output}`);
      try {
        return (await fetch(`${baseUrl}/healthz`)).ok ? true : undefined;
      } catch {
        return undefined;
      }
    },
    { timeoutMs: options.startupTimeoutMs ?? 30_000 },
  );
  return { child, output: () => output, baseUrl };
}

/** Kills what `startServerProcess` started, if it still runs. */
export async function stopServerProcess(server: RunningServer | undefined): Promise<void> {
  const child = server?.child;
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await exited(child).catch(() => {});
  }
}
