import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { type JobQueue, type JobRow, payloadIds } from "./queue.js";

/** What a job kind does with its payload; throwing means "try again later". */
export type JobHandler = (payload: unknown, job: JobRow) => Promise<void>;
export type JobHandlers = Record<string, JobHandler>;

export interface WorkerOptions {
  leaseMs: number;
  pollMs: number;
  retryBaseMs?: number;
  logger?: Pick<Logger, "info" | "warn" | "error">;
}

/**
 * Claims due jobs one at a time and runs them, renewing the lease while a job runs. `stop()`
 * finishes the job in hand; a killed process simply stops renewing, and another worker takes
 * the job when the lease expires.
 */
export class Worker {
  readonly id = `worker-${randomUUID()}`;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: JobHandlers,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
  }

  /** Runs due jobs until none is left; returns how many ran. For the CLI and tests. */
  async drain(): Promise<number> {
    let ran = 0;
    while (await this.runOne()) ran += 1;
    return ran;
  }

  /** Claims and runs one due job; false when none was due. */
  async runOne(): Promise<boolean> {
    const job = await this.queue.claim(this.id, this.options.leaseMs, (abandoned) =>
      this.#reportExhausted(abandoned, abandoned.last_error ?? "its worker stopped"),
    );
    if (!job) return false;
    const handler = this.handlers[job.kind];
    const heartbeat = setInterval(
      () => {
        // A missed renewal is retried at the next beat; the lease outlives two of them.
        this.queue
          .heartbeat(job.id, this.id, this.options.leaseMs)
          .catch((error: unknown) =>
            this.options.logger?.warn({ job: job.id, kind: job.kind, err: error }, "could not renew a job's lease"),
          );
      },
      Math.max(10, Math.floor(this.options.leaseMs / 3)),
    );
    try {
      if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
      await handler(JSON.parse(job.payload), job);
      await this.queue.complete(job.id, this.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.logger?.warn({ job: job.id, kind: job.kind, attempt: job.attempts, err: message }, "job failed");
      const final = handler ? job : { ...job, attempts: job.max_attempts };
      if (await this.queue.fail(final, this.id, message, this.options.retryBaseMs ?? 1000)) {
        this.#reportExhausted(final, message);
      }
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }

  /** A job failed for good (recorded as a money incident by the queue): said with its payload's ids. */
  #reportExhausted(job: JobRow, error: string): void {
    this.options.logger?.error(
      { job: job.id, kind: job.kind, attempts: job.attempts, ids: payloadIds(job.payload), err: error },
      "job failed for good after its last attempt; recorded as a money incident for repair",
    );
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let ran = false;
      try {
        ran = await this.runOne();
      } catch (error) {
        this.options.logger?.error({ err: error }, "worker could not claim a job");
      }
      // SQLite statements are synchronous, so a job can run start to finish in promise callbacks
      // alone: without a turn of the event loop between jobs, a backlog of due jobs (each label's
      // first tracking read) ran as one long block, and the process's requests waited until it
      // was gone.
      if (ran) await new Promise<void>((resolve) => setImmediate(resolve));
      if (!ran && this.#running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs);
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }
}
