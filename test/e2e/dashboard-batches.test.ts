import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/domain/accounts/create-user.js";
import { setPassword } from "../../src/domain/accounts/dashboard-sessions.js";
import { carrierToday } from "../../src/domain/rates/delivery-date.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import type { TestAccount, TestApp } from "../helpers/app.js";
import { DASHBOARD_PASSWORD, type Dashboard, openDashboard } from "../helpers/dashboard-browser.js";
import { buyLabel } from "../helpers/shipments.js";

/**
 * Close-out and pickups in Debian's Chromium against a real listening server: close out the day of
 * two USPS labels, download the SCAN form once the worker has generated it, book a pickup after
 * asking the carrier which day it comes, and cancel it; both pages pass axe-core's WCAG 2.1 A and AA
 * rules, the Content-Security-Policy refuses nothing, and a user without the shipping permission
 * does not see them.
 */
describe("close-out and pickups in the dashboard", () => {
  let dashboard: Dashboard;
  let t: TestApp;
  let merchant: TestAccount;
  let page: Page;
  let worker: Worker;
  let today: string;
  const trackingNumbers: string[] = [];
  let upsTracking: string;

  beforeAll(async () => {
    dashboard = await openDashboard();
    ({ t, merchant, page } = dashboard);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
    today = carrierToday(t.clock.now());
    const buy = async (overrides: Record<string, unknown> = {}) =>
      (await buyLabel(t, merchant.auth, overrides)).tracking_number as string;
    trackingNumbers.push(await buy(), await buy());
    const ups = await t.app.inject({ url: "/api/v2/services?carrier_code=ups", headers: merchant.auth });
    const ground = ups.json().services.find((s: { service_code: string }) => s.service_code === "ups_ground");
    upsTracking = await buy({ service_id: ground.service_id });
    await dashboard.signIn();
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it("closes out the day and downloads its SCAN form once generated, with no WCAG A or AA violations", async () => {
    await page.getByRole("link", { name: "Close out" }).click();
    await page.getByRole("heading", { name: "Close out", exact: true }).waitFor();
    // The server's clock is the test's, not the browser's: both days are set to it.
    const utcDay = t.clock.now().toISOString().slice(0, 10);
    await page.getByLabel("Created from").fill(utcDay);
    await page.getByLabel("Created to").fill(utcDay);
    await page.getByRole("button", { name: "Show batches" }).click();
    await page.getByText("0 batches, page 1 of 1").waitFor();

    await page.getByLabel("Ship date").fill(today);
    await page.getByRole("button", { name: "Close out the day" }).click();
    await page.getByText(`Closed out ${today}: 1 batch of 2 shipments.`).waitFor();
    const row = page.getByRole("row").filter({ hasText: "USPS" });
    await row.getByText("pending").waitFor();
    expect(await row.getByRole("cell").nth(3).textContent()).toBe("2");

    t.clock.advance(t.services.config.manifestDelayMs);
    await worker.drain();
    await page.getByRole("button", { name: "Refresh" }).click();
    const link = row.getByRole("link", { name: /^Download the SCAN form \d{22} \(PDF\)$/ });
    await link.waitFor();
    await row.getByText("generated").waitFor();

    const href = (await link.getAttribute("href")) as string;
    expect(href).toMatch(/^\/files\/[\w-]+\.pdf$/);
    const linked = await page.request.get(`${dashboard.base}${href}`);
    expect(linked.status()).toBe(200);
    expect(linked.headers()["content-type"]).toBe("application/pdf");
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    const saved = await readFile(await download.path());
    expect(saved.subarray(0, 5).toString()).toBe("%PDF-");

    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("books a pickup on the day the carrier can come, and cancels it, with no WCAG A or AA violations", async () => {
    await page.getByRole("link", { name: "Pickups" }).click();
    await page.getByRole("heading", { name: "Pickups", exact: true }).waitFor();
    await page.getByText("0 pickups, page 1 of 1").waitFor();
    for (const tracking of trackingNumbers) {
      await page.getByRole("checkbox", { name: new RegExp(`^${tracking} · USPS · manifested`) }).check();
    }
    await page.getByText("Pickup at 1 Main St, Los Angeles, CA 90035").waitFor();

    // USPS books the same day only until 02:00 Central: today is refused, with the next day offered.
    await page.getByLabel("Pickup date").fill(today);
    await page.getByRole("button", { name: "Check availability" }).click();
    const next = page.getByRole("button", { name: /^Ask for \d{4}-\d\d-\d\d$/ });
    await next.waitFor();
    const nextDay = ((await next.textContent()) as string).slice("Ask for ".length);
    expect(nextDay > today).toBe(true);
    await next.click();
    await page.getByText(`The carrier can come on ${nextDay}.`).waitFor();
    await page.getByLabel("Where the driver finds the parcels").fill("Loading dock 2");
    await page.getByRole("button", { name: "Book the pickup" }).click();
    await page.getByText(new RegExp(`^Pickup booked: USPS comes on ${nextDay} for 2 packages`)).waitFor();
    await page.getByText("1 pickup, page 1 of 1").waitFor();

    const booked = await t.services.db
      .selectFrom("pickups")
      .selectAll()
      .where("account_id", "=", merchant.accountId)
      .executeTakeFirstOrThrow();
    expect(booked).toMatchObject({ pickup_date: nextDay, status: "REQUESTED", location_detail: "Loading dock 2" });
    expect(await dashboard.accessibilityViolations()).toEqual([]);

    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: `Cancel the pickup ${booked.external_id}` }).click();
    await page.getByText(`The pickup of ${nextDay} (confirmation ${booked.external_id}) is cancelled.`).waitFor();
    await page.getByText("0 pickups, page 1 of 1").waitFor();
    const cancelled = await t.services.db
      .selectFrom("pickups")
      .select("status")
      .where("id", "=", booked.id)
      .executeTakeFirstOrThrow();
    expect(cancelled.status).toBe("CANCELLED");
    expect(dashboard.refused).toEqual([]);
  });

  it("shows the API's refusal of a pickup for two carriers' shipments in its own words", async () => {
    await page.getByRole("checkbox", { name: new RegExp(`^${trackingNumbers[0]} · USPS`) }).check();
    await page.getByRole("checkbox", { name: new RegExp(`^${upsTracking} · UPS · shipped`) }).check();
    await page.getByRole("button", { name: "Check availability" }).click();
    await page.getByRole("button", { name: "Book the pickup" }).click();
    // The API names the carriers in the order the shipments were ticked.
    await page
      .getByRole("alert")
      .filter({
        hasText: /^A pickup is for one carrier's shipments; these are of usps, ups\. Book one pickup per carrier\.$/,
      })
      .waitFor();
  });

  it("hides both pages from a user without the shipping permission", async () => {
    const { user } = await createUser(t.services, {
      accountId: merchant.accountId,
      email: `billing-${merchant.accountId}@example.com`,
      roles: ["Billing"],
    });
    await setPassword(t.services, user.id, DASHBOARD_PASSWORD);
    const other = await (await dashboard.browser.newContext()).newPage();
    await other.goto(`${dashboard.base}/dashboard/#/close-out`);
    await other.getByLabel("Email").fill(`billing-${merchant.accountId}@example.com`);
    await other.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await other.getByRole("button", { name: "Sign in" }).click();
    await other.getByRole("button", { name: "Sign out" }).waitFor();
    expect(await other.getByRole("navigation", { name: "Pages" }).getByRole("link").allTextContents()).not.toContain(
      "Close out",
    );
    await other.goto(`${dashboard.base}/dashboard/#/pickups`);
    await other.getByRole("heading", { name: "No such page" }).waitFor();
    expect(await other.getByRole("link", { name: "Pickups" }).count()).toBe(0);
  });
});
