import type { Insertable, Selectable } from "kysely";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { Clock } from "../clock.js";
import type { DialectName } from "../storage/db.js";
import { insertMoneyIncident } from "../storage/money-incidents.js";
import type { Database, JobTable } from "../storage/schema.js";

export type JobRow = Selectable<JobTable>;

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** A transaction to enqueue in, so the job exists exactly when the rest of the write does. */
  executor?: Kysely<Database>;
}

/** A job to enqueue with others in one statement. */
export type QueuedJob = { kind: string; payload: unknown } & Omit<EnqueueOptions, "executor">;

/**
 * A durable job queue in the application's own database: no extra server to run. A job is
 * claimed by setting a lease; a worker that dies stops renewing it, and the job returns to the
 * queue when the lease runs out.
 */
export class JobQueue {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
  ) {}

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<number> {
    const row = await (options.executor ?? this.db)
      .insertInto("jobs")
      .values(this.#queuedRow({ kind, payload, ...options }))
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Several jobs in one statement (an insert of many rows), in `executor`'s transaction. */
  async enqueueAll(jobs: readonly QueuedJob[], executor: Kysely<Database> = this.db): Promise<void> {
    await executor
      .insertInto("jobs")
      .values(jobs.map((job) => this.#queuedRow(job)))
      .execute();
  }

  #queuedRow(job: QueuedJob): Insertable<JobTable> {
    const now = this.clock.now().toISOString();
    return {
      kind: job.kind,
      payload: JSON.stringify(job.payload ?? null),
      state: "queued",
      attempts: 0,
      max_attempts: job.maxAttempts ?? 5,
      run_at: (job.runAt ?? this.clock.now()).toISOString(),
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    };
  }

  /**
   * Takes the oldest due job — queued, or running under an expired lease — in one statement, so
   * two workers never get the same job: PostgreSQL skips rows another worker has locked, SQLite
   * serialises writers. `onAbandoned` hears each job failed for good on the way (see below).
   */
  async claim(workerId: string, leaseMs: number, onAbandoned?: (job: JobRow) => void): Promise<JobRow | undefined> {
    const now = this.clock.now().toISOString();
    for (const job of await this.failAbandonedExhaustedJobs(now)) onAbandoned?.(job);
    const leaseUntil = new Date(this.clock.now().getTime() + leaseMs).toISOString();
    // The oldest of each kind, each read in order from the `(state, run_at)` index, then the older
    // of the two: one condition with an OR made SQLite gather and sort every due job for each
    // claim, which grew with the backlog (1.5 ms a claim with 5,000 due).
    const oldest = (where: (eb: ExpressionBuilder<Database, "jobs">) => ReturnType<typeof eb.and>) => {
      const query = this.db.selectFrom("jobs").select(["id", "run_at"]).where(where).orderBy("run_at").orderBy("id");
      return (this.dialect === "postgres" ? query.limit(1).forUpdate().skipLocked() : query.limit(1)).as("oldest");
    };
    const due = this.db
      .selectFrom(oldest((eb) => eb.and([eb("state", "=", "queued"), eb("run_at", "<=", now)])))
      .select(["oldest.id", "oldest.run_at"])
      .unionAll(
        this.db
          .selectFrom(oldest((eb) => eb.and([eb("state", "=", "running"), eb("locked_until", "<", now)])))
          .select(["oldest.id", "oldest.run_at"]),
      )
      .orderBy("run_at")
      .orderBy("id")
      .limit(1);
    return this.db
      .updateTable("jobs")
      .set({
        state: "running",
        locked_by: workerId,
        locked_until: leaseUntil,
        attempts: sql`attempts + 1`,
        updated_at: now,
      })
      .where("id", "=", (eb) => eb.selectFrom(due.as("due")).select("due.id"))
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * A job whose worker died on its last allowed attempt is not run again: it failed (a job that
   * kills its worker every time must not go round for ever), and is recorded as an incident.
   */
  private async failAbandonedExhaustedJobs(now: string): Promise<JobRow[]> {
    const abandoned = (eb: ExpressionBuilder<Database, "jobs">) =>
      eb.and([eb("state", "=", "running"), eb("locked_until", "<", now), eb("attempts", ">=", eb.ref("max_attempts"))]);
    // Looked for first, outside a transaction: almost every claim finds none.
    const found = await this.db.selectFrom("jobs").select("id").where(abandoned).limit(1).executeTakeFirst();
    if (!found) return [];
    return this.db.transaction().execute(async (trx) => {
      const failed = await trx
        .updateTable("jobs")
        .set({
          state: "failed",
          locked_by: null,
          locked_until: null,
          last_error: "the worker running the last attempt stopped without finishing it",
          updated_at: now,
        })
        .where(abandoned)
        .returningAll()
        .execute();
      for (const job of failed) await recordExhausted(trx, job, now);
      return failed;
    });
  }

  /** Extends a running job's lease; false when the job is no longer this worker's. */
  async heartbeat(jobId: number, workerId: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable("jobs")
      .set({ locked_until: new Date(this.clock.now().getTime() + leaseMs).toISOString() })
      .where("id", "=", jobId)
      .where("locked_by", "=", workerId)
      .where("state", "=", "running")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async complete(jobId: number, workerId: string): Promise<void> {
    await this.db
      .updateTable("jobs")
      .set({ state: "done", locked_until: null, updated_at: this.clock.now().toISOString() })
      .where("id", "=", jobId)
      .where("locked_by", "=", workerId)
      .execute();
  }

  /**
   * Retries with exponential backoff until the attempts run out, then marks the job failed and
   * records it as an incident in the same transaction. True when the job is failed for good.
   */
  async fail(job: JobRow, workerId: string, error: string, retryBaseMs: number): Promise<boolean> {
    const now = this.clock.now();
    const exhausted = job.attempts >= job.max_attempts;
    const delay = retryBaseMs * 2 ** Math.max(0, job.attempts - 1);
    const update = (executor: Kysely<Database>) =>
      executor
        .updateTable("jobs")
        .set({
          state: exhausted ? "failed" : "queued",
          run_at: exhausted ? job.run_at : new Date(now.getTime() + delay).toISOString(),
          locked_by: null,
          locked_until: null,
          last_error: error.slice(0, 2000),
          updated_at: now.toISOString(),
        })
        .where("id", "=", job.id)
        .where("locked_by", "=", workerId)
        .executeTakeFirst();
    if (!exhausted) {
      await update(this.db);
      return false;
    }
    return this.db.transaction().execute(async (trx) => {
      if (Number((await update(trx)).numUpdatedRows) !== 1) return false;
      await recordExhausted(trx, { ...job, last_error: error }, now.toISOString());
      return true;
    });
  }

  async find(jobId: number): Promise<JobRow | undefined> {
    return this.db.selectFrom("jobs").selectAll().where("id", "=", jobId).executeTakeFirst();
  }
}

/**
 * The ids a job's payload names (`shipmentId`, `meterEntryId`, …): what an operator needs to act
 * on a job that failed for good, without the rest of the payload.
 */
export function payloadIds(payload: string): Record<string, number> {
  const parsed: unknown = JSON.parse(payload);
  if (typeof parsed !== "object" || parsed === null) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter(([key, value]) => /Id$/.test(key) && typeof value === "number"),
  ) as Record<string, number>;
}

async function recordExhausted(trx: Kysely<Database>, job: JobRow, stamp: string): Promise<void> {
  const ids = payloadIds(job.payload);
  await insertMoneyIncident(
    trx,
    {
      kind: "job_exhausted",
      account_id: ids.accountId ?? null,
      mode: null,
      shipment_id: ids.shipmentId ?? null,
      carrier_code: null,
      amount_cents: null,
      job_id: job.id,
      job_kind: job.kind,
      failure: `after ${job.attempts} attempts (payload ids ${JSON.stringify(ids)}): ${job.last_error ?? "no error recorded"}`,
    },
    stamp,
  );
}
