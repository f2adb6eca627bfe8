import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Clock } from "../clock.js";
import type { DialectName } from "../storage/db.js";
import type { Database } from "../storage/schema.js";
import { type EventRow, readEventsAfter } from "./events.repository.js";
import {
  claimDueSubscription,
  insertDelivery,
  type SubscriptionRow,
  updateLeased,
} from "./subscriptions.repository.js";
import { EVENTS_PER_MESSAGE, newMessageId } from "./webhook-message.js";
import type { WebhookPoster } from "./webhook-poster.js";
import type { WebhookOutcome } from "./webhook-sender.js";

/** Consecutive failed deliveries after which a subscription is disabled (eHub's rule). */
export const FAILURES_BEFORE_DISABLE = 5;
/** The lease outlasts the longest possible attempt by this much. */
const LEASE_MARGIN_MS = 30_000;

export interface DispatcherOptions {
  timeoutMs: number;
  retryBaseMs: number;
  /** Subscriptions delivered to at the same time by this dispatcher. */
  concurrency: number;
  pollMs: number;
  logger?: Pick<Logger, "warn" | "error">;
}

/**
 * Delivers each subscription's events in order, one batch at a time, at least once. A batch is
 * fixed (its last event id and message id are stored) before it is sent, so a retry — after a
 * failure or after a worker died mid-send — re-sends the same message with the same
 * `webhook-id`. 2xx moves the cursor past it and resets the error count; anything else waits
 * `retryBaseMs` × 2^(failures − 1), and the fifth consecutive failure disables the subscription.
 */
