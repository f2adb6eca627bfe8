import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDialect } from "../helpers/database.js";
import { callApi, DEPLOYMENT_START_TIMEOUT_MS, type Deployment, startDeployment } from "../helpers/deployment.js";
import { exited, type RunningServer, waitFor } from "../helpers/processes.js";
import { shipmentToBuy } from "../helpers/shipments.js";
import { WebhookReceiver } from "../helpers/webhook-receiver.js";

const POSTGRES = testDialect() === "postgres";
if (!POSTGRES) {
  console.info(
    "faults: skipped — several processes share one database only on PostgreSQL; set TEST_DATABASE_URL=postgres://… to run it",
  );
}

/** A request slower than this is a hang, whatever it answers. */
const ANSWER_LIMIT_MS = 30_000;
/** Service must be back this long after the part that failed is back. */
const RESUME_LIMIT_MS = 30_000;
/** Purchases the load makes at most, and how many it makes at least once the faults are over. */
const MAX_PURCHASES = 60;
const PURCHASES_AFTER_FAULTS = 4;
const CLIENTS = 3;

interface Attempt {
  status: number | "connection" | "timeout";
  /** When it was sent, in ms since the load started, and what it was. */
  at?: number;
  what?: string;
  code?: string;
  retryAfter?: string | null;
  ms: number;
}

interface Purchase {
  /** The Idempotency-Key in use: a new one after a run was interrupted, as the 409 asks. */
  key: string;
  interrupted: number;
  attempts: Attempt[];
  shipment?: { id: number; file: string; tracking_number: string };
  /** Every shipment id a 201 for this key named (replays included). */
  answeredIds: number[];
}

interface OutageProbe {
  part: string;
  status: number | "connection" | "timeout";
  code?: string;
  retryAfter?: string | null;
  ms: number;
}

/**
 * A steady, bounded load of purchases (each followed by a sandbox journey whose tracking events go
 * to a webhook receiver) runs against 2 API processes and 2 workers while a script kills an API
 * process and a worker with SIGKILL, takes PostgreSQL away (a TCP proxy between the processes and
 * the machine's cluster drops every connection and refuses new ones: the shared cluster itself is
 * never restarted) and stops the S3 server. Then: nothing was lost or done twice, outages answered
 * 503 `errors.unavailable` with Retry-After in bounded time, and service came back.
 */
