import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPassword } from "../../src/domain/accounts/dashboard-sessions.js";
import { addTestUser, type TestAccount, type TestApp } from "../helpers/app.js";
import { DASHBOARD_PASSWORD, type Dashboard, emailOf, openDashboard } from "../helpers/dashboard-browser.js";
import { buyLabel } from "../helpers/shipments.js";

const balance = async (page: Page) => (await page.getByTestId("meter-balance").textContent()) ?? "";
const dollarsOf = (shown: string) => Number(shown.replace("$", ""));

/**
 * The money pages in Chromium against a real server: a card added on the payment methods page
 * pays a refill and automatic refill on the meter page, and a label bought shows in the spend
 * report's rows, in its chart's bar for its carrier and week, and in the CSV the page downloads.
 * Each page passes axe-core's WCAG 2.1 A and AA rules; a Billing-only user reaches the pages
 * their role allows.
 */
describe("the dashboard's money pages in a browser", () => {
  let dashboard: Dashboard;
  let t: TestApp;
  let merchant: TestAccount;
  let page: Page;
  /** The label the report test buys, which the CSV test looks for. */
  let label: { tracking: string; carrier: string; cost: number };

  beforeAll(async () => {
    dashboard = await openDashboard();
    ({ t, merchant, page } = dashboard);
    // Wednesday 2026-03-18 (UTC), in the week starting Monday 2026-03-16: the label below is bought
    // then, and the session started then stays valid.
    t.clock.set("2026-03-18T15:00:00.000Z");
    await dashboard.signIn();
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it("shows the payment methods page, empty, with no WCAG A or AA violations", async () => {
    await page.getByRole("link", { name: "Payment methods" }).click();
    await page.getByRole("heading", { name: "Payment methods" }).waitFor();
    await page.getByText("No payment method yet.").waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("adds cards, refusing an expired one", async () => {
    await page.getByLabel("Card number").fill("4000 0000 0000 0002");
    await page.getByLabel("Expiry (MMYY)").fill("0120");
    await page.getByLabel("Security code (CVV)").fill("123");
    await page.getByRole("button", { name: "Add the payment method" }).click();
    await page.getByRole("alert").filter({ hasText: /expir/i }).waitFor();
    await page.getByLabel("Expiry (MMYY)").fill("1230");
    await page.getByRole("button", { name: "Add the payment method" }).click();
    await page.getByText("visa ending 0002 was added.").waitFor();
    await page.getByLabel("Card number").fill("4242424242424242");
    await page.getByLabel("Expiry (MMYY)").fill("1230");
    await page.getByLabel("Security code (CVV)").fill("321");
    await page.getByRole("button", { name: "Add the payment method" }).click();
    await page.getByText("visa ending 4242 was added.").waitFor();
  });

  it("makes another card the default and deletes the old one", async () => {
    const table = await page.getByRole("table").textContent();
    expect(table).toContain("visa •••• 0002");
    expect(table).not.toContain("4242424242424242");
    await page.getByRole("button", { name: "Make visa ending 4242 the default" }).click();
    await page.getByText("visa ending 4242 is now the default.").waitFor();
    // The declining test card is no longer the default, so it can go.
    await page.getByRole("button", { name: "Delete visa ending 0002" }).click();
    await page.getByText("visa ending 0002 was deleted.").waitFor();
    await page.getByRole("button", { name: "Delete visa ending 0002" }).waitFor({ state: "detached" });
    expect(await page.getByRole("button", { name: /Delete visa ending/ }).count()).toBe(1);
    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("refills the meter and sees the balance rise", async () => {
    await page.getByRole("link", { name: "Meter" }).click();
    await page.getByRole("heading", { name: "Meter" }).waitFor();
    const before = dollarsOf(await balance(page));
    await page.getByRole("textbox", { name: "Amount (USD)", exact: true }).fill("0.5");
    await page.getByRole("button", { name: "Refill now" }).click();
    await page.getByRole("alert").filter({ hasText: "amount must be from 1 to 10000 dollars" }).waitFor();
    expect(dollarsOf(await balance(page))).toBe(before);
    await page.getByRole("textbox", { name: "Amount (USD)", exact: true }).fill("50.25");
    await page.getByRole("button", { name: "Refill now" }).click();
    const after = `$${(before + 50.25).toFixed(2)}`;
    await page.getByText(`Refill charged to visa ending 4242. New balance ${after}.`).waitFor();
    expect(await balance(page)).toBe(after);
    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("changes automatic refill, and turns it off", async () => {
    await page.getByLabel(/Refill the meter from the default method/).check();
    await page.getByLabel("When the balance falls below (USD)").fill("20");
    await page.getByLabel("Refill amount (USD)").fill("100");
    await page.getByRole("button", { name: "Save automatic refill" }).click();
    await page.getByText("Refills $100.00 when the balance falls below $20.00.").waitFor();
    const meter = await t.app.inject({ url: "/api/v2/meter", headers: merchant.auth });
    expect(meter.json().meter).toMatchObject({ refill_trigger_balance: 20, refill_amount: 100 });
    await page.getByLabel(/Refill the meter from the default method/).uncheck();
    await page.getByRole("button", { name: "Save automatic refill" }).click();
    await page.getByText("Automatic refill is off.", { exact: true }).first().waitFor();
    expect(await page.getByTestId("meter-refill-setting").textContent()).toBe("Automatic refill is off.");
    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("shows a label bought in the report's rows and in its chart's bar for its carrier and week", async () => {
    const shipment = await buyLabel(t, merchant.auth);
    label = {
      tracking: shipment.tracking_number,
      carrier: shipment.shipping_service.carrier_code,
      cost: shipment.payment.amount,
    };
    const { tracking, carrier, cost } = label;

    await page.getByRole("link", { name: "Spend report" }).click();
    await page.getByRole("heading", { name: "Spend report" }).waitFor();
    await page.getByTestId("transaction-row").filter({ hasText: tracking }).waitFor();
    const bar = page.getByTestId(`spend-bar-2026-03-16-${carrier}`);
    await bar.waitFor();
    expect(Number(await bar.getAttribute("data-amount"))).toBe(cost);
    const figures = await page.getByTestId("spend-table").textContent();
    expect(figures).toContain(`2026-03-16${carrier.toUpperCase()}$${cost.toFixed(2)}`);
    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("leaves the label out of the chart for dates before it", async () => {
    await page.getByLabel("To (UTC)").fill("2026-03-15");
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByText("No labels bought in these dates.").waitFor();
    await page.getByLabel("To (UTC)").fill("");
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByTestId(`spend-bar-2026-03-16-${label.carrier}`).waitFor();
  });

  it("downloads the report's CSV with the session", async () => {
    const { tracking, cost } = label;
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download the CSV" }).click(),
    ]);
    const lines = fs.readFileSync(await download.path(), "utf8").split("\r\n");
    expect(lines[0]).toBe("customer_name,customer_id,transaction_date_time,transaction_type,amount,tracking_numbers");
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`,${merchant.accountId},2026-03-18T15:00:00.000Z,debit,${cost},${tracking}$`)),
    );
    expect(dashboard.refused).toEqual([]);
  });

  it("shows a Billing-only user the money pages their role allows, and no balance", async () => {
    const billing = await addTestUser(t.services, merchant.accountId, ["API"]);
    await t.services.db.updateTable("users").set({ roles: "Billing" }).where("id", "=", billing.userId).execute();
    await setPassword(t.services, billing.userId, DASHBOARD_PASSWORD);
    await page.getByRole("button", { name: "Sign out" }).click();
    await dashboard.signIn("Meter", await emailOf(t, billing.userId));
    const nav = await page.getByRole("navigation", { name: "Pages" }).textContent();
    expect(nav).toBe("MeterPayment methods");
    await page.getByText("Your roles do not show the balance; it is shown after a refill.").waitFor();
    await page.getByRole("textbox", { name: "Amount (USD)", exact: true }).fill("10");
    await page.getByRole("button", { name: "Refill now" }).click();
    await page.getByText(/New balance \$\d+\.\d\d\./).waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    expect(dashboard.refused).toEqual([]);
  });
});
