import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.js";
import { JobQueue, type JobRow } from "../../src/jobs/queue.js";
import { type JobHandlers, Worker } from "../../src/jobs/worker.js";
import { type Db, openDatabase } from "../../src/storage/db.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { loggedLines } from "../helpers/log-lines.js";

const LEASE_MS = 30_000;

describe("JobQueue and Worker", () => {
  let testDb: TestDatabase;
  let clock: ManualClock;
  let queue: JobQueue;

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(() => testDb.drop());

  beforeEach(async () => {
    await testDb.db.kysely.deleteFrom("jobs").execute();
    clock = new ManualClock("2026-01-15T15:00:00.000Z");
    queue = new JobQueue(testDb.db.kysely, testDb.db.dialect, clock);
  });

  const row = async (id: number): Promise<JobRow> => {
    const found = await queue.find(id);
    if (!found) throw new Error(`job ${id} is missing`);
    return found;
  };

  const worker = (handlers: JobHandlers, retryBaseMs = 1000, q: JobQueue = queue) =>
    new Worker(q, handlers, { leaseMs: LEASE_MS, pollMs: 10, retryBaseMs });

  it("enqueues, claims with a lease, and completes a job", async () => {
    const id = await queue.enqueue("email", { to: "a@b.co", n: 3 });
    const queued = await row(id);
    expect(queued).toMatchObject({
      kind: "email",
      state: "queued",
      attempts: 0,
      max_attempts: 5,
      run_at: "2026-01-15T15:00:00.000Z",
      locked_by: null,
      locked_until: null,
      last_error: null,
    });
    expect(JSON.parse(queued.payload)).toEqual({ to: "a@b.co", n: 3 });

    const claimed = await queue.claim("w1", LEASE_MS);
    expect(claimed).toMatchObject({
      id,
      state: "running",
      attempts: 1,
      locked_by: "w1",
      locked_until: "2026-01-15T15:00:30.000Z",
    });
    // Nothing else is due, and a job under a live lease is not handed out twice.
    expect(await queue.claim("w2", LEASE_MS)).toBeUndefined();

    await queue.complete(id, "w1");
    expect(await row(id)).toMatchObject({ state: "done", attempts: 1, locked_until: null });

    // A finished job never comes back, however much time passes.
    clock.advance(10 * LEASE_MS);
    expect(await queue.claim("w2", LEASE_MS)).toBeUndefined();
  });

  it("runs a job through a Worker, passing the parsed payload to the handler", async () => {
    const seen: unknown[] = [];
    const w = worker({ greet: async (payload) => void seen.push(payload) });
    const first = await queue.enqueue("greet", { name: "Ada" });
    const second = await queue.enqueue("greet", ["x", 1]);

    expect(await w.drain()).toBe(2);
    expect(seen).toEqual([{ name: "Ada" }, ["x", 1]]);
    expect((await row(first)).state).toBe("done");
    expect((await row(second)).state).toBe("done");
    expect(await w.runOne()).toBe(false);
  });

  it("does not claim a job before its run_at, and claims it once the clock reaches it", async () => {
    const runAt = new Date(clock.now().getTime() + 60_000);
    const id = await queue.enqueue("later", null, { runAt });
    expect((await row(id)).run_at).toBe(runAt.toISOString());

    expect(await queue.claim("w1", LEASE_MS)).toBeUndefined();
    clock.advance(59_999);
    expect(await queue.claim("w1", LEASE_MS)).toBeUndefined();
    expect((await row(id)).state).toBe("queued");

    clock.advance(1);
    const claimed = await queue.claim("w1", LEASE_MS);
    expect(claimed?.id).toBe(id);
    expect(claimed?.attempts).toBe(1);
  });

  it("claims due jobs oldest run_at first", async () => {
    const now = clock.now().getTime();
    const late = await queue.enqueue("k", 1, { runAt: new Date(now - 1_000) });
    const early = await queue.enqueue("k", 2, { runAt: new Date(now - 5_000) });
    const future = await queue.enqueue("k", 3, { runAt: new Date(now + 5_000) });

    expect((await queue.claim("w", LEASE_MS))?.id).toBe(early);
    expect((await queue.claim("w", LEASE_MS))?.id).toBe(late);
    expect(await queue.claim("w", LEASE_MS)).toBeUndefined();
    clock.advance(5_000);
    expect((await queue.claim("w", LEASE_MS))?.id).toBe(future);
  });

  it("retries a failing handler with exponential backoff, then marks it failed with last_error", async () => {
    const retryBaseMs = 1_000;
    const maxAttempts = 4;
    let calls = 0;
    const w = worker(
      {
        flaky: async () => {
          calls += 1;
          throw new Error(`boom ${calls}`);
        },
      },
      retryBaseMs,
    );
    const id = await queue.enqueue("flaky", {}, { maxAttempts });

    for (let attempt = 1; attempt < maxAttempts; attempt += 1) {
      const failedAt = clock.now().getTime();
      expect(await w.runOne()).toBe(true);
      const after = await row(id);
      const delay = retryBaseMs * 2 ** (attempt - 1);
      expect(after).toMatchObject({
        state: "queued",
        attempts: attempt,
        locked_by: null,
        locked_until: null,
        last_error: `boom ${attempt}`,
        run_at: new Date(failedAt + delay).toISOString(),
      });

      // Not retried before the backoff has elapsed...
      clock.advance(delay - 1);
      expect(await w.runOne()).toBe(false);
      expect(calls).toBe(attempt);
      // ...and retried as soon as it has.
      clock.advance(1);
    }

    expect(await w.runOne()).toBe(true);
    expect(calls).toBe(maxAttempts);
    const failed = await row(id);
    expect(failed).toMatchObject({
      state: "failed",
      attempts: maxAttempts,
      locked_by: null,
      locked_until: null,
      last_error: `boom ${maxAttempts}`,
    });

    clock.advance(24 * 3600 * 1000);
    expect(await w.runOne()).toBe(false);
    expect(calls).toBe(maxAttempts);
  });

  it("records a job that failed for good as a money incident and logs it with its payload's ids", async () => {
    const { logger, lines } = loggedLines();
    const w = new Worker(
      queue,
      {
        "shipment.settle_refund": async () => {
          throw new Error("ledger unreachable");
        },
      },
      { leaseMs: LEASE_MS, pollMs: 10, retryBaseMs: 1000, logger },
    );
    const id = await queue.enqueue(
      "shipment.settle_refund",
      { meterEntryId: 41, shipmentId: 7, note: "kept out of the record" },
      { maxAttempts: 2 },
    );
    expect(await w.runOne()).toBe(true);
    const incidents = () =>
      testDb.db.kysely.selectFrom("money_incidents").selectAll().where("job_id", "=", id).execute();
    expect(await incidents()).toEqual([]);
    clock.advance(1000);
    expect(await w.runOne()).toBe(true);

    const [incident, ...more] = await incidents();
    expect(more).toEqual([]);
    expect(incident).toMatchObject({
      kind: "job_exhausted",
      job_kind: "shipment.settle_refund",
      shipment_id: 7,
      repaired_at: null,
      created_at: clock.now().toISOString(),
    });
    expect(incident?.failure).toContain("ledger unreachable");
    expect(incident?.failure).toContain('"meterEntryId":41');
    expect(incident?.failure).not.toContain("kept out");
    expect(lines.filter((line) => line.level === 50)).toEqual([
      expect.objectContaining({
        job: id,
        kind: "shipment.settle_refund",
        ids: { meterEntryId: 41, shipmentId: 7 },
        err: "ledger unreachable",
      }),
    ]);
  });

  it("completes a job that fails once and then succeeds", async () => {
    let calls = 0;
    const w = worker(
      {
        once: async () => {
          calls += 1;
          if (calls === 1) throw new Error("transient");
        },
      },
      500,
    );
    const id = await queue.enqueue("once", {});
    expect(await w.runOne()).toBe(true);
    expect(await row(id)).toMatchObject({ state: "queued", attempts: 1, last_error: "transient" });
    clock.advance(500);
    expect(await w.runOne()).toBe(true);
    expect(await row(id)).toMatchObject({ state: "done", attempts: 2 });
  });

  it("fails a job of an unknown kind at once, without retries", async () => {
    const w = worker({ known: async () => {} });
    const id = await queue.enqueue("no-such-kind", { a: 1 }, { maxAttempts: 5 });

    expect(await w.runOne()).toBe(true);
    const failed = await row(id);
    expect(failed.state).toBe("failed");
    expect(failed.attempts).toBe(1);
    expect(failed.locked_by).toBeNull();
    expect(failed.last_error).toContain('no handler for job kind "no-such-kind"');

    clock.advance(24 * 3600 * 1000);
    expect(await w.runOne()).toBe(false);
    expect((await row(id)).state).toBe("failed");
  });

  it("never gives the same job to two workers claiming concurrently", async () => {
    // A second connection (pool) to the same database, so the two workers really race.
    const other: Db = openDatabase(testDb.url);
    try {
      const queueA = new JobQueue(testDb.db.kysely, testDb.db.dialect, clock);
      const queueB = new JobQueue(other.kysely, other.dialect, clock);
      const jobCount = 40;
      const ids: number[] = [];
      for (let i = 0; i < jobCount; i += 1) ids.push(await queue.enqueue("race", { i }));

      const attempts = Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? queueA.claim("worker-a", LEASE_MS).then((job) => ({ by: "worker-a", job }))
          : queueB.claim("worker-b", LEASE_MS).then((job) => ({ by: "worker-b", job })),
      );
      const results = await Promise.all(attempts);
      const claimed = results.filter((r): r is { by: string; job: JobRow } => r.job !== undefined);
      const claimedIds = claimed.map((r) => r.job.id);

      expect(new Set(claimedIds).size).toBe(claimedIds.length);
      expect(claimedIds.length).toBe(jobCount);
      expect([...claimedIds].sort((a, b) => a - b)).toEqual(ids);
      // Both workers took part.
      expect(claimed.some((r) => r.by === "worker-a")).toBe(true);
      expect(claimed.some((r) => r.by === "worker-b")).toBe(true);

      // The table agrees with what each worker was told.
      for (const { by, job } of claimed) {
        expect(await row(job.id)).toMatchObject({ state: "running", attempts: 1, locked_by: by });
      }
    } finally {
      await other.close();
    }
  });

  it("gives a job whose lease expired to another worker; the first worker's late results no longer apply", async () => {
    const id = await queue.enqueue("slow", {});
    const first = await queue.claim("w1", LEASE_MS);
    expect(first).toMatchObject({ id, attempts: 1, locked_by: "w1" });
    if (!first) throw new Error("unreachable");

    // Exactly at the end of the lease it is still w1's.
    clock.advance(LEASE_MS);
    expect(await queue.claim("w2", LEASE_MS)).toBeUndefined();

    clock.advance(1);
    const second = await queue.claim("w2", LEASE_MS);
    expect(second).toMatchObject({ id, state: "running", attempts: 2, locked_by: "w2" });

    // w1 wakes up late: its heartbeat, completion and failure are all ignored.
    expect(await queue.heartbeat(id, "w1", LEASE_MS)).toBe(false);
    await queue.complete(id, "w1");
    expect(await row(id)).toMatchObject({ state: "running", locked_by: "w2", attempts: 2 });
    await queue.fail(first, "w1", "late failure", 1000);
    expect(await row(id)).toMatchObject({ state: "running", locked_by: "w2", last_error: null });

    await queue.complete(id, "w2");
    expect(await row(id)).toMatchObject({ state: "done", locked_by: "w2", attempts: 2 });
  });

  it("re-runs a job whose worker stalled past its lease, and ignores that worker finishing later", async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    let handlerStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      handlerStarted = resolve;
    });
    const ranBy: string[] = [];
    const slowWorker = worker({
      task: async () => {
        ranBy.push("slow");
        handlerStarted();
        await stalled;
      },
    });
    const id = await queue.enqueue("task", {});
    const slowRun = slowWorker.runOne();
    await started;
    expect(await row(id)).toMatchObject({ state: "running", locked_by: slowWorker.id, attempts: 1 });

    clock.advance(LEASE_MS + 1);
    const rescuer = worker({ task: async () => void ranBy.push("rescuer") });
    expect(await rescuer.runOne()).toBe(true);
    expect(await row(id)).toMatchObject({ state: "done", locked_by: rescuer.id, attempts: 2 });

    // The stalled handler finally returns, later still; its completion must not touch the row.
    const before = await row(id);
    clock.advance(1_000);
    release();
    expect(await slowRun).toBe(true);
    expect(await row(id)).toEqual(before);
    expect(ranBy).toEqual(["slow", "rescuer"]);
  });

  it("fails a job whose worker died on its last allowed attempt instead of running it again", async () => {
    const id = await queue.enqueue("crashes-its-worker", { shipmentId: 9 }, { maxAttempts: 2 });
    expect((await queue.claim("w1", LEASE_MS))?.attempts).toBe(1);
    clock.advance(LEASE_MS + 1);
    expect((await queue.claim("w2", LEASE_MS))?.attempts).toBe(2);
    clock.advance(LEASE_MS + 1);
    const abandoned: JobRow[] = [];
    expect(await queue.claim("w3", LEASE_MS, (job) => abandoned.push(job))).toBeUndefined();
    expect(abandoned.map((job) => job.id)).toEqual([id]);
    expect(await testDb.db.kysely.selectFrom("money_incidents").selectAll().where("job_id", "=", id).execute()).toEqual(
      [expect.objectContaining({ kind: "job_exhausted", shipment_id: 9, job_kind: "crashes-its-worker" })],
    );
    expect(await row(id)).toMatchObject({
      state: "failed",
      attempts: 2,
      locked_by: null,
      last_error: "the worker running the last attempt stopped without finishing it",
    });
  });

  it("extends the lease on heartbeat, so the job is not taken while its worker is alive", async () => {
    const id = await queue.enqueue("long", {});
    const start = clock.now().getTime();
    await queue.claim("w1", LEASE_MS);

    clock.advance(20_000);
    expect(await queue.heartbeat(id, "w1", LEASE_MS)).toBe(true);
    expect((await row(id)).locked_until).toBe(new Date(start + 20_000 + LEASE_MS).toISOString());

    // Past the original lease, but inside the extended one.
    clock.advance(LEASE_MS - 20_000 + 5_000);
    expect(await queue.claim("w2", LEASE_MS)).toBeUndefined();

    // Another worker cannot heartbeat a job it does not hold.
    expect(await queue.heartbeat(id, "w2", LEASE_MS)).toBe(false);

    // Once the extended lease runs out without another heartbeat, the job is free.
    clock.set(new Date(start + 20_000 + LEASE_MS + 1));
    const taken = await queue.claim("w2", LEASE_MS);
    expect(taken).toMatchObject({ id, locked_by: "w2", attempts: 2 });

    await queue.complete(id, "w2");
    expect(await queue.heartbeat(id, "w2", LEASE_MS)).toBe(false);
  });
});
