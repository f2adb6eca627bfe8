import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/domain/accounts/create-user.js";
import { setPassword } from "../../src/domain/accounts/dashboard-sessions.js";
import type { TestAccount, TestApp } from "../helpers/app.js";
import { DASHBOARD_PASSWORD, type Dashboard, openDashboard, STEP_MS } from "../helpers/dashboard-browser.js";

/**
 * The dashboard's Users page in Chromium: add a user with roles and copy their keys from the
 * dialog that shows them once, rotate a key (the old one is refused at once), take the API role
 * away; a Billing-only user sees neither the Users nor the Shipments page.
 */
describe("the dashboard's Users page", () => {
  let dashboard: Dashboard;
  let t: TestApp;
  let merchant: TestAccount;
  let page: Page;
  let added: { email: string; test: string; production: string };

  const ping = (key: string) =>
    t.app.inject({ method: "GET", url: "/api/v2/test/ping", headers: { authorization: `Bearer ${key}` } });
  const row = (email: string) => page.getByRole("row").filter({ hasText: email });
  const keyDialog = () => page.getByRole("dialog", { name: /^New API key/ });

  beforeAll(async () => {
    dashboard = await openDashboard();
    ({ t, merchant, page } = dashboard);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: dashboard.base });
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it("lists the account's users with their keys masked, with no WCAG A or AA violations", async () => {
    await dashboard.signIn();
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByRole("heading", { name: "Users" }).waitFor();
    const own = row(dashboard.email);
    await own.getByText(`pk_test_…${merchant.keys.test.slice(-4)}`).waitFor();
    expect(await page.content()).not.toContain(merchant.keys.test);
    expect(await dashboard.accessibilityViolations()).toEqual([]);
  });

  it("adds a user with roles and shows the keys once, with a copy button", async () => {
    const email = "packer@example.com";
    await page.getByLabel("Email").fill(email);
    await page.getByRole("checkbox", { name: /^Billing/ }).check();
    await page.getByRole("button", { name: "Add user" }).click();
    const dialog = keyDialog();
    await dialog.waitFor();
    await dialog.getByText("will not be shown again").waitFor();
    const test = await dialog.getByLabel("Test key").inputValue();
    const production = await dialog.getByLabel("Production key").inputValue();
    expect(test).toMatch(/^pk_test_\w{32}$/);
    expect(production).toMatch(/^pk_live_\w{32}$/);
    expect(await dashboard.accessibilityViolations()).toEqual([]);

    await dialog.getByRole("button", { name: "Copy the test key" }).click();
    await dialog.getByRole("button", { name: "Copied the test key" }).waitFor();
    const clipboard = () =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText();
    expect(await page.evaluate(clipboard)).toBe(test);
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });

    await row(email)
      .getByText(`pk_test_…${test.slice(-4)}`)
      .waitFor();
    expect(await row(email).getByRole("cell").nth(2).textContent()).toBe("API, Billing");
    expect(await page.content()).not.toContain(test);
    expect((await ping(test)).statusCode).toBe(200);
    added = { email, test, production };
  });

  it("rotates a key: the new one is shown once and works, the old one is refused at once", async () => {
    await row(added.email)
      .getByRole("button", { name: `Rotate key of ${added.email}` })
      .click();
    const dialog = keyDialog();
    await dialog.waitFor();
    const fresh = await dialog.getByLabel("Test key").inputValue();
    expect(fresh).toMatch(/^pk_test_/);
    expect(fresh).not.toBe(added.test);
    // The dashboard is in test mode: only the test key is replaced.
    expect(await dialog.getByLabel("Production key").count()).toBe(0);
    await dialog.getByRole("button", { name: "Done" }).click();
    await row(added.email)
      .getByText(`pk_test_…${fresh.slice(-4)}`)
      .waitFor();

    expect((await ping(added.test)).statusCode).toBe(401);
    expect((await ping(fresh)).statusCode).toBe(200);
    expect((await ping(added.production)).statusCode).toBe(200);
    added.test = fresh;
  });

  it("changes roles: without API the user's keys stop and leave the list", async () => {
    await row(added.email)
      .getByRole("button", { name: `Change roles of ${added.email}` })
      .click();
    const dialog = page.getByRole("dialog", { name: `Roles of ${added.email}` });
    await dialog.getByRole("checkbox", { name: /^API/ }).uncheck();
    await dialog.getByText("keys stop working at once").waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    await dialog.getByRole("button", { name: "Save roles" }).click();
    await dialog.waitFor({ state: "detached" });
    await row(added.email).getByRole("cell", { name: "Billing", exact: true }).waitFor();
    expect(
      await row(added.email)
        .getByRole("button", { name: /^Rotate key/ })
        .count(),
    ).toBe(0);
    expect((await ping(added.test)).statusCode).toBe(401);
    expect((await ping(added.production)).statusCode).toBe(401);
  });

  it("refuses to take the last Owner's administration, and says why", async () => {
    await row(dashboard.email)
      .getByRole("button", { name: `Change roles of ${dashboard.email}` })
      .click();
    const dialog = page.getByRole("dialog", { name: `Roles of ${dashboard.email}` });
    await dialog.getByRole("checkbox", { name: /^Owner/ }).uncheck();
    await dialog.getByRole("button", { name: "Save roles" }).click();
    await dialog.getByRole("alert").getByText("last user with the Primary or Owner role").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(dashboard.refused).toEqual([]);
  });

  it("shows a Billing-only user neither the Users nor the Shipments page", async () => {
    const { user } = await createUser(t.services, {
      accountId: merchant.accountId,
      email: "finance@example.com",
      roles: ["Billing"],
    });
    await setPassword(t.services, user.id, DASHBOARD_PASSWORD);
    const context = await dashboard.browser.newContext();
    try {
      const billing = await context.newPage();
      billing.setDefaultTimeout(STEP_MS);
      await billing.goto(`${dashboard.base}/dashboard/#/users`);
      await billing.getByLabel("Email").fill("finance@example.com");
      await billing.getByLabel("Password").fill(DASHBOARD_PASSWORD);
      await billing.getByRole("button", { name: "Sign in" }).click();
      await billing.getByRole("button", { name: "Sign out" }).waitFor();
      const navigation = billing.getByRole("navigation", { name: "Pages" });
      expect(await navigation.getByRole("link", { name: "Users" }).count()).toBe(0);
      expect(await navigation.getByRole("link", { name: "Shipments" }).count()).toBe(0);
      await billing.goto(`${dashboard.base}/dashboard/#/users`);
      await billing.getByRole("heading", { name: "No such page" }).waitFor();
      expect(await billing.getByRole("heading", { name: "Users" }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
