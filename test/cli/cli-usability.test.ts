import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import {
  PROCESS_TEST_TIMEOUT_MS,
  type RunningServer,
  startServerProcess,
  stopProcess,
  waitForProcess,
} from "../helpers/processes.js";

const PACKAGE = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("the porter CLI for a newcomer", () => {
  let testDb: TestDatabase;
  let dataDir: string;
  const saved = { url: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-cli-"));
    process.env.DATABASE_URL = testDb.url;
    process.env.DATA_DIR = dataDir;
  });
  afterAll(async () => {
    for (const [name, value] of [
      ["DATABASE_URL", saved.url],
      ["DATA_DIR", saved.dataDir],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await testDb.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([["--version"], ["-V"]])("prints the package's version for %s", async (flag) => {
    const result = await cli(flag);
    expect(result).toEqual({ code: 0, stdout: `${PACKAGE.version}\n`, stderr: "" });
  });

  it("marks the required options in --help, and only those", async () => {
    const rotate = await cli("keys", "rotate", "--help");
    expect(rotate.code).toBe(0);
    expect(rotate.stdout).toMatch(/^ {2}--user <id> +user id \(required\)$/m);

    const create = await cli("users", "create", "--help");
    expect(create.stdout).toMatch(/^ {2}--account <id> +account id \(required\)$/m);
    expect(create.stdout).toMatch(/^ {2}--email <email> +email address \(required\)$/m);
    expect(create.stdout).toMatch(/^ {2}--role <role\.\.\.> +roles \(repeat or list\) \(required; choices: "Owner",/m);
    expect(create.stdout).toMatch(/^ {2}--first-name <name> +first name$/m);
  });

  it("writes an operation's failure as the error body on stderr with --json, and the exit code", async () => {
    const result = await cli("--json", "keys", "rotate", "--user", "999999");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(JSON.parse(result.stderr)).toEqual({
      status: "error",
      error_code: "user.not_found",
      error_message: "No user with id 999999.",
      exit_code: 1,
    });
  });

  it.each([
    ["a missing required option", ["keys", "rotate"], /required option '--user <id>' not specified/],
    ["an unknown command", ["frobnicate"], /unknown command 'frobnicate'/],
    ["a malformed value", ["keys", "rotate", "--user", "me"], /--user must be a positive whole number/],
  ])("writes a usage error (%s) as JSON with exit code 2, without the help text", async (_name, argv, message) => {
    const result = await cli("--json", ...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    const body = JSON.parse(lines[0] as string);
    expect(body).toMatchObject({ status: "error", error_code: "cli.usage", exit_code: 2 });
    expect(body.error_message).toMatch(message);
    expect(body.error_message).not.toMatch(/^error:/);
  });

  it("writes a configuration error as JSON with exit code 2", async () => {
    process.env.DATABASE_URL = "mysql://nope";
    try {
      const result = await cli("accounts", "list", "--json");
      expect(result.code).toBe(2);
      expect(JSON.parse(result.stderr)).toMatchObject({
        status: "error",
        error_code: "config.invalid",
        error_message: expect.stringContaining("DATABASE_URL must start with"),
        exit_code: 2,
      });
    } finally {
      process.env.DATABASE_URL = testDb.url;
    }
  });

  it("keeps text errors without --json", async () => {
    const result = await cli("keys", "rotate", "--user", "999999");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("porter: No user with id 999999. (user.not_found)\n");
  });

  describe("porter serve on a database that already has accounts", () => {
    let server: RunningServer | undefined;
    afterAll(() => stopProcess(server));

    it(
      "says the keys were shown on first start and names the command that rotates them",
      async () => {
        const created = await cli("--json", "accounts", "create", "--name", "Acme");
        expect(created.code, created.stderr).toBe(0);
        const account = JSON.parse(created.stdout) as { id: number };
        server = await startServerProcess(["src/cli/index.ts", "serve", "--no-worker"], {
          ...testDb.env,
          DATA_DIR: dataDir,
          LOG_LEVEL: "warn",
        });
        const running = server;
        const notice = await waitForProcess(running, "the start-up notice", () =>
          running.stdout().includes("porter keys rotate") ? running.stdout() : undefined,
        );
        expect(notice).not.toContain("Created the demo account");
        expect(notice).toMatch(/API keys were shown when they were made \(the demo account's on first start\)/);
        expect(notice).toContain("porter keys rotate --user <id>");
        expect(notice).toContain(`porter users list --account ${account.id}`);
        expect(notice).not.toMatch(/pk_(test|live)_/);
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  });
});
