import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Clock } from "../clock.js";

/** One channel for every installation on the server; a payload names its schema and topic. */
const CHANNEL = "porter_wake_ups";

/** A waiter's ear on one topic, open from `watch` on, so a signal between a look and a wait counts. */
export interface Watch {
  /**
   * Resolves at the first signal for the topic since the previous call (at once if one came
   * meanwhile), or after `ms` of the clock's time, whichever is first.
   */
  next(clock: Clock, ms: number): Promise<void>;
  stop(): void;
}

interface Watcher {
  signalled: boolean;
  sleeping: AbortController | undefined;
}

/**
 * Wakes requests that wait for another one (a twin on an idempotency key, a purchase waiting for
 * another's refill) as soon as what they wait for changed, instead of having them poll. Waiters
 * in this process are woken directly; on PostgreSQL a signal also goes out as a NOTIFY, so waiters
 * in other processes on the same schema wake too. A signal only prompts a waiter to look again,
 * so one for another schema or a missed one costs a query, never a wrong answer.
 */
export class WakeUps {
  readonly #watchers = new Map<string, Set<Watcher>>();
  #report: (error: unknown) => void = (error) => console.error("wake-up signals failed; waiters poll", error);

  constructor(private readonly channel?: PostgresChannel) {
    channel?.deliverTo((topic) => this.#wake(topic));
  }

  /** Where failures of the PostgreSQL channel are reported (waiters then wake by polling). */
  reportErrorsTo(report: (error: unknown) => void): void {
    this.#report = report;
  }

  /**
   * Starts watching `topic`; on PostgreSQL once this process listens (the first watch opens the
   * connection), so a signal sent by another process after this resolves is heard.
   */
  async watch(topic: string): Promise<Watch> {
    await this.channel?.listen(this.#report);
    const watcher: Watcher = { signalled: false, sleeping: undefined };
    const watchers = this.#watchers.get(topic) ?? new Set();
    watchers.add(watcher);
    this.#watchers.set(topic, watchers);
    return {
      next: async (clock, ms) => {
        if (!watcher.signalled) {
          watcher.sleeping = new AbortController();
          await clock.sleep(ms, watcher.sleeping.signal);
          watcher.sleeping = undefined;
        }
        watcher.signalled = false;
      },
      stop: () => {
        watchers.delete(watcher);
        if (watchers.size === 0 && this.#watchers.get(topic) === watchers) this.#watchers.delete(topic);
      },
    };
  }

  /** Wakes every waiter on `topic`; a failure to tell other processes is reported, not thrown. */
  async signal(topic: string): Promise<void> {
    this.#wake(topic);
    try {
      await this.channel?.send(topic);
    } catch (error) {
      this.#report(error);
    }
  }

  async close(): Promise<void> {
    await this.channel?.close();
  }

  #wake(topic: string): void {
    for (const watcher of this.#watchers.get(topic) ?? []) {
      watcher.signalled = true;
      watcher.sleeping?.abort();
    }
  }
}

/**
 * LISTEN/NOTIFY on one connection of its own, opened when the first waiter watches. Payloads are
 * `schema`, the sending process and the topic, one a line: a process skips its own signals (it woke
 * its waiters directly) and those of other schemas (other installations, other test files).
 */
export class PostgresChannel {
  readonly #origin = randomUUID();
  #deliver: (topic: string) => void = () => {};
  #listening: Promise<pg.Client | undefined> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
  ) {}

  deliverTo(deliver: (topic: string) => void): void {
    this.#deliver = deliver;
  }

  /** Resolves once this process listens, or has given up for now (then waiters poll). */
  async listen(report: (error: unknown) => void): Promise<void> {
    this.#listening ??= this.#connect(report).catch((error: unknown) => {
      report(error);
      this.#listening = undefined;
      return undefined;
    });
    await this.#listening;
  }

  async send(topic: string): Promise<void> {
    await this.pool.query("select pg_notify($1, concat_ws(E'\\n', current_schema(), $2::text, $3::text))", [
      CHANNEL,
      this.#origin,
      topic,
    ]);
  }

  async close(): Promise<void> {
    const client = await this.#listening;
    this.#listening = undefined;
    await client?.end();
  }

  async #connect(report: (error: unknown) => void): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on("error", (error) => {
      // A lost connection: waiters poll until the next one to watch listens again.
      report(error);
      this.#listening = undefined;
      client.end().catch(report);
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ schema: string | null }>("select current_schema() as schema");
      const schema = rows[0]?.schema ?? "";
      client.on("notification", (message) => {
        const [from, origin, ...topic] = (message.payload ?? "").split("\n");
        if (from === schema && origin !== this.#origin) this.#deliver(topic.join("\n"));
      });
      await client.query(`listen ${CHANNEL}`);
      return client;
    } catch (error) {
      client.end().catch(report);
      throw error;
    }
  }
}
