import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { DASHBOARD_BUNDLE } from "../src/http/routes/dashboard/dashboard-app.routes.js";

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
