import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDialect } from "../helpers/database.js";
import {
  type ApiJson,
  callApi,
  DEPLOYMENT_START_TIMEOUT_MS,
  type Deployment,
  startDeployment,
} from "../helpers/deployment.js";
import { waitFor } from "../helpers/processes.js";
import { rateShipment, shipmentToBuy } from "../helpers/shipments.js";
import { WebhookReceiver } from "../helpers/webhook-receiver.js";
import { type StandInSite, standInOrder, WooCommerceStandIn } from "../stand-ins/woocommerce/woocommerce-stand-in.js";

const POSTGRES = testDialect() === "postgres";
if (!POSTGRES) {
  console.info(
    "scaled-deployment: skipped — several processes share one database only on PostgreSQL; set TEST_DATABASE_URL=postgres://… to run it",
  );
}

/**
 * The deployment docs/deploying.md draws for a platform: two API-only processes and two workers on
 * one PostgreSQL database and one S3 bucket. A merchant's day runs through it with every step sent
 * to one API process or the other in turn, so nothing may depend on which process answered before:
 * connect → rate → buy (PDF and ZPL, on both) → manifest → track → webhook → store sync → report.
 */
describe.skipIf(!POSTGRES)("a scaled deployment: 2 API processes and 2 workers on PostgreSQL and S3", () => {
  let deployment: Deployment;
  const receiver = new WebhookReceiver();
  const woo = new WooCommerceStandIn();
  let site: StandInSite;
  let turn = 0;
  /** The next API process in turn, and its name for failure messages. */
  const next = () => {
    const index = turn++ % 2;
    return { base: deployment.apis[index]?.baseUrl as string, name: `api ${index}` };
  };
  const call = (method: string, route: string, body?: unknown, headers?: Record<string, string>) => {
    const { base } = next();
    return callApi(base, deployment.testKey, method, route, body, headers);
  };

  const state: {
    storeId?: number;
    subscriptionId?: number;
    shipments: { id: number; format: string; file: string; tracking_number: string }[];
  } = { shipments: [] };

  beforeAll(async () => {
    await receiver.listen();
    await woo.start();
    site = woo.addSite({
      orders: [standInOrder(1, "2026-06-01T10:00:00Z"), standInOrder(2, "2026-06-02T10:00:00Z")],
      products: [],
      weightUnit: "g",
    });
    deployment = await startDeployment({ apis: 2, workers: 2 });
  }, DEPLOYMENT_START_TIMEOUT_MS);

  afterAll(async () => {
    await deployment?.close();
    await receiver.close();
    await woo.stop();
  });

  it("connects a store and a webhook subscription, one on each process", async () => {
    const carriers = await call("GET", "/carrier_accounts");
    expect(carriers.status, carriers.text).toBe(200);
    const store = await call("POST", "/order_stores", {
      order_store: {
        name: "Woo shop",
        service_type: "woocommerce",
        credentials: {
          site_url: woo.siteUrl(site),
          consumer_key: site.consumerKey,
          consumer_secret: site.consumerSecret,
          webhook_secret: site.webhookSecret,
        },
      },
    });
    expect(store.status, store.text).toBe(201);
    state.storeId = store.json.order_store.id;
    const subscribed = await call("POST", "/subscriptions", {
      subscription_type: "shipment_tracking",
      url: receiver.url,
      auth_type: "hmac",
    });
    expect(subscribed.status, subscribed.text).toBe(201);
    state.subscriptionId = subscribed.json.id;
  });

  it("rates on both processes alike", async () => {
    const [first, second] = [
      await call("POST", "/rates", rateShipment()),
      await call("POST", "/rates", rateShipment()),
    ];
    expect(first.status, first.text).toBe(201);
    expect(second.status, second.text).toBe(201);
    const services = (answer: typeof first) =>
      (answer.json.service_rates as { service_id: number }[]).map((rate) => rate.service_id).sort();
    expect(services(second)).toEqual(services(first));
  });

  it("buys PDF and ZPL labels on both processes; each file is in the bucket and served by the other process", async () => {
    for (const format of ["pdf", "zpl", "zpl", "pdf"]) {
      const bought = await call("POST", "/shipments/ship", {
        shipment: shipmentToBuy({ label_format: format, label_size: "4x6" }),
      });
      expect(bought.status, bought.text).toBe(201);
      const shipment = bought.json.shipment;
      const url = new URL(shipment.parcels[0].postage_label.image_url as string);
      const file = url.pathname.split("/").pop() as string;
      state.shipments.push({ id: shipment.id, format, file, tracking_number: shipment.tracking_number });

      const stored = await deployment.s3.store("scaled").get(file);
      expect(stored?.subarray(0, 3).toString()).toBe(format === "pdf" ? "%PD" : "^XA");
      const served = await fetch(`${next().base}${url.pathname}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(stored as Buffer)).toBe(true);
    }
  });

  it("manifests the day's labels: one process takes the batch, a worker makes the form, the other process shows it", async () => {
    const created = await call("POST", "/shipments/batches", { shipments_ids: state.shipments.map((s) => s.id) });
    expect(created.status, created.text).toBe(201);
    const batchId = created.json.shipments_batches[0].id as string;
    const batch = await waitFor(
      () => `batch ${batchId} to be generated`,
      async () => {
        const shown = await call("GET", `/shipments/batches/${batchId}`);
        expect(shown.status, shown.text).toBe(200);
        const b = shown.json.shipments_batch ?? shown.json;
        return b.status === "pending" ? undefined : b;
      },
      { timeoutMs: 60_000, everyMs: 200 },
    );
    expect(batch.status, JSON.stringify(batch)).not.toBe("failed");
    const file = new URL(batch.bol_url as string).pathname.split("/").pop() as string;
    const form = await deployment.s3.store("scaled").get(file);
    expect(form?.subarray(0, 4).toString()).toBe("%PDF");
  });

  it("tracks a shipment advanced on one process from the other, and the worker delivers its events in order", async () => {
    const shipment = state.shipments[0] as (typeof state.shipments)[number];
    const advanced = await call("POST", `/sandbox/shipments/${shipment.id}/advance`, { to: "delivered" });
    expect(advanced.status, advanced.text).toBe(200);
    const tracked = await call("GET", `/shipments/${shipment.id}`);
    expect(tracked.status, tracked.text).toBe(200);
    const eventIds = (answer: ApiJson) =>
      (answer.shipment.parcels[0].tracking_info.tracking_events as { tracking_event_id: number }[])
        .map((e) => e.tracking_event_id)
        .reverse();
    const ids = eventIds(advanced.json);
    expect(ids.length).toBeGreaterThan(1);
    expect(eventIds(tracked.json)).toEqual(ids);

    const delivered = await waitFor(
      () =>
        `events ${ids.join(",")} at the receiver (has ${JSON.stringify(receiver.items().map((i) => i.tracking_event_id))})`,
      () => {
        const arrived = receiver
          .items()
          .filter((item) => item.shipment_id === shipment.id)
          .map((item) => item.tracking_event_id);
        return ids.every((id) => arrived.includes(id)) ? arrived : undefined;
      },
      { timeoutMs: 60_000, everyMs: 100 },
    );
    expect([...new Set(delivered)]).toEqual(ids);
  });

  it("syncs the store: asked on one process, run by a worker, the orders listed on the other", async () => {
    const asked = await call("POST", `/order_stores/${state.storeId}/sync`);
    expect(asked.status, asked.text).toBeLessThan(300);
    const orders = await waitFor(
      () => "the store's two orders",
      async () => {
        const listed = await call("GET", `/order_stores/${state.storeId}/orders?status=pending`);
        expect(listed.status, listed.text).toBe(200);
        return (listed.json.orders as unknown[]).length === 2 ? listed.json.orders : undefined;
      },
      { timeoutMs: 60_000, everyMs: 200 },
    );
    expect(orders.map((o: { order_number: string }) => o.order_number).sort()).toEqual(["7001", "7002"]);
  });

  it("reports one debit per label on either process, the same on both", async () => {
    const first = await call("GET", "/reports/meter_transaction");
    const second = await call("GET", "/reports/meter_transaction");
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    expect(second.json).toEqual(first.json);
    const debits = (first.json.meter_transactions as { transaction_type: string; tracking_numbers: string[] }[])
      .filter((t) => t.transaction_type === "debit")
      .flatMap((t) => t.tracking_numbers);
    expect(debits.sort()).toEqual(state.shipments.map((s) => s.tracking_number).sort());
  });
});
