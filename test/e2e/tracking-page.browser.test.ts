import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { describeInChromium } from "../helpers/browser.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { freePort } from "../helpers/processes.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, shipmentToBuy } from "../helpers/shipments.js";

/*
 * The public tracking page as a recipient's browser gets it: a real Porter server on a local port,
 * a sandbox label moved along its journey, and its public_tracking_url opened in Chromium.
 */

const LOGO = "https://cdn.acme.example/brand/logo.png";
const ACCOUNT_NAME = "Acme Outdoor & Co";
/** The WCAG 2 A and AA rules of axe-core. */
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * The little of the browser that the page-side checks read, typed here: the project compiles
 * against Node's types, not the DOM's. Functions run in the page reach it as `globalThis`.
 */
interface InPage {
  cspViolations: string[];
  scrollY: number;
  innerHeight: number;
  document: {
    activeElement: { tagName: string } | null;
    documentElement: { scrollHeight: number; scrollWidth: number };
    addEventListener(type: "securitypolicyviolation", listener: (event: SecurityPolicyViolation) => void): void;
  };
}
interface SecurityPolicyViolation {
  violatedDirective: string;
  blockedURI: string;
}
interface ImageElement {
  complete: boolean;
  naturalWidth: number;
}

interface TrackingJson {
  account: { name: string; logo_url: string | null };
  carrier: string;
  service: string;
  tracking_number: string;
  status: string;
  estimated_delivery_date: string;
  delivery_date: string | null;
  tracking_events: { event_date: string; status: string; description: string | null }[];
}

