import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAccount, TestApp } from "../helpers/app.js";
import { DASHBOARD_PASSWORD, type Dashboard, fillAddress, openDashboard } from "../helpers/dashboard-browser.js";
import { expectScreenshot } from "../helpers/screenshots.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, shipmentToBuy } from "../helpers/shipments.js";

/**
 * The dashboard in Debian's Chromium against a real listening server: sign in, find a shipment in
 * the list, open it and void its label, buy a label through the form that rates first; the sign-in
 * and list pages pass axe-core's WCAG 2.1 A and AA rules, and the Content-Security-Policy refuses
 * nothing the dashboard itself needs. Each main page looks as its kept screenshot
 * (test/e2e/screenshots), what changes from run to run masked.
 */
describe("the dashboard in a browser", () => {
  let dashboard: Dashboard;
  let t: TestApp;
  let merchant: TestAccount;
  let trackingNumber: string;
  let page: Page;

  beforeAll(async () => {
    dashboard = await openDashboard();
    ({ t, merchant, page } = dashboard);
    const bought = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: merchant.auth,
      payload: { shipment: shipmentToBuy() },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    trackingNumber = bought.json().shipment.tracking_number;
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it("serves the page under a strict Content-Security-Policy", async () => {
    const response = await page.goto(`${dashboard.base}/dashboard/`);
    expect(response?.status()).toBe(200);
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("unsafe-inline");
  });

  it("shows a sign-in page with no WCAG A or AA violations", async () => {
    await page.getByRole("heading", { name: "Sign in to Porter" }).waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    await expectScreenshot(page, "sign-in");
  });

  it("signs in and lists the account's shipments, with no WCAG A or AA violations", async () => {
    await page.getByLabel("Email").fill(dashboard.email);
    await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Shipments" }).waitFor();
    await page.getByRole("link", { name: trackingNumber }).waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    await expectScreenshot(page, "shipments", {
      mask: [page.getByText(dashboard.email), page.locator("tbody td:nth-child(1), tbody td:nth-child(5)")],
    });
  });

  it("finds a shipment by tracking number", async () => {
    await page.getByLabel("Tracking number").fill("9400000000000000000000");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByText("No shipments match.").waitFor();
    await page.getByLabel("Tracking number").fill(trackingNumber);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByText("1 shipment, page 1 of 1").waitFor();
  });

  it("opens the shipment with its label and voids it", async () => {
    await page.getByRole("link", { name: trackingNumber }).click();
    await page.getByRole("heading", { name: `Shipment ${trackingNumber}` }).waitFor();
    const label = page.locator(`iframe[title="Label for ${trackingNumber}"]`);
    expect(await label.getAttribute("src")).toMatch(/^\/files\/[\w-]+\.pdf$/);
    await page.getByRole("heading", { name: "Tracking" }).waitFor();
    await expectScreenshot(page, "shipment", {
      mask: [
        page.getByText(dashboard.email),
        page.getByRole("heading", { level: 1 }),
        label,
        page.getByRole("row", { name: /Estimated delivery/ }).getByRole("cell"),
        page.locator(".mantine-Timeline-root"),
      ],
    });
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Void label" }).click();
    await page.getByText("The label is voided.").waitFor();
    expect(await page.getByRole("button", { name: "Void label" }).isDisabled()).toBe(true);
  });

  it("buys a label from the form after rating it", async () => {
    await page.getByRole("link", { name: "Buy a label" }).click();
    await page.getByRole("heading", { name: "Buy a label" }).waitFor();
    await expectScreenshot(page, "buy-a-label", { mask: [page.getByText(dashboard.email)] });
    await fillAddress(page, "Ship from", LOS_ANGELES_WAREHOUSE);
    await fillAddress(page, "Ship to", SALT_LAKE_RESIDENCE);
    await page.getByRole("button", { name: "Get rates" }).click();
    const firstRate = page.getByRole("group", { name: "Rates" }).getByRole("radio").first();
    await firstRate.waitFor();
    expect(await firstRate.isChecked()).toBe(true);
    await page.getByRole("button", { name: "Buy label" }).click();
    await page.getByRole("heading", { name: /^Shipment \w+$/ }).waitFor();
    const id = Number(new URL(page.url()).hash.split("/").at(-1));
    const stored = await t.services.db
      .selectFrom("shipments")
      .select(["account_id", "status"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ account_id: merchant.accountId, status: "shipped" });
  });

  it("shows the meter's balance, and the policy refused nothing along the way", async () => {
    await page.getByRole("link", { name: "Meter" }).click();
    await page.getByTestId("meter-balance").waitFor();
    expect(await page.getByTestId("meter-balance").textContent()).toMatch(/^\$-?\d+\.\d\d$/);
    await expectScreenshot(page, "meter", {
      mask: [page.getByText(dashboard.email), page.getByTestId("meter-balance")],
    });
    expect(dashboard.refused).toEqual([]);
  });
});
