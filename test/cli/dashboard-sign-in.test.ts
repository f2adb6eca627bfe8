import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifyPassword } from "../../src/domain/accounts/passwords.js";
import { cli, json } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

/** `porter users set-password` and `porter users sign-in-link`, against a real database. */
describe("dashboard sign-in from the CLI", () => {
  let testDb: TestDatabase;
  let userId: number;
  const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    process.env.DATABASE_URL = testDb.url;
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "porter-cli-"));
    const account = json<{ id: number }>(await cli("--json", "accounts", "create", "--name", "Packing"));
    const created = json<{ user: { id: number } & Record<string, unknown> }>(
      await cli(
        "--json",
        "users",
        "create",
        "--account",
        String(account.id),
        "--email",
        "pack@example.com",
        "--role",
        "Member",
      ),
    );
    expect(created.user).not.toHaveProperty("password_hash");
    userId = created.user.id;
  });
  afterAll(async () => {
    fs.rmSync(process.env.DATA_DIR as string, { recursive: true, force: true });
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await testDb.drop();
  });

  const withStdin = async <T>(text: string, run: () => Promise<T>): Promise<T> => {
    const stdin = vi.spyOn(process, "stdin", "get").mockReturnValue(Readable.from([text]) as typeof process.stdin);
    try {
      return await run();
    } finally {
      stdin.mockRestore();
    }
  };
  const storedHash = async () =>
    (
      await testDb.db.kysely
        .selectFrom("users")
        .select("password_hash")
        .where("id", "=", userId)
        .executeTakeFirstOrThrow()
    ).password_hash;

  it("sets a password read from standard input (one line ending dropped), stored only as a scrypt hash", async () => {
    const result = await withStdin("packing table passphrase\n", () =>
      cli("users", "set-password", "--user", String(userId)),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`Password set for user ${userId}\n`);
    const stored = await storedHash();
    expect(stored).toMatch(/^scrypt\$/);
    expect(await verifyPassword("packing table passphrase", stored)).toBe(true);
    expect(await verifyPassword("packing table passphrase\n", stored)).toBe(false);
  });

  it("refuses a short password and takes none from the command line", async () => {
    const before = await storedHash();
    const short = await withStdin("short\n", () => cli("--json", "users", "set-password", "--user", String(userId)));
    expect(short.code).toBe(1);
    expect(JSON.parse(short.stderr)).toMatchObject({ error_code: "user.invalid_password" });
    const argv = await cli("users", "set-password", "--user", String(userId), "--password", "on the command line");
    expect(argv.code).toBe(2);
    expect(await storedHash()).toBe(before);
    const unknown = await withStdin("long enough passphrase", () => cli("users", "set-password", "--user", "999999"));
    expect(unknown.code).toBe(1);
  });

  it("prints a one-time sign-in link whose token is stored only hashed", async () => {
    const link = json<{ url: string; expires_at: string }>(
      await cli("--json", "users", "sign-in-link", "--user", String(userId)),
    );
    expect(link.url).toMatch(/^http:\/\/localhost:\d+\/dashboard\/#\/link\/[\w-]{43}$/);
    const token = link.url.split("/").at(-1) as string;
    const rows = await testDb.db.kysely.selectFrom("sign_in_links").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]).toMatchObject({ user_id: userId, used_at: null, expires_at: link.expires_at });
  });
});