describeInChromium("the public tracking page in Chromium", (chromium) => {
  let t: TestApp;
  let origin: string;
  let merchant: TestAccount;
  let shipment: { id: number; public_tracking_url: string; tracking_number: string };
  let logoPng: Buffer;

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}/api/v2${path}`, {
      method,
      headers: { ...merchant.auth, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
    return response.json();
  };

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ config: { publicBaseUrl: origin } });
    await t.app.listen({ port, host: "127.0.0.1" });
    merchant = await createTestAccount(t.services, { name: ACCOUNT_NAME });
    await fundMeter(t.services, merchant);
    await connectSandboxCarriers(t.services, merchant.accountId);
    await api("PUT", "/account/tracking_page", { tracking_page: { logo_url: LOGO } });
    t.clock.set(new Date("2026-11-02T15:00:00Z"));
    ({ shipment } = (await api("POST", "/shipments/ship", {
      shipment: shipmentToBuy({ account_reference: "secret-ref-4411" }),
    })) as { shipment: typeof shipment });
    await api("POST", `/sandbox/shipments/${shipment.id}/advance`, { to: "in_transit" });
    logoPng = await sharp({ create: { width: 120, height: 40, channels: 3, background: "#2a6" } })
      .png()
      .toBuffer();
  });
  afterAll(() => t?.close());

  const facts = async () =>
    (await (
      await fetch(shipment.public_tracking_url, { headers: { accept: "application/json" } })
    ).json()) as TrackingJson;

  /**
   * Opens the page with every request watched: the server's own origin goes through, the
   * account's logo is answered here (its host is the merchant's, nothing of Porter's), and
   * anything else is refused and listed, so no request can leave the machine.
   */
  async function openTrackingPage(options: { locale?: string } = {}) {
    const page = await chromium.openPage({ locale: options.locale, viewport: { width: 320, height: 480 } });
    const elsewhere: string[] = [];
    const requested: string[] = [];
    await page.context().route("**/*", (route) => {
      const url = route.request().url();
      requested.push(url);
      if (url === LOGO) return route.fulfill({ status: 200, contentType: "image/png", body: logoPng });
      if (new URL(url).origin === origin || url.startsWith("data:")) return route.continue();
      elsewhere.push(url);
      return route.abort("blockedbyclient");
    });
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    // Injected by the browser's debugging protocol, which the page's policy does not govern.
    await page.addInitScript(() => {
      const seen: string[] = [];
      const browser = globalThis as unknown as InPage;
      browser.cspViolations = seen;
      browser.document.addEventListener("securitypolicyviolation", (event) => {
        seen.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    const response = await page.goto(shipment.public_tracking_url, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    const violations = async () => page.evaluate(() => (globalThis as unknown as InPage).cspViolations);
    return { page, requested, elsewhere, consoleErrors, violations };
  }

  async function expectAccessible(page: Page) {
    const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
    expect(
      results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(" | ")}`),
    ).toEqual([]);
    // axe ran its rules (a page it could not read would pass with nothing checked).
    expect(results.passes.length).toBeGreaterThan(5);
  }

  it("shows the carrier, service, status, estimated delivery and timeline, with the account's name and logo", async () => {
    const json = await facts();
    const { page } = await openTrackingPage({ locale: "en-US" });
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Tracking");
    const shown = async (term: string) => page.locator(`dt:text-is("${term}") + dd`).textContent();
    expect(await shown("Carrier")).toBe("USPS");
    expect(await shown("Service")).toBe("USPS Ground Advantage");
    expect(await shown("Tracking number")).toBe(shipment.tracking_number);
    expect(await shown("Status")).toBe("In transit");
    const estimate = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(`${json.estimated_delivery_date}T00:00:00Z`),
    );
    expect(await shown("Estimated delivery")).toBe(estimate);

    const events = page.getByRole("list").getByRole("listitem");
    expect(json.tracking_events.length).toBeGreaterThan(1);
    expect(await events.count()).toBe(json.tracking_events.length);
    const newest = json.tracking_events[0];
    expect(await events.first().locator("time").getAttribute("datetime")).toBe(newest?.event_date);
    expect(await events.first().textContent()).toMatch(/ UTC — In transit/);

    expect(await page.getByText(`Shipped by ${ACCOUNT_NAME}`).count()).toBe(1);
    const logo = page.getByRole("img", { name: ACCOUNT_NAME });
    expect(await logo.getAttribute("src")).toBe(LOGO);
    await expect.poll(() => logo.evaluate((image: ImageElement) => image.complete && image.naturalWidth)).toBe(120);
  });

  it("shows nothing else of the account or the shipment: no address, reference, email or key", async () => {
    const { page } = await openTrackingPage();
    const everything = await page.content();
    const accountEmail = await t.services.db
      .selectFrom("users")
      .select("email")
      .where("account_id", "=", merchant.accountId)
      .executeTakeFirstOrThrow();
    for (const secret of [
      LOS_ANGELES_WAREHOUSE.address1,
      LOS_ANGELES_WAREHOUSE.company,
      LOS_ANGELES_WAREHOUSE.phone,
      SALT_LAKE_RESIDENCE.address1,
      SALT_LAKE_RESIDENCE.last_name,
      SALT_LAKE_RESIDENCE.phone,
      "secret-ref-4411",
      accountEmail.email,
      merchant.keys.test,
      merchant.keys.production,
    ]) {
      expect(everything, secret).not.toContain(secret);
    }
  });

  it("works under its strict Content-Security-Policy, and sends no request off the machine", async () => {
    const { page, requested, elsewhere, consoleErrors, violations } = await openTrackingPage();
    await expect.poll(() => page.getByRole("img").evaluate((image: ImageElement) => image.complete)).toBe(true);
    expect(await violations()).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(requested[0]).toBe(shipment.public_tracking_url);
    expect(requested).toContain(LOGO);
    for (const url of requested) expect([origin, new URL(LOGO).origin]).toContain(new URL(url).origin);
  });

  it("can be read with the keyboard alone: nothing traps the focus, and the end of the timeline scrolls into view", async () => {
    const { page } = await openTrackingPage();
    // The page has nothing to operate, so Tab must not stop on anything hidden or trap the focus.
    for (let press = 0; press < 3; press += 1) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(
        () => (globalThis as unknown as InPage).document.activeElement?.tagName ?? "BODY",
      );
      expect(["BODY", "HTML"]).toContain(focused);
    }
    const lastEvent = page.getByRole("listitem").last();
    expect(
      await page.evaluate(() => {
        const browser = globalThis as unknown as InPage;
        return browser.document.documentElement.scrollHeight > browser.innerHeight;
      }),
    ).toBe(true);
    await page.keyboard.press("End");
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as InPage).scrollY)).toBeGreaterThan(0);
    await expect
      .poll(() =>
        lastEvent.evaluate(
          (item) => item.getBoundingClientRect().bottom <= (globalThis as unknown as InPage).innerHeight,
        ),
      )
      .toBe(true);
    // Reflow at 320 CSS pixels (WCAG 1.4.10): no sideways scrolling.
    expect(
      await page.evaluate(() => (globalThis as unknown as InPage).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(320);
  });

  it("passes axe-core's WCAG 2 A and AA rules", async () => {
    const { page } = await openTrackingPage();
    await expectAccessible(page);
  });

  it("is written in German for a browser set to German, and stays accessible", async () => {
    const json = await facts();
    const { page, consoleErrors, violations } = await openTrackingPage({ locale: "de-DE" });
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sendungsverfolgung");
    expect(await page.getByRole("heading", { level: 2 }).textContent()).toBe("Verlauf");
    expect(await page.locator('dt:text-is("Status") + dd').textContent()).toBe("Unterwegs");
    const estimate = new Intl.DateTimeFormat("de", { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(`${json.estimated_delivery_date}T00:00:00Z`),
    );
    expect(await page.locator('dt:text-is("Voraussichtliche Zustellung") + dd').textContent()).toBe(estimate);
    expect(await page.getByText(`Versendet von ${ACCOUNT_NAME}`).count()).toBe(1);
    expect(await violations()).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await expectAccessible(page);
  });

  it("answers the same URL with the timeline as JSON to Accept: application/json", async () => {
    const response = await fetch(shipment.public_tracking_url, { headers: { accept: "application/json" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("vary")).toBe("Accept, Accept-Language");
    const json = (await response.json()) as TrackingJson;
    expect(json).toMatchObject({
      account: { name: ACCOUNT_NAME, logo_url: LOGO },
      carrier: "USPS",
      service: "USPS Ground Advantage",
      tracking_number: shipment.tracking_number,
      status: "in_transit",
      delivery_date: null,
    });
    expect(json.tracking_events[0]?.status).toBe("in_transit");
    const text = JSON.stringify(json);
    for (const secret of [LOS_ANGELES_WAREHOUSE.address1, SALT_LAKE_RESIDENCE.address1, "secret-ref-4411"]) {
      expect(text).not.toContain(secret);
    }
  });
});