describe.skipIf(!POSTGRES)("faults survived by a scaled deployment under load", () => {
  let deployment: Deployment;
  const receiver = new WebhookReceiver();
  const purchases: Purchase[] = [];
  const probes: OutageProbe[] = [];
  const faults: { fault: string; at?: number; resumedMs?: number }[] = [];
  let faultsDone = false;
  /** Every API request the test sent (purchases, replays, journeys, probes) and how it ended. */
  const answered: Attempt[] = [];
  /** Requests in flight on each API process. */
  const inFlight = new Map<RunningServer, number>();
  let loadStarted = Date.now();
  /** The last answer a probe for service resuming got, for a failure message. */
  let lastProbe = "";
  let purchasesAfterFaults = 0;

  beforeAll(async () => {
    await receiver.listen();
    deployment = await startDeployment({
      apis: 2,
      workers: 2,
      proxy: true,
      env: {
        // Short leases and timeouts so a killed process's work is taken over within the test's bounds.
        IDEMPOTENCY_LEASE_MS: "2000",
        JOB_LEASE_MS: "3000",
        FILE_STORE_TIMEOUT_MS: "2000",
        WEBHOOK_TIMEOUT_MS: "5000",
      },
    });
  }, DEPLOYMENT_START_TIMEOUT_MS);

  afterAll(async () => {
    await deployment?.close();
    await receiver.close();
  });

  const alive = (): RunningServer[] =>
    deployment.apis.filter((api) => api.child.exitCode === null && api.child.signalCode === null);

  /** One request to a live API process (in turn), classified; never throws. */
  let turn = 0;
  async function send(method: string, route: string, body?: unknown, headers?: Record<string, string>) {
    const apis = alive();
    const api = apis[turn++ % apis.length] as RunningServer;
    const started = Date.now();
    inFlight.set(api, (inFlight.get(api) ?? 0) + 1);
    try {
      const answer = await callApi(api.baseUrl, deployment.testKey, method, route, body, headers);
      answered.push({
        status: answer.status,
        code: answer.json.error_code,
        ms: Date.now() - started,
        at: started - loadStarted,
        what: `${method} ${route} on ${api.baseUrl}`,
      });
      return { ...answer, ms: Date.now() - started };
    } catch (error) {
      const timeout = error instanceof Error && error.name === "TimeoutError";
      const status = timeout ? ("timeout" as const) : ("connection" as const);
      answered.push({ status, ms: Date.now() - started, at: started - loadStarted, what: `${method} ${route}` });
      return { status, ms: Date.now() - started };
    } finally {
      inFlight.set(api, (inFlight.get(api) ?? 1) - 1);
    }
  }

  /** Each process's state and the end of its output, for a failure message. */
  const processStates = () =>
    [...deployment.apis, ...deployment.workers]
      .map(
        (p) =>
          `--- ${p.child.spawnargs.slice(3).join(" ")} (${p.child.exitCode ?? p.child.signalCode ?? "running"}) ---\n${p
            .output()
            .slice(-1500)}`,
      )
      .join("\n");

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Buys one label with one idempotency key, replaying it after every failure until a 201. */
  async function purchase(): Promise<void> {
    const record: Purchase = { key: randomUUID(), interrupted: 0, attempts: [], answeredIds: [] };
    purchases.push(record);
    const body = { shipment: shipmentToBuy({ label_format: "zpl", label_size: "4x6" }) };
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const answer = await send("POST", "/shipments/ship", body, { "idempotency-key": record.key });
      const attempt: Attempt = { ...answered.at(-1), status: answer.status, ms: answer.ms };
      if ("json" in answer) {
        attempt.code = answer.json.error_code;
        attempt.retryAfter = answer.headers.get("retry-after");
      }
      record.attempts.push(attempt);
      if (answer.status === 201 && "json" in answer) {
        const shipment = answer.json.shipment;
        record.answeredIds.push(shipment.id);
        record.shipment = {
          id: shipment.id,
          file: new URL(shipment.parcels[0].postage_label.image_url).pathname.split("/").pop() as string,
          tracking_number: shipment.tracking_number,
        };
        // Replayed once more: the same shipment, not a second label.
        const replay = await send("POST", "/shipments/ship", body, { "idempotency-key": record.key });
        if (replay.status === 201 && "json" in replay) record.answeredIds.push(replay.json.shipment.id);
        await journey(shipment.id);
        return;
      }
      // A run on a killed process that had begun buying was voided by this retry: buy again.
      if (attempt.status === 409 && attempt.code === "shipment.purchase_interrupted") {
        record.key = randomUUID();
        record.interrupted += 1;
      }
      // A refused connection (a killed process) is retried at once on the other; an answer waits
      // what Retry-After asks, capped so the load stays steady.
      const wait = Number(attempt.retryAfter ?? 0);
      await pause(Math.min(Number.isFinite(wait) ? wait * 1000 : 0, 500) + 50);
    }
  }

  /** The shipment's sandbox journey, whose tracking events are the webhook load. */
  async function journey(shipmentId: number): Promise<void> {
    for (let tries = 0; tries < 60; tries++) {
      const answer = await send("POST", `/sandbox/shipments/${shipmentId}/advance`, { to: "delivered" });
      if (answer.status === 200 || answer.status === 409 || answer.status === 422) return;
      await pause(250);
    }
  }

  async function client(): Promise<void> {
    while (purchases.length < MAX_PURCHASES && !(faultsDone && purchasesAfterFaults >= PURCHASES_AFTER_FAULTS)) {
      const afterFaults = faultsDone;
      await purchase();
      if (afterFaults) purchasesAfterFaults += 1;
    }
  }

  const bought = () => purchases.filter((p) => p.shipment).length;
  const waitForBought = (count: number) =>
    waitFor(
      () => `${count} labels bought (${bought()} so far)`,
      () => (bought() >= count ? true : undefined),
      { timeoutMs: 120_000, everyMs: 50 },
    );

  /** Sends `probe` until it answers as an outage should, recording each answer. */
  async function probeOutage(part: string, probe: () => ReturnType<typeof send>): Promise<void> {
    const answer = await probe();
    const entry: OutageProbe = { part, status: answer.status, ms: answer.ms };
    if ("json" in answer) {
      entry.code = answer.json.error_code;
      entry.retryAfter = answer.headers.get("retry-after");
    }
    probes.push(entry);
  }

  /** Waits until `probe` succeeds again, and returns how long that took. */
  async function resumed(what: string, probe: () => Promise<boolean>): Promise<number> {
    const started = Date.now();
    await waitFor(
      () => `${what} to work again (last answer: ${lastProbe})\n${processStates()}`,
      async () => ((await probe()) ? true : undefined),
      {
        timeoutMs: RESUME_LIMIT_MS,
        everyMs: 100,
      },
    );
    return Date.now() - started;
  }

  async function faultScript(): Promise<void> {
    await waitForBought(3);
    // An API process dies mid-load, with requests in flight on it.
    const api = deployment.apis[0] as RunningServer;
    await waitFor(
      () => "a request in flight on the first API process",
      () => ((inFlight.get(api) ?? 0) > 0 ? true : undefined),
      { timeoutMs: 60_000, everyMs: 5 },
    );
    api.child.kill("SIGKILL");
    await exited(api.child);
    faults.push({ fault: "kill -9 an API process", at: Date.now() - loadStarted });

    await waitForBought(bought() + 3);
    const worker = deployment.workers[0];
    worker?.child.kill("SIGKILL");
    if (worker) await exited(worker.child);
    faults.push({ fault: "kill -9 a worker", at: Date.now() - loadStarted });

    await waitForBought(bought() + 3);
    const cutAt = Date.now() - loadStarted;
    await deployment.proxy?.cut();
    await probeOutage("database", () => send("GET", "/shipments?per_page=1"));
    await probeOutage("database", () =>
      send("POST", "/shipments/ship", { shipment: shipmentToBuy() }, { "idempotency-key": randomUUID() }),
    );
    await deployment.proxy?.restore();
    faults.push({
      fault: "PostgreSQL restarted (connections dropped, refused meanwhile)",
      at: cutAt,
      resumedMs: await resumed("the database", async () => {
        const answer = await send("GET", "/shipments?per_page=1");
        lastProbe = "text" in answer ? `${answer.status} ${answer.text.slice(0, 300)}` : String(answer.status);
        return answer.status === 200;
      }),
    });

    await waitForBought(bought() + 3);
    const stored = purchases.find((p) => p.shipment)?.shipment?.file as string;
    const stopAt = Date.now() - loadStarted;
    await deployment.s3.stop();
    await probeOutage("file store", async () => {
      const apis = alive();
      const started = Date.now();
      const response = await fetch(`${apis[0]?.baseUrl}/files/${stored}`, { signal: AbortSignal.timeout(60_000) });
      const text = await response.text();
      return {
        status: response.status,
        json: JSON.parse(text),
        headers: response.headers,
        text,
        ms: Date.now() - started,
      };
    });
    await probeOutage("file store", () =>
      send("POST", "/shipments/ship", { shipment: shipmentToBuy() }, { "idempotency-key": randomUUID() }),
    );
    await deployment.s3.start();
    faults.push({
      fault: "S3 server stopped and started",
      at: stopAt,
      resumedMs: await resumed("the file store", async () => {
        const response = await fetch(`${alive()[0]?.baseUrl}/files/${stored}`);
        await response.arrayBuffer();
        return response.status === 200;
      }),
    });
    faultsDone = true;
  }

  it(
    "keeps every label and debit exact, delivers every event in order, and answers outages with 503",
    async () => {
      const subscribed = await callApi(
        deployment.apis[1]?.baseUrl as string,
        deployment.testKey,
        "POST",
        "/subscriptions",
        {
          subscription_type: "shipment_tracking",
          url: receiver.url,
          auth_type: "hmac",
        },
      );
      expect(subscribed.status, subscribed.text).toBe(201);

      loadStarted = Date.now();
      await Promise.all([faultScript(), ...Array.from({ length: CLIENTS }, () => client())]);
      const attempts = purchases.flatMap((p) => p.attempts);
      const count = (test: (a: Attempt) => boolean) => attempts.filter(test).length;
      const db = deployment.testDb.db.kysely;

      // Every event recorded for the account's shipments reaches the receiver, in order per shipment.
      const events = await db.selectFrom("tracking_events").select(["id", "shipment_id"]).orderBy("id").execute();
      await waitFor(
        () =>
          `every tracking event at the receiver (${events.length} recorded, ${receiver.items().length} items received)`,
        () => {
          const arrived = new Set(receiver.items().map((item) => item.tracking_event_id));
          return events.every((event) => arrived.has(event.id)) ? true : undefined;
        },
        { timeoutMs: 60_000, everyMs: 200 },
      );

      const statuses: Record<string, number> = {};
      for (const a of answered) statuses[String(a.status)] = (statuses[String(a.status)] ?? 0) + 1;
      const summary = {
        requests: answered.length,
        statuses,
        purchases: purchases.length,
        purchase_attempts: attempts.length,
        purchases_replayed_after_failure: purchases.filter((p) => p.attempts.length > 1).length,
        purchases_interrupted: purchases.reduce((sum, p) => sum + p.interrupted, 0),
        faults: faults.length,
        outage_probes: probes.map((p) => `${p.part}: ${p.status} in ${p.ms} ms`),
        resumed_ms: faults.map((f) => f.resumedMs ?? null),
        events: events.length,
        webhook_messages: receiver.received.length,
        webhook_items: receiver.items().length,
      };
      console.info(`faults summary: ${JSON.stringify(summary)}`);

      // No hang and no 500: every answer came within the limit and was a 201, a clean 503 or a
      // refused connection to the killed process.
      expect(count((a) => a.status === "timeout")).toBe(0);
      const slowest = [...answered].sort((a, b) => b.ms - a.ms).slice(0, 3);
      expect(slowest[0]?.ms ?? 0, JSON.stringify({ slowest, faults })).toBeLessThan(ANSWER_LIMIT_MS);
      for (const attempt of attempts.filter((a) => a.status === 503)) {
        expect(attempt.code).toBe("errors.unavailable");
        expect(attempt.retryAfter).toMatch(/^\d+$/);
      }
      expect(answered.filter((a) => typeof a.status === "number" && a.status >= 500 && a.status !== 503)).toEqual([]);
      expect(answered.filter((a) => a.status === "timeout")).toEqual([]);
      for (const a of answered.filter((a) => a.status === 503)) expect(a.code).toBe("errors.unavailable");

      // Each outage was answered 503 errors.unavailable with Retry-After, in bounded time.
      expect(probes.length).toBe(4);
      for (const probe of probes) {
        expect(probe, JSON.stringify(probe)).toMatchObject({ status: 503, code: "errors.unavailable" });
        expect(probe.retryAfter).toMatch(/^\d+$/);
        expect(probe.ms).toBeLessThan(ANSWER_LIMIT_MS);
      }
      expect(faults).toHaveLength(4);

      // Every purchase ended with one label: its file is in the bucket, replays named the same shipment.
      const done = purchases.filter((p) => p.shipment);
      expect(done).toHaveLength(purchases.length);
      const store = deployment.s3.store("scaled");
      for (const p of done) {
        expect(new Set(p.answeredIds), p.key).toEqual(new Set([p.shipment?.id]));
        expect((await store.get(p.shipment?.file as string))?.subarray(0, 3).toString()).toBe("^XA");
      }
      // Exactly one debit per label, and no label charged that no 201 answered.
      const entries = await db
        .selectFrom("meter_entries")
        .select(["shipment_id", "kind"])
        .where("kind", "in", ["label_purchase", "refund"])
        .execute();
      const net = new Map<number, number>();
      for (const entry of entries) {
        if (entry.shipment_id === null) continue;
        net.set(entry.shipment_id, (net.get(entry.shipment_id) ?? 0) + (entry.kind === "label_purchase" ? 1 : -1));
      }
      for (const p of done) {
        const id = p.shipment?.id as number;
        expect(
          entries.filter((e) => e.shipment_id === id && e.kind === "label_purchase"),
          `shipment ${id}`,
        ).toHaveLength(1);
        expect(net.get(id)).toBe(1);
      }
      const charged = [...net].filter(([, n]) => n > 0).map(([id]) => id);
      expect(charged.sort((a, b) => a - b)).toEqual(
        done.map((p) => p.shipment?.id).sort((a, b) => (a ?? 0) - (b ?? 0)),
      );

      // In order per subscription: each shipment's events first arrived oldest first.
      const firstArrivals = new Map<number, number[]>();
      const seen = new Set<number>();
      for (const item of receiver.items()) {
        const id = item.tracking_event_id as number;
        if (seen.has(id)) continue;
        seen.add(id);
        const shipment = item.shipment_id as number;
        firstArrivals.set(shipment, [...(firstArrivals.get(shipment) ?? []), id]);
      }
      for (const [shipment, ids] of firstArrivals) {
        expect(ids, `shipment ${shipment}`).toEqual([...ids].sort((a, b) => a - b));
      }
    },
    6 * 60_000,
  );
});
