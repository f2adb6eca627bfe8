import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { DASHBOARD_BUNDLE } from "../src/http/routes/dashboard/dashboard-app.routes.js";

const SOURCES = ["dashboard/src", "dashboard/index.html", "dashboard/vite.config.ts", "package-lock.json"];

const newest = (file: string): number => {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(file).map((name) => newest(path.join(file, name))));
};

/**
 * The tests serve the dashboard's bundle as `npm start` does: it is built (a few seconds) when it
 * is missing or older than its sources, once per run of the suite, not once per test file.
 */
export default function buildDashboardBundle(): void {
  const built = path.join(DASHBOARD_BUNDLE, "index.html");
  if (fs.existsSync(built) && newest(built) >= Math.max(...SOURCES.map(newest))) return;
  execFileSync(
    process.execPath,
    ["node_modules/vite/bin/vite.js", "build", "--config", "dashboard/vite.config.ts", "--logLevel", "warn"],
    // vitest sets NODE_ENV=test, which would give React's development build.
    { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } },
  );
}
