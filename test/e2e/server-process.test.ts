import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import {
  exited,
  PROCESS_TEST_TIMEOUT_MS,
  type RunningServer,
  startServerProcess,
  stopProcess,
  waitFor,
  waitForProcess,
} from "../helpers/processes.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("the server as a real process", () => {
  let testDb: TestDatabase;
  let dataDir: string;
  let server: RunningServer | undefined;
  let baseUrl: string;
  let testKey: string;
  let liveKey: string;
  const stdout = () => server?.stdout() ?? "";
  const stderr = () => server?.stderr() ?? "";

  /** Complete lines written so far (a chunk may end mid-line). */
  const completeLines = (): string[] => stdout().split("\n").slice(0, -1);
  const logLines = (): Array<Record<string, unknown>> =>
    completeLines()
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-e2e-"));
    const running = await startServerProcess(["src/cli/index.ts", "serve"], {
      ...testDb.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
    });
    server = running;
    baseUrl = running.baseUrl;
    [testKey, liveKey] = await waitForProcess(running, "the demo keys on stdout", () => {
      const test = /^ {2}test: +(pk_test_\S+)$/m.exec(running.stdout())?.[1];
      const live = /^ {2}production: +(pk_live_\S+)$/m.exec(running.stdout())?.[1];
      return test && live ? ([test, live] as const) : undefined;
    });
  }, PROCESS_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await stopProcess(server);
    await testDb.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates the demo account on the empty database and prints its keys", async () => {
    expect(stdout()).toMatch(/Created the demo account \d+ \(user demo@porter\.local\)/);
    expect(testKey).toMatch(/^pk_test_[0-9A-Za-z]{32}$/);
    expect(liveKey).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    const listening = await waitFor(
      () => `the "Porter is listening" log line\nstdout: ${stdout()}`,
      () => logLines().find((line) => line.msg === "Porter is listening"),
    );
    expect(listening).toMatchObject({ level: 30, worker: true, database: testDb.db.dialect });
    // The start-up line says where it listens and who can reach it.
    expect(listening).toMatchObject({
      address: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      reach: expect.stringContaining("this machine only; set HOST=0.0.0.0"),
    });
    // It used the test database, not a file in DATA_DIR.
    expect(fs.existsSync(path.join(dataDir, "porter.sqlite"))).toBe(false);
  });

  it("answers GET /api/v2/test/ping over real HTTP with the demo key", async () => {
    const response = await fetch(`${baseUrl}/api/v2/test/ping`, { headers: { authorization: `Bearer ${testKey}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "pong" });
    expect(response.headers.get("x-request-id")).toMatch(UUID);

    const live = await fetch(`${baseUrl}/api/v2/test/ping`, { headers: { authorization: `Bearer ${liveKey}` } });
    expect(live.status).toBe(200);
  });

  it("rejects a request without a valid key", async () => {
    const response = await fetch(`${baseUrl}/api/v2/test/ping`, {
      headers: { authorization: "Bearer pk_test_00000000000000000000000000000000" },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("x-request-id")).toMatch(UUID);
  });

  it("echoes a well-formed incoming X-Request-Id, and replaces a malformed one", async () => {
    const echoed = await fetch(`${baseUrl}/api/v2/test/ping`, {
      headers: { authorization: `Bearer ${testKey}`, "x-request-id": "abc-123" },
    });
    expect(echoed.status).toBe(200);
    expect(echoed.headers.get("x-request-id")).toBe("abc-123");

    const replaced = await fetch(`${baseUrl}/healthz`, { headers: { "x-request-id": "not a valid id!" } });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get("x-request-id")).toMatch(UUID);
  });

  it("logs one JSON line per request with its request id, never the key", async () => {
    const line = await waitFor(
      () => `the log line of request abc-123\nstdout: ${stdout()}`,
      () => logLines().find((l) => l.reqId === "abc-123" && l.msg === "request"),
    );
    expect(line).toMatchObject({ route: "/api/v2/test/ping", method: "GET", status: 200, url: "/api/v2/test/ping" });

    const requests = logLines().filter((l) => l.msg === "request");
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const request of requests) expect(request.reqId).toEqual(expect.any(String));
    expect(requests.some((l) => l.status === 401)).toBe(true);

    // Every line on stdout other than the start-up banner is JSON, and none carries a key.
    const bannerLines = completeLines().filter((l) => l !== "" && !l.startsWith("{"));
    expect(bannerLines.every((l) => /demo account|^ {2}(test|production):/.test(l))).toBe(true);
    for (const raw of completeLines().filter((l) => l.startsWith("{"))) {
      expect(raw).not.toContain(testKey);
      expect(raw).not.toContain(liveKey);
      expect(raw.toLowerCase()).not.toContain("bearer");
    }
    expect(stdout().split(testKey).length - 1).toBe(1);
    expect(stderr()).not.toContain(testKey);
  });

  it("shuts down cleanly on SIGTERM with exit code 0", async () => {
    const child = (server as RunningServer).child;
    expect(child.exitCode).toBeNull();
    child.kill("SIGTERM");
    expect(await exited(child, 10_000)).toEqual({ code: 0, signal: null });
    expect(
      logLines().some((l) => l.msg === "shutting down: finishing in-flight requests" && l.signal === "SIGTERM"),
    ).toBe(true);
    // Written after the server closed, while the worker stopped: flushed before the process exits.
    expect(logLines().at(-1)).toMatchObject({
      msg: "the job worker stopped",
      worker: expect.stringMatching(/^worker-/),
    });
    await expect(fetch(`${baseUrl}/healthz`)).rejects.toThrow();
  });
});
