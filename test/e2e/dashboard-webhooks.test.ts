import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookDispatcher } from "../../src/app.js";
import { createUser } from "../../src/domain/accounts/create-user.js";
import { setPassword } from "../../src/domain/accounts/dashboard-sessions.js";
import { appendEvents } from "../../src/events/outbox.js";
import type { WebhookDispatcher } from "../../src/events/webhook-dispatcher.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import type { TestAccount, TestApp } from "../helpers/app.js";
import { DASHBOARD_PASSWORD, type Dashboard, openDashboard } from "../helpers/dashboard-browser.js";
import { WebhookReceiver } from "../helpers/webhook-receiver.js";

const DAY_MS = 86_400_000;

/**
 * The Webhooks pages in Chromium against a listening server and a real receiver on loopback
 * (private targets allowed, as in development): a subscription made in the page, a delivery that
 * failed shown with its request and response, retried once the receiver answers, a rewind the API
 * refuses and one it accepts; editing, disabling, re-enabling and deleting; the page hidden from a
 * user without the shipping permission. The dispatcher and the job worker run when the test says,
 * on the test's clock.
 */
describe("the dashboard's webhook pages", () => {
  let dashboard: Dashboard;
  let t: TestApp;
  let merchant: TestAccount;
  let page: Page;
  let receiver: WebhookReceiver;
  let dispatcher: WebhookDispatcher;
  let worker: Worker;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.listen();
    dashboard = await openDashboard({ config: { outboundAllowPrivateTargets: true } });
    ({ t, merchant, page } = dashboard);
    dispatcher = createWebhookDispatcher(t.services);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await dashboard?.close();
    await receiver?.close();
  });

  const subscriptions = async () =>
    (await t.app.inject({ method: "GET", url: "/api/v2/subscriptions", headers: merchant.auth })).json()
      .subscriptions as { id: number; status: string; auth_type: string; hmac_shared_secret: string }[];
  const deliveries = async (id: number) =>
    (
      await t.app.inject({ method: "GET", url: `/api/v2/subscriptions/${id}/deliveries`, headers: merchant.auth })
    ).json().deliveries as { id: number; status: string; response_code: number | null }[];
  const track = (ids: number[]) =>
    appendEvents(
      t.services.db,
      ids.map((id) => ({
        accountId: merchant.accountId,
        mode: "test" as const,
        stream: "shipment_tracking" as const,
        payload: {
          shipment_id: 7,
          tracking_number: "9400100000000000000000",
          tracking_event_id: id,
          code: "03",
          description: "Accepted at USPS Origin Facility",
          event_timestamp: "2026-01-15T14:00:00.000Z",
        },
        occurredAt: "2026-01-15T14:00:00.000Z",
      })),
      t.clock,
    );
  const newestRow = () => page.getByRole("table").getByRole("row").nth(1);

  it("creates a subscription and shows its signing secret once, then masked", async () => {
    await dashboard.signIn();
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByText("No subscriptions in this mode yet.").waitFor();
    await page.getByRole("button", { name: "New subscription" }).click();
    await page.getByLabel("URL").fill(receiver.url);
    await page.getByRole("button", { name: "Create subscription" }).click();
    const secret = await page.getByTestId("signing-secret").textContent();
    expect(secret).toMatch(/^whsec_/);
    const [stored] = await subscriptions();
    expect(stored?.hmac_shared_secret).toBe(`****${secret?.slice(-4)}`);
    await page.getByRole("cell", { name: `Secret ****${secret?.slice(-4)}` }).waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("shows a failed delivery with the request it posted and the answer it got", async () => {
    const [subscription] = await subscriptions();
    if (!subscription) throw new Error("no subscription");
    receiver.script.push({ status: 503, body: "receiver is down" });
    await track([101, 102]);
    expect(await dispatcher.drain()).toBe(1);
    expect((await deliveries(subscription.id)).map((d) => [d.status, d.response_code])).toEqual([["failed", 503]]);
    const [posted] = receiver.received;
    if (!posted) throw new Error("nothing was posted");

    await page.getByRole("link", { name: `Delivery log of subscription ${subscription.id}` }).click();
    await page.getByRole("heading", { name: "Delivery log" }).waitFor();
    await newestRow().getByText("failed").waitFor();
    expect(await newestRow().textContent()).toContain("503");
    expect(await newestRow().textContent()).toContain(posted.headers["webhook-id"]);
    await newestRow().getByRole("button", { name: "Details" }).click();
    const body = page.getByLabel(/^Request body of delivery/);
    await body.waitFor();
    // Rebuilt from the log and the event stream, the body is the one the receiver got.
    expect(JSON.parse((await body.textContent()) ?? "")).toEqual(posted.json);
    expect(await page.getByLabel(/^Request headers of delivery/).textContent()).toContain(
      `webhook-id: ${posted.headers["webhook-id"]}`,
    );
    expect(await page.getByLabel(/^Response body of delivery/).textContent()).toBe("receiver is down");
    await page.getByText("Status: 503").waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("retries the delivery once the receiver answers, and shows it delivered", async () => {
    const [subscription] = await subscriptions();
    if (!subscription) throw new Error("no subscription");
    receiver.fallback = { status: 200, body: "thanks" };
    await newestRow().getByRole("button", { name: "Retry" }).click();
    await page.getByText(/is queued to be sent again/).waitFor();
    await newestRow().getByText("pending").waitFor();
    expect(await worker.drain()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.headers["webhook-id"]).toBe(receiver.received[0]?.headers["webhook-id"]);
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body);
    await page.getByRole("button", { name: "Refresh" }).click();
    await newestRow().getByText("succeeded").waitFor();
    expect(await newestRow().textContent()).toContain("Sent again on request");
    expect((await deliveries(subscription.id)).map((d) => d.status)).toEqual(["succeeded", "failed"]);
  });

  it("rewinds the subscription, and says why when the date is out of range", async () => {
    const rewindTo = page.getByLabel("Rewind to (UTC)");
    const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    await rewindTo.fill(local(t.clock.now().getTime() - 40 * DAY_MS));
    await page.getByRole("button", { name: "Rewind" }).click();
    await page.getByRole("alert").getByText("rewind_to_date must be between 30 days ago and now.").waitFor();

    await rewindTo.fill(local(t.clock.now().getTime() - DAY_MS));
    await page.getByRole("button", { name: "Rewind" }).click();
    await page.getByText(/^Rewound: every event created since/).waitFor();
    // Accepted: the dispatcher sends both events again, as a new message that succeeds.
    expect(await dispatcher.drain()).toBe(1);
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]?.json.payload).toEqual(receiver.received[0]?.json.payload);
    expect(receiver.received[2]?.headers["webhook-id"]).not.toBe(receiver.received[0]?.headers["webhook-id"]);
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.getByText("3 deliveries, page 1 of 1").waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("disables, re-enables, edits and deletes a subscription", async () => {
    await page.getByRole("link", { name: "All webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("button", { name: "Re-enable" }).waitFor();
    expect((await subscriptions())[0]?.status).toBe("error_disabled");
    await page.getByRole("button", { name: "Re-enable" }).click();
    await page.getByRole("button", { name: "Disable" }).waitFor();
    expect((await subscriptions())[0]?.status).toBe("active");

    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Authentication").selectOption("http_basic");
    await page.getByLabel("User name").fill("porter");
    await page.getByLabel("Password").fill("a receiver password");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("cell", { name: "HTTP Basic" }).waitFor();
    expect((await subscriptions())[0]?.auth_type).toBe("http_basic");

    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByText("No subscriptions in this mode yet.").waitFor();
    expect(await subscriptions()).toEqual([]);
    expect(dashboard.refused).toEqual([]);
  });

  it("is not offered to a user without the shipping permission", async () => {
    const { user } = await createUser(t.services, {
      accountId: merchant.accountId,
      email: `billing-${merchant.accountId}@example.com`,
      roles: ["Billing"],
    });
    await setPassword(t.services, user.id, DASHBOARD_PASSWORD);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Email").fill(`billing-${merchant.accountId}@example.com`);
    await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Webhooks" }).count()).toBe(
      0,
    );
    await page.goto(`${dashboard.base}/dashboard/#/webhooks`);
    await page.getByRole("heading", { name: "No such page" }).waitFor();
  });
});