export class WebhookDispatcher {
  readonly id = `webhooks-${randomUUID()}`;
  #running = false;
  #lanes: Promise<void>[] = [];
  #wakers = new Set<() => void>();
  /** Whether an idle lane is already looking for due subscriptions. */
  #polling = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
    private readonly poster: WebhookPoster,
    private readonly options: DispatcherOptions,
  ) {}

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#lanes = Array.from({ length: this.options.concurrency }, () => this.#lane());
  }

  async stop(): Promise<void> {
    this.#running = false;
    for (const wake of this.#wakers) wake();
    await Promise.all(this.#lanes);
    this.poster.close();
  }

  /** Delivers due batches until none is left; returns how many were attempted. For tests and the CLI. */
  async drain(): Promise<number> {
    let attempted = 0;
    while (await this.deliverOne()) attempted += 1;
    return attempted;
  }

  /** Claims one due subscription and attempts its next batch; false when none was due. */
  async deliverOne(): Promise<boolean> {
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + this.options.timeoutMs + LEASE_MARGIN_MS).toISOString();
    const subscription = await claimDueSubscription(this.db, this.dialect, this.id, now.toISOString(), leaseUntil);
    if (!subscription) return false;
    // There may be more work: resting lanes look too (one of them takes over the polling).
    for (const wake of this.#wakers) wake();
    try {
      await this.#deliverBatch(subscription);
    } catch (error) {
      await updateLeased(this.db, subscription.id, this.id, { locked_by: null, locked_until: null });
      throw error;
    }
    return true;
  }

  async #deliverBatch(subscription: SubscriptionRow): Promise<void> {
    let throughId = subscription.batch_through_id;
    let messageId = subscription.batch_message_id;
    let events: EventRow[];
    if (throughId === null || messageId === null) {
      events = await this.#eventsOf(subscription, subscription.cursor_event_id);
      const last = events.at(-1);
      if (!last) {
        await updateLeased(this.db, subscription.id, this.id, { locked_by: null, locked_until: null });
        return;
      }
      throughId = last.id;
      messageId = newMessageId();
      // Fixed before sending, so whoever sends this batch again sends the same message.
      await updateLeased(this.db, subscription.id, this.id, {
        batch_through_id: throughId,
        batch_message_id: messageId,
      });
    } else {
      events = await this.#eventsOf(subscription, subscription.cursor_event_id, throughId);
    }
    const startedAt = this.clock.now();
    const outcome = await this.poster.post(subscription, messageId, events).catch(
      // A message that cannot even be made (its secret no longer opens, say) fails like any
      // other attempt: it backs off and, in the end, disables the subscription.
      (error: unknown): WebhookOutcome => ({
        ok: false,
        statusCode: null,
        message: `could not send: ${error instanceof Error ? error.message : String(error)}`,
        excerpt: null,
        latencyMs: 0,
      }),
    );
    await this.#record(subscription, messageId, throughId, events, outcome, startedAt);
  }

  #eventsOf(subscription: SubscriptionRow, afterId: number, throughId?: number): Promise<EventRow[]> {
    return readEventsAfter(
      this.db,
      { accountId: subscription.account_id, mode: subscription.mode, stream: subscription.subscription_type },
      afterId,
      EVENTS_PER_MESSAGE,
      throughId,
    );
  }

  async #record(
    subscription: SubscriptionRow,
    messageId: string,
    throughId: number,
    events: readonly EventRow[],
    outcome: WebhookOutcome,
    startedAt: Date,
  ): Promise<void> {
    const now = this.clock.now();
    const failures = outcome.ok ? 0 : subscription.error_count + 1;
    await this.db.transaction().execute(async (trx) => {
      await insertDelivery(trx, {
        subscription_id: subscription.id,
        message_id: messageId,
        trigger: "stream",
        first_event_id: events[0]?.id ?? throughId,
        last_event_id: throughId,
        event_count: events.length,
        created_at: startedAt.toISOString(),
        ...attemptResult(outcome, now),
      });
      // A rewind while this batch was in flight cleared the batch: the cursor stays where the
      // rewind put it.
      if (outcome.ok) {
        await updateLeased(
          trx,
          subscription.id,
          this.id,
          {
            cursor_event_id: throughId,
            batch_through_id: null,
            batch_message_id: null,
            last_pushed_id: throughId,
            last_pushed_at: now.toISOString(),
          },
          messageId,
        );
      }
      const disable = failures >= FAILURES_BEFORE_DISABLE;
      await updateLeased(trx, subscription.id, this.id, {
        error_count: failures,
        last_response_code: outcome.statusCode,
        last_response_message: outcome.message.slice(0, 500),
        next_attempt_at: outcome.ok
          ? now.toISOString()
          : new Date(now.getTime() + this.options.retryBaseMs * 2 ** (failures - 1)).toISOString(),
        ...(disable ? { status: "error_disabled" as const } : {}),
        updated_at: now.toISOString(),
        locked_by: null,
        locked_until: null,
      });
    });
    if (!outcome.ok) {
      this.options.logger?.warn(
        { subscription: subscription.id, failures, status: outcome.statusCode, err: outcome.message },
        "webhook delivery failed",
      );
    }
  }

  /**
   * One delivery lane. While nothing is due, one idle lane looks every `pollMs` and the others
   * rest until a claim succeeds somewhere, so an idle worker costs one claim query per poll, not
   * one per lane, and a lane stuck with a slow receiver never stops the others from looking.
   */
  async #lane(): Promise<void> {
    while (this.#running) {
      let delivered = false;
      try {
        delivered = await this.deliverOne();
      } catch (error) {
        this.options.logger?.error({ err: error }, "webhook delivery could not run");
      }
      if (delivered || !this.#running) continue;
      const polls = !this.#polling;
      if (polls) this.#polling = true;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#wakers.delete(wake);
          resolve();
        };
        const timer = polls ? setTimeout(wake, this.options.pollMs) : undefined;
        this.#wakers.add(wake);
      });
      if (polls) this.#polling = false;
    }
  }
}

/** What one attempt's delivery row records. */
export function attemptResult(outcome: WebhookOutcome, at: Date) {
  return {
    status: outcome.ok ? ("succeeded" as const) : ("failed" as const),
    response_code: outcome.statusCode,
    response_excerpt: outcome.excerpt,
    error_message: outcome.ok ? null : outcome.message,
    latency_ms: outcome.latencyMs,
    completed_at: at.toISOString(),
  };
}
