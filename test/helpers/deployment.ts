import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "./database.js";
import {
  READINESS_LIMIT_MS,
  type RunningProcess,
  type RunningServer,
  startProcess,
  startServerProcess,
  stopProcess,
  waitForProcess,
} from "./processes.js";
import { startS3Server, type TestS3Server } from "./s3-server.js";
import { TcpProxy } from "./tcp-proxy.js";

/**
 * A scaled deployment as docs/deploying.md draws it: API-only processes and workers on one
 * PostgreSQL database (optionally reached through a TCP proxy the test can cut) and one bucket of
 * a real S3-compatible server. Processes can be killed and replaced one by one.
 */
export interface Deployment {
  testDb: TestDatabase;
  s3: TestS3Server;
  /** Between the processes and PostgreSQL, when asked for. */
  proxy?: TcpProxy;
  apis: RunningServer[];
  workers: RunningProcess[];
  /** The demo account's test key, printed by the process that created it. */
  testKey: string;
  /** The environment every process of the deployment gets. */
  env: Record<string, string>;
  startApi(): Promise<RunningServer>;
  startWorker(): Promise<RunningProcess>;
  close(): Promise<void>;
}

/**
 * How long each of the deployment's processes may take to become ready: several start at once,
 * each compiling the sources as it loads, so on a loaded 2-core machine it is beyond one process's
 * limit. Only reached when something is wrong.
 */
export const DEPLOYMENT_READINESS_MS = 2 * READINESS_LIMIT_MS;
/** The timeout of the hook that starts a deployment. */
export const DEPLOYMENT_START_TIMEOUT_MS = 2 * DEPLOYMENT_READINESS_MS + 60_000;

const DEMO_TEST_KEY = /^ {2}test: +(pk_test_\S+)$/m;

export async function startDeployment(
  options: { apis?: number; workers?: number; proxy?: boolean; env?: Record<string, string> } = {},
): Promise<Deployment> {
  const s3 = await startS3Server();
  const testDb = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-scaled-"));
  let databaseUrl = testDb.url;
  let proxy: TcpProxy | undefined;
  if (options.proxy) {
    const target = new URL(testDb.url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    target.port = String(proxy.port);
    databaseUrl = target.toString();
  }
  const env = {
    ...s3.env("scaled"),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    // The webhook receiver and the store stand-in listen on loopback.
    OUTBOUND_ALLOW_PRIVATE_TARGETS: "true",
    MANIFEST_DELAY_MS: "0",
    JOB_POLL_MS: "100",
    WEBHOOK_RETRY_BASE_MS: "200",
    ...options.env,
  };
  const deployment: Deployment = {
    testDb,
    s3,
    proxy,
    apis: [],
    workers: [],
    testKey: "",
    env,
    startApi: async () => {
      const api = await startServerProcess(["src/cli/index.ts", "serve", "--no-worker"], env, {
        timeoutMs: DEPLOYMENT_READINESS_MS,
      });
      deployment.apis.push(api);
      return api;
    },
    startWorker: async () => {
      const worker = startProcess(["src/cli/index.ts", "worker"], env);
      deployment.workers.push(worker);
      await waitForProcess(
        worker,
        "the worker's start line",
        () => (/Worker worker-\S+ is running/.test(worker.stdout()) ? true : undefined),
        { timeoutMs: DEPLOYMENT_READINESS_MS },
      );
      return worker;
    },
    close: async () => {
      for (const running of [...deployment.apis, ...deployment.workers]) await stopProcess(running);
      await proxy?.close();
      await testDb.drop();
      await s3.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    // The first process migrates and makes the demo account; the others start together after it.
    const first = await deployment.startApi();
    deployment.testKey = await waitForProcess(
      first,
      "the demo test key",
      () => DEMO_TEST_KEY.exec(first.stdout())?.[1],
    );
    await Promise.all([
      ...Array.from({ length: (options.apis ?? 2) - 1 }, () => deployment.startApi()),
      ...Array.from({ length: options.workers ?? 2 }, () => deployment.startWorker()),
    ]);
  } catch (error) {
    await deployment.close();
    throw error;
  }
  return deployment;
}

/** A parsed answer, loose as `app.inject`'s `json()` is in the in-process tests. */
export type ApiJson = ReturnType<typeof JSON.parse>;

/** An API call to one process: status, parsed body and headers. */
export async function callApi(
  baseUrl: string,
  key: string,
  method: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: ApiJson; headers: Headers; text: string }> {
  const response = await fetch(`${baseUrl}/api/v2${route}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let json: ApiJson = {};
  try {
    json = JSON.parse(text);
  } catch {
    // CSV and other bodies stay in `text`.
  }
  return { status: response.status, json, headers: response.headers, text };
}
