#!/usr/bin/env node
// Runs the whole suite on SQLite, then on PostgreSQL, and prints the totals over both.
// Extra arguments go to vitest (a file filter, for example).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const postgresUrl = process.env.TEST_POSTGRES_URL || "postgres://root@127.0.0.1:5432/test";
const engines = [
  { name: "sqlite", env: { TEST_DATABASE_URL: "" } },
  { name: "postgres", env: { TEST_DATABASE_URL: postgresUrl } },
];
const only = process.env.TEST_ENGINES?.split(",");
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-vitest-"));
const vitest = path.resolve("node_modules/vitest/vitest.mjs");

let passed = 0;
let failed = 0;
const lines = [];
for (const engine of engines.filter((e) => !only || only.includes(e.name))) {
  const report = path.join(reportDir, `${engine.name}.json`);
  console.log(`\n=== Test suite on ${engine.name} ===`);
  const run = spawnSync(
    process.execPath,
    [vitest, "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
    { stdio: "inherit", env: { ...process.env, ...engine.env } },
  );
  let enginePassed = 0;
  let engineFailed = 0;
  if (fs.existsSync(report)) {
    const result = JSON.parse(fs.readFileSync(report, "utf8"));
    enginePassed = result.numPassedTests;
    engineFailed = result.numFailedTests + (result.success || result.numFailedTests > 0 ? 0 : 1);
  } else {
    engineFailed = 1;
  }
  if (run.status !== 0 && engineFailed === 0) engineFailed = 1;
  passed += enginePassed;
  failed += engineFailed;
  lines.push(`${engine.name}: ${enginePassed} passed, ${engineFailed} failed`);
}
fs.rmSync(reportDir, { recursive: true, force: true });
console.log(`\n${lines.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
