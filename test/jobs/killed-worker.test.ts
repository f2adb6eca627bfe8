import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/clock.js";
import { JobQueue, type JobRow } from "../../src/jobs/queue.js";
import { Worker } from "../../src/jobs/worker.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import {
  exited,
  PROCESS_TEST_TIMEOUT_MS,
  type RunningProcess,
  startProcess,
  stopProcess,
  waitForProcess,
} from "../helpers/processes.js";

const CHILD_LEASE_MS = 2000;

describe("a worker process killed mid-job", () => {
  let testDb: TestDatabase;
  let child: RunningProcess | undefined;

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await stopProcess(child);
    await testDb.drop();
  });

  it("loses its job when the lease runs out, and another worker runs it to completion", {
    timeout: PROCESS_TEST_TIMEOUT_MS,
  }, async () => {
    // Enqueued "now" in real time, so the child (system clock) finds it due.
    const clock = new ManualClock(new Date());
    const queue = new JobQueue(testDb.db.kysely, testDb.db.dialect, clock);
    const jobId = await queue.enqueue("hang", { order: 42 }, { maxAttempts: 3 });

    child = startProcess(["test/fixtures/hanging-worker.ts"], { ...testDb.env, HANG_LEASE_MS: String(CHILD_LEASE_MS) });
    const running = child.child;
    const claimed = await waitForProcess(child, `the child to claim job ${jobId}`, async () => {
      const job = await queue.find(jobId);
      return job?.state === "running" ? job : undefined;
    });
    expect(claimed.attempts).toBe(1);
    expect(claimed.locked_by).toMatch(/^worker-/);
    const childWorkerId = claimed.locked_by;
    expect(running.exitCode).toBeNull();

    running.kill("SIGKILL");
    expect(await exited(running)).toEqual({ code: null, signal: "SIGKILL" });

    // The dead worker's job is still marked running under its (now unrenewable) lease.
    const orphan = (await queue.find(jobId)) as JobRow;
    expect(orphan).toMatchObject({ state: "running", attempts: 1, locked_by: childWorkerId });
    expect(orphan.locked_until).not.toBeNull();
    const leaseEnd = new Date(orphan.locked_until as string).getTime();

    const handled: unknown[] = [];
    const rescuer = new Worker(
      queue,
      { hang: async (payload) => void handled.push(payload) },
      {
        leaseMs: 30_000,
        pollMs: 10,
      },
    );

    // Until the lease has run out, the job stays the dead worker's.
    clock.set(new Date(leaseEnd));
    expect(await rescuer.runOne()).toBe(false);
    expect(handled).toEqual([]);

    // Past the lease, another worker claims it again and finishes it.
    clock.set(new Date(leaseEnd + 1));
    expect(await rescuer.runOne()).toBe(true);
    expect(handled).toEqual([{ order: 42 }]);
    expect(await queue.find(jobId)).toMatchObject({
      state: "done",
      attempts: 2,
      locked_by: rescuer.id,
      last_error: null,
    });
    expect(rescuer.id).not.toBe(childWorkerId);
    expect(child.output()).toContain(`claimed job ${jobId} as ${childWorkerId}`);
  });
});
