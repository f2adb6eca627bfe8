import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { DASHBOARD_BUNDLE } from "../src/http/routes/dashboard/dashboard-app.routes.js";
import { launchChromium } from "../test/helpers/browser.js";
import { type Engine, seeded } from "./bench-list.js";
import { median, startPorter, stop } from "./bench-processes.js";

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The dashboard bundle's files (built by `npm run build`, which the benchmark runs first), raw and gzipped. */
export function dashboardBundleTable(): string {
  const assets = path.join(DASHBOARD_BUNDLE, "assets");
  const rows = fs
    .readdirSync(assets)
    .sort()
    .map((name) => {
      const bytes = fs.readFileSync(path.join(assets, name));
      return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
  const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), { raw: 0, gzip: 0 });
  return [
    "| Dashboard file | Size | Gzipped |",
    "|---|---|---|",
    ...rows.map((row) => `| ${row.name} | ${kib(row.raw)} | ${kib(row.gzip)} |`),
    `| all | ${kib(total.raw)} | ${kib(total.gzip)} |`,
  ].join("\n");
}

export interface DashboardRenderFigure {
  engine: Engine["name"];
  /** From navigation to the shipments list's first row shown: the first load after signing in, and the median of five more. */
  firstMs: number;
  medianMs: number;
}

/**
 * The shipments list's first render in Chromium for a signed-in user of the account with
 * 1,000,000 shipments (scripts/bench-list.ts seeds it): from `goto` of the dashboard to its first
 * table row visible. The user signs in once through a one-time link (`porter users sign-in-link`);
 * each load reloads the page with the bundle in the browser's cache, as a returning user has it.
 */
export async function measureDashboardFirstRender(engine: Engine): Promise<DashboardRenderFigure> {
  const seed = await seeded(engine);
  const env = engine.env(seed.dataDir);
  // User 1 is the seeded database's only user: the demo account's, made by its first start.
  const link = spawnSync(process.execPath, ["dist/cli/index.js", "users", "sign-in-link", "--user", "1"], {
    env: { ...process.env, DATA_DIR: seed.dataDir, ...env },
    encoding: "utf8",
  });
  const token = /#\/link\/([\w-]+)/.exec(link.stdout)?.[1];
  if (!token) throw new Error(`porter users sign-in-link printed no link: ${link.stdout}${link.stderr}`);
  const porter = await startPorter(["--no-worker"], env, seed.dataDir, "dashboard", { key: seed.key });
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(`${porter.origin}/dashboard/#/link/${token}`);
    await page.getByRole("heading", { name: "Shipments" }).waitFor();
    // A reload: the page's own work (document, script, session, list) without the start of a new
    // renderer process, which navigating from another site costs the browser whatever the page.
    const load = async () => {
      const started = performance.now();
      await page.reload();
      await page.locator("tbody tr").first().waitFor();
      return performance.now() - started;
    };
    const firstMs = await load();
    const times: number[] = [];
    for (let run = 0; run < 5; run++) times.push(await load());
    return { engine: engine.name, firstMs, medianMs: median(times) };
  } finally {
    await browser.close();
    await stop(porter.child);
  }
}
