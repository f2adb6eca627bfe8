import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRUNE_JOB } from "../../src/domain/retention/prune.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import {
  exited,
  PROCESS_TEST_TIMEOUT_MS,
  type RunningProcess,
  type RunningServer,
  startApiProcess,
  startWorkerProcess,
  stopProcess,
  waitFor,
  waitForProcess,
} from "../helpers/processes.js";
import { rateShipment } from "../helpers/shipments.js";

/**
 * The roles a deployment runs: `serve --no-worker` answers HTTP and runs no jobs, `worker` runs
 * jobs and answers no HTTP, and SIGTERM drains each: a request in flight is answered, a new
 * connection is refused, the process exits 0.
 */
describe("an API-only process and a worker-only process on one database", () => {
  let testDb: TestDatabase;
  let dataDir: string;
  let api: RunningServer;
  let worker: RunningProcess | undefined;
  let testKey: string;

  const jobsOf = (kind: string) =>
    testDb.db.kysely.selectFrom("jobs").select(["id", "state"]).where("kind", "=", kind).orderBy("id").execute();

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-roles-"));
    api = await startApiProcess({ ...testDb.env, DATA_DIR: dataDir, LOG_LEVEL: "info" });
    testKey = await waitForProcess(
      api,
      "the demo test key",
      () => /^ {2}test: +(pk_test_\S+)$/m.exec(api.stdout())?.[1],
    );
  }, PROCESS_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await stopProcess(api);
    await stopProcess(worker);
    await testDb.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("the API-only process queues no recurring work and runs none", async () => {
    const response = await fetch(`${api.baseUrl}/readyz`);
    expect(response.status).toBe(200);
    expect(await jobsOf(PRUNE_JOB)).toEqual([]);
    // The log is written in the background: wait for the line rather than expect it already there.
    const listening = await waitForProcess(api, "the 'Porter is listening' line", () =>
      api
        .stdout()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === "Porter is listening"),
    );
    expect(listening).toMatchObject({ worker: false });
  });

  it(
    "the worker-only process runs the jobs, and stops on SIGTERM with exit code 0",
    async () => {
      const running = await startWorkerProcess({ ...testDb.env, DATA_DIR: dataDir });
      worker = running;
      // Its first pruning run is due at once; when it is done, the next one waits an interval.
      const jobs = await waitForProcess(running, "the first pruning run to finish", async () => {
        const rows = await jobsOf(PRUNE_JOB);
        return rows.some((row) => row.state === "done") ? rows : undefined;
      });
      expect(jobs.map((job) => job.state)).toEqual(["done", "queued"]);

      running.child.kill("SIGTERM");
      expect(await exited(running.child, 30_000)).toEqual({ code: 0, signal: null });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "answers a request in flight when SIGTERM arrives, refuses new connections, and exits 0",
    async () => {
      const body = JSON.stringify(rateShipment());
      const url = new URL(`${api.baseUrl}/api/v2/rates`);
      let continued = false;
      let finish: (rest: string) => void = () => {};
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          url,
          {
            method: "POST",
            headers: {
              authorization: `Bearer ${testKey}`,
              "content-type": "application/json",
              "content-length": String(Buffer.byteLength(body)),
              // The server's 100 Continue says it has the request: it is in flight from then on.
              expect: "100-continue",
            },
          },
          (response) => {
            let text = "";
            response.on("data", (chunk: Buffer) => {
              text += chunk.toString();
            });
            response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
          },
        );
        request.on("error", reject);
        request.on("continue", () => {
          continued = true;
        });
        request.flushHeaders();
        finish = (rest) => request.end(rest);
      });
      await waitFor(
        () => "the server's 100 Continue",
        () => (continued ? true : undefined),
      );

      api.child.kill("SIGTERM");
      await waitFor(
        () => `the server to stop accepting connections\n${api.output()}`,
        async () => {
          try {
            await fetch(`${api.baseUrl}/healthz`);
            return undefined;
          } catch {
            return true;
          }
        },
      );
      // The request that was in flight still gets its whole answer.
      finish(body);
      const { status, body: text } = await answer;
      expect(status, text).toBe(201);
      expect(JSON.parse(text)).toHaveProperty("service_rates");
      expect(await exited(api.child, 30_000)).toEqual({ code: 0, signal: null });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
