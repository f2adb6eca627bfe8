import fs from "node:fs";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe } from "vitest";

/**
 * The Chromium the browser tests drive: Debian's package (`.ci/run` installs it), or the binary
 * `CHROMIUM_PATH` names. playwright-core brings no browser of its own, so nothing is downloaded.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

const chromiumAvailable = fs.existsSync(CHROMIUM_PATH);
const CHROMIUM_MISSING = `no Chromium at ${CHROMIUM_PATH}: install Debian's chromium package or set CHROMIUM_PATH`;

/** How long a browser may take to start or a page to settle before the test fails (only reached when something is wrong). */
export const BROWSER_LIMIT_MS = 60_000;

/**
 * Flags for a headless Chromium in CI, where tests run as root in a container: root cannot use
 * the sandbox, /dev/shm is small, and nothing should reach out (updates, sync, field trials).
 */
const CI_FLAGS = [
  "--no-sandbox",
  "--disable-dev-shm-usage",
  "--disable-gpu",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-field-trial-config",
  "--metrics-recording-only",
];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CI_FLAGS,
    timeout: BROWSER_LIMIT_MS,
  });
}

/**
 * One Chromium for the test file that calls it, started before its tests and closed after them.
 * `browser()` gives it; `openPage` opens a page in a fresh context (its own cookies, locale, …)
 * that is closed with the browser.
 */
export function useChromium() {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, BROWSER_LIMIT_MS);
  afterAll(async () => {
    await browser?.close();
  });
  const current = (): Browser => {
    if (!browser) throw new Error("Chromium is not started: call useChromium() inside the describe block");
    return browser;
  };
  return {
    browser: current,
    async openPage(options: BrowserContextOptions = {}): Promise<Page> {
      const context = await current().newContext(options);
      context.setDefaultTimeout(BROWSER_LIMIT_MS);
      return context.newPage();
    },
  };
}

export type Chromium = ReturnType<typeof useChromium>;

/**
 * A `describe` block whose tests drive one Chromium. Without a Chromium binary the block is
 * skipped, and says why, on a developer's machine; in CI (`CI` set) it fails instead, since
 * `.ci/run` installs one and a skipped browser test there would hide a broken install.
 */
export function describeInChromium(title: string, body: (chromium: Chromium) => void): void {
  if (!chromiumAvailable && process.env.CI) throw new Error(CHROMIUM_MISSING);
  if (!chromiumAvailable) console.warn(`Skipping "${title}": ${CHROMIUM_MISSING}`);
  describe.skipIf(!chromiumAvailable)(title, { timeout: BROWSER_LIMIT_MS }, () => body(useChromium()));
}
