import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pixelmatch from "pixelmatch";
import type { Locator, Page } from "playwright-core";
import { PNG } from "pngjs";

/** The kept screenshots, one PNG per page (docs/dashboard.md says how to update them). */
export const SCREENSHOTS_DIR = path.resolve(import.meta.dirname, "../e2e/screenshots");

/** `UPDATE_SCREENSHOTS=1` writes a missing screenshot, or one the page no longer matches, instead of failing. */
const UPDATING = process.env.UPDATE_SCREENSHOTS === "1";

/**
 * How far a pixel's colour may move before it counts as changed (pixelmatch's YIQ distance, 0–1),
 * and the share of changed pixels a page may have: enough for anti-aliasing that differs by a
 * pixel, far too little for a missing style, a moved block or a changed word.
 */
const COLOUR_THRESHOLD = 0.1;
const CHANGED_SHARE = 0.0005;

export interface ScreenshotOptions {
  /** What differs from run to run (dates, tracking numbers, ids): painted over in one colour. */
  mask?: Locator[];
}

/**
 * Compares the page as it shows now (the viewport) with the kept screenshot `name`.png: throws when
 * more than `CHANGED_SHARE` of the pixels changed or the size differs, leaving the new shot and a
 * picture of the changed pixels in the temporary directory. A missing screenshot is a failure
 * unless `UPDATE_SCREENSHOTS=1`, which writes it (and says so).
 */
export async function expectScreenshot(page: Page, name: string, options: ScreenshotOptions = {}): Promise<void> {
  const shot = await page.screenshot({
    animations: "disabled",
    caret: "hide",
    mask: options.mask ?? [],
    maskColor: "#ff00ff",
  });
  const kept = path.join(SCREENSHOTS_DIR, `${name}.png`);
  const keep = (why: string) => {
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    fs.writeFileSync(kept, shot);
    console.log(`Screenshot ${name}: ${why}, wrote ${path.relative(process.cwd(), kept)}`);
  };
  if (!fs.existsSync(kept)) {
    if (UPDATING) return keep("no kept screenshot");
    throw new Error(`No kept screenshot ${kept}: run the test with UPDATE_SCREENSHOTS=1 to write it, and commit it`);
  }
  const difference = compareScreenshots(fs.readFileSync(kept), shot);
  if (difference.matches) return;
  if (UPDATING) return keep(difference.why);
  const failed = fs.mkdtempSync(path.join(os.tmpdir(), `screenshot-${name}-`));
  fs.writeFileSync(path.join(failed, "actual.png"), shot);
  if (difference.diff) fs.writeFileSync(path.join(failed, "changed.png"), difference.diff);
  throw new Error(
    `Screenshot ${name} differs from ${kept}: ${difference.why}. The new shot and its changed pixels are in ${failed}; if the change is meant, rerun with UPDATE_SCREENSHOTS=1`,
  );
}

/** Whether two PNG screenshots match within the tolerance, and why not. */
export function compareScreenshots(keptPng: Buffer, newPng: Buffer): { matches: boolean; why: string; diff?: Buffer } {
  const kept = PNG.sync.read(keptPng);
  const shot = PNG.sync.read(newPng);
  if (kept.width !== shot.width || kept.height !== shot.height) {
    return { matches: false, why: `${shot.width}×${shot.height} pixels instead of ${kept.width}×${kept.height}` };
  }
  const diff = new PNG({ width: kept.width, height: kept.height });
  const changed = pixelmatch(kept.data, shot.data, diff.data, kept.width, kept.height, {
    threshold: COLOUR_THRESHOLD,
  });
  const share = changed / (kept.width * kept.height);
  return {
    matches: share <= CHANGED_SHARE,
    why: `${changed} pixels changed (${(share * 100).toFixed(2)} %, at most ${CHANGED_SHARE * 100} %)`,
    diff: PNG.sync.write(diff),
  };
}
