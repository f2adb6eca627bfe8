import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendMeterEntry } from "../../src/domain/meter/meter.repository.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { VISA } from "../helpers/payment-methods.js";
import {
  PROCESS_TEST_TIMEOUT_MS,
  type RunningServer,
  startServerProcess,
  stopProcess,
  waitForProcess,
} from "../helpers/processes.js";
import { shipmentToBuy } from "../helpers/shipments.js";

/**
 * Two API processes on one database sell labels from one small meter at once: the balance never
 * goes below zero, no debit is lost, and parallel purchases below the refill trigger make refills
 * in turn rather than all at once.
 */
/** The parts of the answers this test reads. */
interface Answer {
  error_code?: string;
  service_rates?: { service_id: number; rate: number }[];
  meter?: { balance: number };
}

describe("one meter, two server processes, purchases in parallel", () => {
  let testDb: TestDatabase;
  let dataDir: string;
  const servers: RunningServer[] = [];
  let accountId: number;
  let liveKey: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-meter-concurrency-"));
    const env = { ...testDb.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
    const first = await startServerProcess(["src/cli/index.ts", "serve"], env);
    servers.push(first);
    const created = await waitForProcess(first, "the demo account's keys", () => {
      const output = first.output();
      const account = /Created the demo account (\d+)/.exec(output)?.[1];
      const key = /^ {2}production: +(pk_live_\S+)$/m.exec(output)?.[1];
      return account && key ? { account: Number(account), key } : undefined;
    });
    accountId = created.account;
    liveKey = created.key;
    servers.push(await startServerProcess(["src/cli/index.ts", "serve", "--no-worker"], env));
    // Two processes start here.
  }, 2 * PROCESS_TEST_TIMEOUT_MS);

  afterAll(async () => {
    for (const server of servers) await stopProcess(server);
    await testDb.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const send = async (server: RunningServer, method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}/api/v2${url}`, {
      method,
      headers: { authorization: `Bearer ${liveKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer };
  };
  const buyInParallel = (count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, index) =>
        send(servers[index % 2] as RunningServer, "POST", "/shipments/ship", { shipment: shipmentToBuy() }),
      ),
    );
  const production = () =>
    testDb.db.kysely
      .selectFrom("meter_entries")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("mode", "=", "production")
      .execute();
  const credit = (cents: number) =>
    appendMeterEntry(testDb.db.kysely, {
      account_id: accountId,
      mode: "production",
      kind: "adjustment",
      amount_cents: cents,
      shipment_id: null,
      description: "Test credit",
      status: "posted",
      available_at: new Date().toISOString(),
      created_at: new Date().toISOString(),
    });
  let priceCents: number;

  it("sells exactly what the balance covers, never overdrawing nor losing a debit", { timeout: 120_000 }, async () => {
    const rates = await send(servers[0] as RunningServer, "POST", "/rates", { shipment: shipmentToBuy() });
    const rate = rates.body.service_rates?.find((r) => r.service_id === 1172);
    priceCents = Math.round((rate?.rate ?? 0) * 100);
    await credit(4 * priceCents + priceCents - 1);

    const answers = await buyInParallel(16);
    const codes = answers.map((a) => a.status).sort();
    expect(codes).toEqual([...Array(4).fill(201), ...Array(12).fill(402)]);
    expect(answers.filter((a) => a.status === 402).every((a) => a.body.error_code === "meter.insufficient_funds")).toBe(
      true,
    );

    const entries = await production();
    const debits = entries.filter((e) => e.kind === "label_purchase");
    expect(debits).toHaveLength(4);
    expect(new Set(debits.map((d) => d.shipment_id)).size).toBe(4);
    const balance = entries.filter((e) => e.status === "posted").reduce((sum, e) => sum + e.amount_cents, 0);
    expect(balance).toBe(priceCents - 1);
    const meter = await send(servers[1] as RunningServer, "GET", "/meter");
    expect(Math.round((meter.body.meter?.balance ?? 0) * 100)).toBe(priceCents - 1);
  });

  it("refills in turn when parallel purchases cross the trigger, and buys them all", { timeout: 120_000 }, async () => {
    const first = servers[0] as RunningServer;
    expect(
      (await send(first, "POST", "/payment_methods", { payment_method: { ...VISA, default_payment_method: true } }))
        .status,
    ).toBe(201);
    // Each refill pays for three labels; the trigger is one label.
    const refill = (3 * priceCents) / 100;
    expect(
      (
        await send(first, "PUT", "/meter", {
          meter: { refill_trigger_balance: priceCents / 100, refill_amount: refill },
        })
      ).status,
    ).toBe(200);

    const answers = await buyInParallel(12);
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));

    const entries = await production();
    const posted = entries.filter((e) => e.status === "posted");
    const balance = posted.reduce((sum, e) => sum + e.amount_cents, 0);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(posted.filter((e) => e.kind === "label_purchase")).toHaveLength(16);
    const refills = posted.filter((e) => e.kind === "refill");
    // One charge in flight at a time: never more refills than buying the labels one by one makes.
    let sequential = 0;
    for (let balanceCents = priceCents - 1, bought = 0; bought < 12; bought += 1) {
      if (balanceCents - priceCents < priceCents) {
        balanceCents += 3 * priceCents;
        sequential += 1;
      }
      balanceCents -= priceCents;
    }
    expect(refills.length).toBeGreaterThan(0);
    expect(refills.length).toBeLessThanOrEqual(sequential);
    expect(balance).toBe(priceCents - 1 + refills.length * 3 * priceCents - 12 * priceCents);
    const transactions = await testDb.db.kysely
      .selectFrom("payment_transactions")
      .selectAll()
      .where("account_id", "=", accountId)
      .execute();
    expect(transactions.every((t) => t.status === "accepted")).toBe(true);
    expect(transactions).toHaveLength(refills.length);
  });
});
