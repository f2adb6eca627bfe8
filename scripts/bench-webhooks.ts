/**
 * Webhook events delivered per second by one worker process (`porter worker`, built) to a
 * receiver on loopback that answers 200 at once. The worker starts idle; then EVENTS events are
 * appended in one transaction, and the rate is taken between the first and the last message
 * received, so the worker's start-up and its first poll are not counted.
 *
 *   node --import tsx scripts/bench-webhooks.ts      (after `npm run build`)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openServices } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createAccount } from "../src/domain/accounts/create-account.js";
import { createSubscription } from "../src/domain/subscriptions/create-subscription.js";
import { appendEvents } from "../src/events/outbox.js";
import { OutboundPolicy } from "../src/net/outbound-guard.js";

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 20_000);

export interface WebhookThroughput {
  events: number;
  messages: number;
  seconds: number;
  eventsPerSecond: number;
}

function trackingEvent(n: number): Record<string, unknown> {
  return {
    shipment_id: 1000 + Math.floor(n / 8),
    tracking_number: "9400111899223197428490",
    tracking_event_id: n,
    parcel_id: 2000 + Math.floor(n / 8),
    code: "07",
    secondary_code: null,
    description: "Arrived at USPS Regional Facility",
    event_timestamp: "2026-01-15T14:00:00.000Z",
    city: "COLUMBUS OH DISTRIBUTION CENTER",
    state: "OH",
    postal_code: "43218",
    country: "US",
  };
}

export async function measureWebhookDelivery(cpu?: string): Promise<WebhookThroughput> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-bench-webhooks-"));
  const env = {
    DATA_DIR: dataDir,
    SECRET_KEY: randomBytes(32).toString("hex"),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    JOB_POLL_MS: "50",
    LOG_LEVEL: "warn",
  };
  const services = await openServices(loadConfig(env));
  const arrivals: { at: number; count: number }[] = [];
  let received = 0;
  let finished: () => void = () => {};
  const allReceived = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const count = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { payload: unknown[] }).payload.length;
      received += count;
      arrivals.push({ at: performance.now(), count });
      response.writeHead(200).end();
      if (received >= EVENTS) finished();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  let worker: ChildProcess | undefined;
  try {
    const account = await createAccount(services, { name: "Webhook benchmark" });
    const scope = { accountId: account.id, mode: "test" as const };
    await createSubscription(
      services,
      scope,
      {
        subscriptionType: "shipment_tracking",
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
        authType: "hmac",
      },
      new OutboundPolicy(true),
    );
    const [program, args] = cpu
      ? ["taskset", ["-c", cpu, process.execPath, "dist/cli/index.js", "worker"]]
      : [process.execPath, ["dist/cli/index.js", "worker"]];
    const child = spawn(program, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    worker = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("is running")) resolve();
      });
      child.once("exit", () => reject(new Error("the worker exited before it started")));
    });
    await appendEvents(
      services.db,
      Array.from({ length: EVENTS }, (_, n) => ({
        ...scope,
        stream: "shipment_tracking" as const,
        payload: trackingEvent(n + 1),
        occurredAt: "2026-01-15T14:00:00.000Z",
      })),
    );
    await allReceived;
  } finally {
    worker?.kill("SIGTERM");
    receiver.close();
    await services.database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const first = arrivals[0];
  const last = arrivals.at(-1);
  if (!first || !last || arrivals.length < 2) throw new Error("too few messages to time");
  const seconds = (last.at - first.at) / 1000;
  const counted = received - first.count;
  return { events: received, messages: arrivals.length, seconds, eventsPerSecond: counted / seconds };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureWebhookDelivery();
  console.log(
    `${result.events} webhook events in ${result.messages} messages: ${Math.round(result.eventsPerSecond)} events/s`,
  );
}
