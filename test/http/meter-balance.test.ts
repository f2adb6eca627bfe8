import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_OPENING_CREDIT_CENTS } from "../../src/domain/meter/meter.repository.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { SANDBOX_RETURNED_BANK_ACCOUNT } from "../../src/payments/sandbox-gateway.js";
import { apiCaller, buildTestApp, createTestAccount, fundMeter, liveAuth, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { refuseShipmentStatuses } from "../helpers/failures.js";
import { BANK, VISA } from "../helpers/payment-methods.js";
import { shipmentToBuy } from "../helpers/shipments.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const UPS_GROUND = 666;

/** What the ledger says of each meter, summed from every entry. */
interface LedgerSums {
  account_id: number;
  mode: string;
  posted_cents: number;
  held_cents: number;
  held_count: number;
}

/**
 * The balance row is kept beside the ledger by every write that moves money: after purchases
 * (parallel ones, automatic refills, a failed one whose debit is released), voids, held refunds
 * released, refills, an ACH return and adjustments, each meter's row equals its ledger's sums, and
 * `GET /meter` answers them.
 */
describe("the meter's balance row", () => {
  let t: TestApp;
  let worker: Worker;
  const call = apiCaller(() => t);

  beforeAll(async () => {
    t = await buildTestApp();
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
  });
  afterAll(() => t.close());

  const ledgerSums = async (): Promise<LedgerSums[]> => {
    const entries = await t.services.db.selectFrom("meter_entries").selectAll().execute();
    const sums = new Map<string, LedgerSums>();
    for (const entry of entries) {
      const key = `${entry.account_id}/${entry.mode}`;
      const sum = sums.get(key) ?? {
        account_id: entry.account_id,
        mode: entry.mode,
        posted_cents: 0,
        held_cents: 0,
        held_count: 0,
      };
      if (entry.status === "posted") sum.posted_cents += entry.amount_cents;
      if (entry.status === "held") {
        sum.held_cents += entry.amount_cents;
        sum.held_count += 1;
      }
      sums.set(key, sum);
    }
    return [...sums.values()];
  };
  const balanceRows = () => t.services.db.selectFrom("meter_balances").selectAll().execute();
  const byMeter = (a: LedgerSums, b: LedgerSums) => a.account_id - b.account_id || a.mode.localeCompare(b.mode);

  it("equals the ledger's sums after every kind of entry, and GET /meter answers them", async () => {
    const account = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, account.accountId);
    const live = liveAuth(account);
    const ship = async (auth: typeof live, overrides: Record<string, unknown> = {}) => {
      const response = await call(auth, "POST", "/shipments/ship", { shipment: shipmentToBuy(overrides) });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().shipment as { id: number; shipping_service: { rate: number } };
    };
    const cancel = async (auth: typeof live, id: number) =>
      expect((await call(auth, "PUT", `/shipments/${id}/cancel`)).statusCode).toBe(200);

    // Production: an operator's credit, a card refill, a bank refill the bank later returns.
    await fundMeter(t.services, account, "production", 5_000);
    const card = await call(live, "POST", "/payment_methods", {
      payment_method: { ...VISA, default_payment_method: true },
    });
    expect(card.statusCode).toBe(201);
    expect((await call(live, "POST", "/meter/refill", { amount: 40 })).statusCode).toBe(201);
    const bank = await call(live, "POST", "/payment_methods", {
      payment_method: { ...BANK, account_number: SANDBOX_RETURNED_BANK_ACCOUNT },
    });
    expect(
      (await call(live, "POST", "/meter/refill", { amount: 60, payment_method_id: bank.json().payment_method.id }))
        .statusCode,
    ).toBe(201);
    // Purchases in parallel, a UPS label voided (refunded through the job at once), a USPS one
    // voided (held 30 days), and a purchase whose final write fails (its debit released).
    await Promise.all([ship(live), ship(live), ship(live, { service_id: UPS_GROUND })]);
    const ups = await ship(live, { service_id: UPS_GROUND });
    await cancel(live, ups.id);
    const usps = await ship(live);
    await cancel(live, usps.id);
    const restore = await refuseShipmentStatuses(t.database.db, ["shipped"]);
    try {
      expect((await call(live, "POST", "/shipments/ship", { shipment: shipmentToBuy() })).statusCode).toBe(503);
    } finally {
      await restore();
    }
    // Automatic refills from here on: the next purchase refills first.
    expect(
      (await call(live, "PUT", "/meter", { meter: { refill_trigger_balance: 500, refill_amount: 100 } })).statusCode,
    ).toBe(200);
    await ship(live);

    // Test mode: labels adjusted by USPS (one heavier, one lighter), two voided, one of them adjusted.
    const heavier = await ship(account.auth);
    const lighter = await ship(account.auth, { parcels: [{ length: 10, width: 8, height: 4, weight: 40 }] });
    const kept = await ship(account.auth);
    expect((await call(account.auth, "POST", `/sandbox/shipments/${heavier.id}/adjust`)).statusCode).toBe(201);
    expect(
      (await call(account.auth, "POST", `/sandbox/shipments/${lighter.id}/adjust`, { adj_weight: 8 })).statusCode,
    ).toBe(201);
    await cancel(account.auth, heavier.id);
    await cancel(account.auth, kept.id);
    await worker.drain();

    // The bank returns its charge; the USPS holds end; a void after that is still held.
    t.clock.advance(30 * DAY_MS + 1);
    await worker.drain();
    const latest = await ship(account.auth);
    await cancel(account.auth, latest.id);

    const ledger = await ledgerSums();
    const kinds = await t.services.db
      .selectFrom("meter_entries")
      .select("kind")
      .distinct()
      .where("account_id", "=", account.accountId)
      .execute();
    expect(kinds.map((k) => k.kind).sort()).toEqual([
      "adjustment",
      "label_purchase",
      "refill",
      "refill_return",
      "refund",
    ]);
    expect(ledger.find((m) => m.account_id === account.accountId && m.mode === "test")?.held_count).toBe(1);
    expect((await balanceRows()).sort(byMeter)).toEqual(ledger.sort(byMeter));

    for (const [auth, mode] of [
      [live, "production"],
      [account.auth, "test"],
    ] as const) {
      const sums = ledger.find((m) => m.account_id === account.accountId && m.mode === mode) as LedgerSums;
      const opening = mode === "test" ? SANDBOX_OPENING_CREDIT_CENTS : 0;
      expect((await call(auth, "GET", "/meter")).json().meter).toMatchObject({
        balance: (sums.posted_cents + opening) / 100,
        pending_refunds: sums.held_cents / 100,
        pending_refund_count: sums.held_count,
      });
    }
  });

  it("is read, not summed: a meter whose row and ledger disagree answers its row", async () => {
    const account = await createTestAccount(t.services);
    const live = liveAuth(account);
    await fundMeter(t.services, account, "production", 2_500);
    await t.services.db
      .updateTable("meter_balances")
      .set({ posted_cents: 1_234 })
      .where("account_id", "=", account.accountId)
      .execute();
    expect((await call(live, "GET", "/meter")).json().meter.balance).toBe(12.34);
  });
});
