import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import type { Config } from "../../src/config.js";
import { setPassword } from "../../src/domain/accounts/dashboard-sessions.js";
import type { Role } from "../../src/domain/accounts/roles.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "./app.js";
import { launchChromium } from "./browser.js";
import { connectSandboxCarriers } from "./carriers.js";

export const DASHBOARD_PASSWORD = "packing table passphrase";

/** The buy form's label for each field of an address (dashboard/src/LabelForm.tsx). */
const ADDRESS_LABELS: Record<string, string> = {
  company: "Company",
  first_name: "First name",
  last_name: "Last name",
  address1: "Street address",
  city: "City",
  state: "State",
  postal_code: "ZIP code",
  country: "Country code",
  phone: "Phone",
};

/** Types an address (the API's fields) into the buy form's group of that legend. */
export async function fillAddress(page: Page, legend: string, address: Record<string, string>): Promise<void> {
  const group = page.getByRole("group", { name: legend, exact: true });
  for (const [field, value] of Object.entries(address)) {
    const label = ADDRESS_LABELS[field];
    if (label) await group.getByLabel(label).fill(value);
  }
}

/** Bounds each browser step: a page that never shows what it should fails instead of hanging. */
export const STEP_MS = 15_000;

export interface Dashboard {
  t: TestApp;
  merchant: TestAccount;
  email: string;
  /** `http://localhost:PORT`: a browser keeps `Secure` cookies on localhost without https. */
  base: string;
  browser: Browser;
  page: Page;
  /** Console messages where the Content-Security-Policy refused something. */
  refused: string[];
  /** axe-core's WCAG 2.1 A and AA findings on the page as it is now, one line each. */
  accessibilityViolations(): Promise<string[]>;
  /** Signs the page in through the sign-in form (as the account's user, or `as`) and waits for the first page's heading. */
  signIn(heading?: string, as?: string): Promise<void>;
  close(): Promise<void>;
}

/** A user's email address, to sign in with. */
export async function emailOf(t: TestApp, userId: number): Promise<string> {
  const user = await t.services.db
    .selectFrom("users")
    .select("email")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return user.email;
}

/**
 * A listening test server with one account (sandbox carriers connected, a password set) and a
 * Chromium page at the dashboard, not yet signed in. Call in `beforeAll`, `close` in `afterAll`.
 */
export async function openDashboard(options: { roles?: Role[]; config?: Partial<Config> } = {}): Promise<Dashboard> {
  const t = await buildTestApp({ config: options.config });
  const merchant = await createTestAccount(t.services, options.roles ? { roles: options.roles } : {});
  await connectSandboxCarriers(t.services, merchant.accountId);
  await setPassword(t.services, merchant.userId, DASHBOARD_PASSWORD);
  const email = await emailOf(t, merchant.userId);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://localhost:${(t.app.server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(STEP_MS);
  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/.test(message.text())) {
      refused.push(message.text());
    }
  });
  return {
    t,
    merchant,
    email,
    base,
    browser,
    page,
    refused,
    async accessibilityViolations() {
      const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    },
    async signIn(heading = "Shipments", as = email) {
      const response = await page.goto(`${base}/dashboard/`);
      expect(response?.status()).toBe(200);
      await page.getByLabel("Email").fill(as);
      await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: heading }).waitFor();
    },
    async close() {
      await browser.close();
      await t.close();
    },
  };
}
