import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findKeyHolder } from "../../src/domain/accounts/accounts.repository.js";
import { hashApiKey } from "../../src/domain/accounts/api-keys.js";
import { insertMoneyIncident } from "../../src/storage/money-incidents.js";
import { type CliResult, cli } from "../helpers/cli.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { standInOrder, WooCommerceStandIn } from "../stand-ins/woocommerce/woocommerce-stand-in.js";

function json<T = Record<string, unknown>>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

interface CreatedUserOutput {
  user: { id: number; email: string; account_id: number; roles: string[] };
  api_keys: { test: string; production: string } | null;
}

describe("the porter CLI", () => {
  let testDb: TestDatabase;
  const savedUrl = process.env.DATABASE_URL;

  const authenticates = async (key: string) => (await findKeyHolder(testDb.db.kysely, hashApiKey(key))) !== undefined;

  const savedDataDir = process.env.DATA_DIR;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    process.env.DATABASE_URL = testDb.url;
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "porter-cli-"));
  });
  afterAll(async () => {
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
    fs.rmSync(process.env.DATA_DIR as string, { recursive: true, force: true });
    if (savedDataDir === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = savedDataDir;
    await testDb.drop();
  });

  let accountId: number;

  it("creates an account and prints it as JSON with --json", async () => {
    const account = json<{ id: number; name: string; parent_id: number | null }>(
      await cli("--json", "accounts", "create", "--name", "Acme", "--email", "ops@acme.test"),
    );
    expect(account.id).toEqual(expect.any(Number));
    expect(account).toMatchObject({ name: "Acme", parent_id: null, email: "ops@acme.test" });
    accountId = account.id;

    const stored = await testDb.db.kysely
      .selectFrom("accounts")
      .selectAll()
      .where("id", "=", accountId)
      .executeTakeFirst();
    expect(stored?.name).toBe("Acme");
  });

  it("creates a child account with --parent, and refuses a grandchild", async () => {
    const plain = await cli("accounts", "create", "--name", "Kid", "--parent", String(accountId));
    expect(plain.code, plain.stderr).toBe(0);
    const match = /^Created account (\d+) \(Kid\)$/m.exec(plain.stdout);
    expect(match).not.toBeNull();
    const kidId = Number(match?.[1]);
    const kid = await testDb.db.kysely.selectFrom("accounts").selectAll().where("id", "=", kidId).executeTakeFirst();
    expect(kid?.parent_id).toBe(accountId);

    const grandchild = await cli("accounts", "create", "--name", "Grandkid", "--parent", String(kidId));
    expect(grandchild.code).toBe(1);
    expect(grandchild.stderr).toContain("customer.nesting_not_allowed");
  });

  it("fails with exit code 1 when the parent account does not exist", async () => {
    const result = await cli("accounts", "create", "--name", "Orphan", "--parent", "999999");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("account.not_found");
    expect(result.stdout).toBe("");
  });

  it("lists accounts, as text and as JSON", async () => {
    const text = await cli("accounts", "list");
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`${accountId}\tAcme\n`);
    expect(text.stdout).toMatch(new RegExp(`^\\d+\\tKid\\t\\(child of ${accountId}\\)$`, "m"));

    const rows = json<Array<{ id: number; name: string; parent_id: number | null }>>(
      await cli("--json", "accounts", "list"),
    );
    expect(rows.map((r) => r.name)).toEqual(["Acme", "Kid"]);
    expect(rows[1]?.parent_id).toBe(accountId);
  });

  let userId: number;
  let keys: { test: string; production: string };

  it("creates an API user and prints its test and production keys once", async () => {
    const created = json<CreatedUserOutput>(
      await cli("--json", "users", "create", "--account", String(accountId), "--email", "a@b.co", "--role", "API"),
    );
    expect(created.user).toMatchObject({ email: "a@b.co", account_id: accountId, roles: ["API"] });
    expect(created.api_keys).not.toBeNull();
    keys = created.api_keys as { test: string; production: string };
    userId = created.user.id;
    expect(keys.test).toMatch(/^pk_test_[0-9A-Za-z]{32}$/);
    expect(keys.production).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);

    const holder = await findKeyHolder(testDb.db.kysely, hashApiKey(keys.test));
    expect(holder).toMatchObject({ userId, accountId, mode: "test" });
    expect(await findKeyHolder(testDb.db.kysely, hashApiKey(keys.production))).toMatchObject({ mode: "production" });
  });

  it("prints the keys in text mode too, with several roles", async () => {
    const result = await cli(
      "users",
      "create",
      "--account",
      String(accountId),
      "--email",
      "owner@acme.test",
      "--role",
      "Owner",
      "API",
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Created user \d+ \(owner@acme\.test\) with roles Owner,API$/m);
    expect(result.stdout).toMatch(/^ {2}test: +pk_test_[0-9A-Za-z]{32}$/m);
    expect(result.stdout).toMatch(/^ {2}production: +pk_live_[0-9A-Za-z]{32}$/m);
  });

  it("prints no keys for a user without the API role", async () => {
    const asJson = json<CreatedUserOutput>(
      await cli("--json", "users", "create", "--account", String(accountId), "--email", "m@b.co", "--role", "Member"),
    );
    expect(asJson.api_keys).toBeNull();
    expect(asJson.user.roles).toEqual(["Member"]);

    const text = await cli("users", "create", "--account", String(accountId), "--email", "o@b.co", "--role", "Owner");
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("with roles Owner");
    expect(text.stdout).not.toContain("pk_");

    const stored = await testDb.db.kysely
      .selectFrom("api_keys")
      .select("id")
      .where("user_id", "in", [asJson.user.id])
      .execute();
    expect(stored).toEqual([]);
  });

  it("lists an account's users with masked keys, never the full key", async () => {
    const text = await cli("users", "list", "--account", String(accountId));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("a@b.co");
    expect(text.stdout).toContain(`pk_test_…${keys.test.slice(-4)}`);
    expect(text.stdout).toContain(`pk_live_…${keys.production.slice(-4)}`);
    expect(text.stdout).not.toContain(keys.test);
    expect(text.stdout).not.toContain(keys.production);

    const rows = json<Array<{ id: number; email: string; api_keys: Array<{ mode: string; api_key: string }> }>>(
      await cli("--json", "users", "list", "--account", String(accountId)),
    );
    const apiUser = rows.find((u) => u.id === userId);
    expect(apiUser?.api_keys).toEqual([
      { mode: "test", api_key: `pk_test_…${keys.test.slice(-4)}` },
      { mode: "production", api_key: `pk_live_…${keys.production.slice(-4)}` },
    ]);
    expect(rows.find((u) => u.email === "m@b.co")?.api_keys).toEqual([]);
    const whole = JSON.stringify(rows);
    expect(whole).not.toContain(keys.test);
    expect(whole).not.toContain(keys.production);
    expect(whole).not.toContain(hashApiKey(keys.test));
  });

  it("rotates a user's keys: new keys work, the old ones stop authenticating", async () => {
    expect(await authenticates(keys.test)).toBe(true);
    const rotated = json<{ user_id: number; api_keys: { test: string; production: string } }>(
      await cli("--json", "keys", "rotate", "--user", String(userId)),
    );
    expect(rotated.user_id).toBe(userId);
    expect(rotated.api_keys.test).toMatch(/^pk_test_[0-9A-Za-z]{32}$/);
    expect(rotated.api_keys.production).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    expect(rotated.api_keys.test).not.toBe(keys.test);

    expect(await authenticates(keys.test)).toBe(false);
    expect(await authenticates(keys.production)).toBe(false);
    expect(await findKeyHolder(testDb.db.kysely, hashApiKey(rotated.api_keys.test))).toMatchObject({
      userId,
      mode: "test",
    });
    expect(await authenticates(rotated.api_keys.production)).toBe(true);

    // Text mode prints the fresh pair too, and that rotation again retires the JSON one.
    const text = await cli("keys", "rotate", "--user", String(userId));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`New keys for user ${userId}:`);
    const newTest = /pk_test_[0-9A-Za-z]{32}/.exec(text.stdout)?.[0];
    expect(newTest).toBeDefined();
    expect(await authenticates(newTest as string)).toBe(true);
    expect(await authenticates(rotated.api_keys.test)).toBe(false);
    keys = { test: newTest as string, production: /pk_live_[0-9A-Za-z]{32}/.exec(text.stdout)?.[0] as string };
  });

  it("refuses to rotate keys of a user without the API role, or of an unknown user", async () => {
    const member = await testDb.db.kysely
      .selectFrom("users")
      .select("id")
      .where("email", "=", "m@b.co")
      .executeTakeFirstOrThrow();
    const noApi = await cli("keys", "rotate", "--user", String(member.id));
    expect(noApi.code).toBe(1);
    expect(noApi.stderr).toContain("user.not_api_user");

    const unknown = await cli("keys", "rotate", "--user", "999999");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("user.not_found");
  });

  it("revokes every key of a user", async () => {
    expect(await authenticates(keys.test)).toBe(true);
    const revoked = json<{ user_id: number; revoked: number }>(
      await cli("--json", "keys", "revoke", "--user", String(userId)),
    );
    expect(revoked).toEqual({ user_id: userId, revoked: 2 });
    expect(await authenticates(keys.test)).toBe(false);
    expect(await authenticates(keys.production)).toBe(false);

    const again = await cli("keys", "revoke", "--user", String(userId));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe("Revoked 0 key(s).");

    const listed = await cli("users", "list", "--account", String(accountId));
    expect(listed.stdout).not.toContain(`…${keys.test.slice(-4)}`);
  });

  it.each([
    ["accounts create without --name", ["accounts", "create"], /--name/],
    [
      "a non-numeric --account",
      ["users", "create", "--account", "abc", "--email", "x@y.co", "--role", "API"],
      /--account must be a positive whole number/,
    ],
    [
      "a zero --parent",
      ["accounts", "create", "--name", "X", "--parent", "0"],
      /--parent must be a positive whole number/,
    ],
    ["an unknown role", ["users", "create", "--account", "1", "--email", "x@y.co", "--role", "Nope"], /Nope/],
    ["users create without --role", ["users", "create", "--account", "1", "--email", "x@y.co"], /--role/],
    ["an unknown command", ["frobnicate"], /unknown command/i],
    ["an unknown option", ["accounts", "list", "--colour"], /unknown option/i],
  ])("exits with 2 on %s, explaining on stderr", async (_name, argv, message) => {
    const before = await testDb.db.kysely.selectFrom("users").select("id").execute();
    const result = await cli(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(await testDb.db.kysely.selectFrom("users").select("id").execute()).toEqual(before);
  });

  it("exits with 2 on a bad configuration", async () => {
    process.env.DATABASE_URL = "mysql://nope";
    try {
      const result = await cli("accounts", "list");
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("DATABASE_URL must start with sqlite:// or postgres://");
    } finally {
      process.env.DATABASE_URL = testDb.url;
    }
  });

  it("prints help and exits with 0 for --help", async () => {
    const result = await cli("--help");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: porter");
    for (const command of ["serve", "worker", "migrate", "accounts", "users", "keys", "carriers", "stores"]) {
      expect(result.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, "m"));
    }
  });

  it("prints a command group's help and exits with 0 for users --help", async () => {
    const result = await cli("users", "--help");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: porter users");
    expect(result.stdout).toMatch(/^ {2}create\b/m);
    expect(result.stdout).toMatch(/^ {2}list\b/m);
  });

  it("connects, lists and disconnects carriers, and sets a carrier API's status", async () => {
    const connected = json<{ id: number; carrier_code: string; mode: string }>(
      await cli(
        "--json",
        "carriers",
        "connect",
        "--account",
        String(accountId),
        "--carrier",
        "ups",
        "--services",
        "666,669",
        "--credentials",
        '{"account_number":"A1B2C3","password":"hunter2"}',
      ),
    );
    expect(connected).toMatchObject({ carrier_code: "ups", mode: "test" });
    expect(JSON.stringify(connected)).not.toContain("hunter2");

    const listed = json<{ id: number; carrier_code: string }[]>(
      await cli("--json", "carriers", "list", "--account", String(accountId)),
    );
    expect(listed.map((c) => c.carrier_code)).toEqual(["ups"]);

    expect((await cli("carriers", "connect", "--account", String(accountId), "--carrier", "ups")).code).toBe(1);
    expect((await cli("carriers", "connect", "--account", String(accountId), "--carrier", "pony")).code).toBe(2);
    expect(
      (await cli("carriers", "connect", "--account", String(accountId), "--carrier", "usps", "--credentials", "[1]"))
        .code,
    ).toBe(2);

    const status = await cli(
      "carriers",
      "status",
      "--carrier",
      "ups",
      "--api",
      "rate",
      "--status",
      "offline",
      "--message",
      "down",
    );
    expect(status.code, status.stderr).toBe(0);
    const row = await testDb.db.kysely.selectFrom("carrier_service_statuses").selectAll().executeTakeFirst();
    expect(row).toMatchObject({ carrier_code: "ups", api_service: "rate", status: "offline", message: "down" });
    expect((await cli("carriers", "status", "--carrier", "ups", "--api", "manifest", "--status", "offline")).code).toBe(
      1,
    );

    const gone = await cli("carriers", "disconnect", "--account", String(accountId), "--id", String(connected.id));
    expect(gone.code, gone.stderr).toBe(0);
    expect(json<unknown[]>(await cli("--json", "carriers", "list", "--account", String(accountId)))).toEqual([]);
  });
  it("creates, lists, shows, renames and deletes order stores, never printing credentials", async () => {
    const custom = json<{ id: number; service_type: string; mode: string; name: string }>(
      await cli("--json", "stores", "create", "--account", String(accountId), "--name", "Web", "--type", "custom"),
    );
    expect(custom).toMatchObject({ service_type: "custom", mode: "test", name: "Web" });

    const savedSecret = process.env.PORTER_STORE_CONSUMER_SECRET;
    process.env.PORTER_STORE_CONSUMER_SECRET = "cs_from_the_environment";
    let woo: CliResult;
    try {
      woo = await cli(
        "stores",
        "create",
        "--account",
        String(accountId),
        "--name",
        "Woo",
        "--type",
        "woocommerce",
        "--mode",
        "production",
        "--site-url",
        "https://shop.example.com",
        "--consumer-key",
        "ck_secret_key",
      );
    } finally {
      if (savedSecret === undefined) delete process.env.PORTER_STORE_CONSUMER_SECRET;
      else process.env.PORTER_STORE_CONSUMER_SECRET = savedSecret;
    }
    expect(woo.code, woo.stderr).toBe(0);
    const wooId = Number(/^Created woocommerce store (\d+) \(Woo\)$/m.exec(woo.stdout)?.[1]);
    const sealed = await testDb.db.kysely
      .selectFrom("order_stores")
      .select("credentials_sealed")
      .where("id", "=", wooId)
      .executeTakeFirstOrThrow();
    expect(sealed.credentials_sealed).not.toContain("ck_secret_key");

    const missing = await cli(
      "stores",
      "create",
      "--account",
      String(accountId),
      "--name",
      "Shop",
      "--type",
      "shopify",
      "--shop-domain",
      "x.myshopify.com",
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("order_store.credentials_missing");
    expect(missing.stderr).toContain("access_token");

    const testStores = json<Array<{ id: number }>>(
      await cli("--json", "stores", "list", "--account", String(accountId)),
    );
    expect(testStores.map((s) => s.id)).toEqual([custom.id]);
    const production = await cli("stores", "list", "--account", String(accountId), "--mode", "production");
    expect(production.stdout).toBe(`${wooId}\twoocommerce\tproduction\tWoo\n`);

    const shown = await cli(
      "--json",
      "stores",
      "show",
      "--account",
      String(accountId),
      "--mode",
      "production",
      "--id",
      String(wooId),
    );
    expect(json(shown)).toMatchObject({ id: wooId, service_type: "woocommerce", name: "Woo" });
    expect(shown.stdout).not.toMatch(/ck_secret_key|cs_from_the_environment|credentials/);
    // A store of the other mode, or another account's, is not found.
    const otherMode = await cli("stores", "show", "--account", String(accountId), "--id", String(wooId));
    expect(otherMode.code).toBe(1);
    expect(otherMode.stderr).toContain("order_store.not_found");

    const renamed = await cli(
      "stores",
      "rename",
      "--account",
      String(accountId),
      "--id",
      String(custom.id),
      "--name",
      "Shop 2",
    );
    expect(renamed.stdout.trim()).toBe(`Renamed store ${custom.id} to Shop 2`);
    const deleted = await cli("stores", "delete", "--account", String(accountId), "--id", String(custom.id));
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(json<unknown[]>(await cli("--json", "stores", "list", "--account", String(accountId)))).toEqual([]);

    const noAccount = await cli("stores", "list", "--account", "999999");
    expect(noAccount.code).toBe(1);
    expect(noAccount.stderr).toContain("account.not_found");
    expect((await cli("stores", "create", "--account", String(accountId), "--name", "X", "--type", "etsy")).code).toBe(
      2,
    );
    expect((await cli("stores", "show", "--account", String(accountId))).code).toBe(2);
  });
  it("syncs a WooCommerce store's orders now, and refuses a custom store", async () => {
    const standIn = new WooCommerceStandIn();
    await standIn.start();
    // The stand-in listens on loopback, which the outbound guard lets through only when told to.
    process.env.OUTBOUND_ALLOW_PRIVATE_TARGETS = "127.0.0.1";
    try {
      const site = standIn.addSite({
        orders: [standInOrder(1, "2026-06-01T00:00:00Z"), standInOrder(2, "2026-06-02T00:00:00Z")],
      });
      const store = json<{ id: number }>(
        await cli(
          "--json",
          "stores",
          "create",
          "--account",
          String(accountId),
          "--name",
          "Woo sync",
          "--type",
          "woocommerce",
          "--site-url",
          standIn.siteUrl(site),
          "--consumer-key",
          site.consumerKey,
          "--consumer-secret",
          site.consumerSecret,
        ),
      );
      const synced = json<{ sync_status: string }>(
        await cli("--json", "stores", "sync", "--account", String(accountId), "--id", String(store.id)),
      );
      expect(synced.sync_status).toBe("succeeded");
      const orders = await testDb.db.kysely
        .selectFrom("orders")
        .select("order_number")
        .where("order_store_id", "=", store.id)
        .execute();
      expect(orders.map((o) => o.order_number).sort()).toEqual(["7001", "7002"]);

      site.consumerSecret = "cs_revoked";
      const failed = await cli("stores", "sync", "--account", String(accountId), "--id", String(store.id), "--full");
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain("401");

      const custom = json<{ id: number }>(
        await cli("--json", "stores", "create", "--account", String(accountId), "--name", "Own", "--type", "custom"),
      );
      const refused = await cli("stores", "sync", "--account", String(accountId), "--id", String(custom.id));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("order_store.no_connector");
    } finally {
      await standIn.stop();
      delete process.env.OUTBOUND_ALLOW_PRIVATE_TARGETS;
    }
  });

  it("lists the open money incidents with the ids an operator acts on (porter doctor)", async () => {
    expect((await cli("doctor")).stdout).toBe("No open money incidents.\n");
    const stamp = "2026-01-15T15:00:00.000Z";
    const open = await insertMoneyIncident(
      testDb.db.kysely,
      {
        kind: "refund_not_recorded",
        account_id: accountId,
        mode: "test",
        shipment_id: 77,
        carrier_code: "ups",
        tracking_numbers: ["1Z999AA10123456784"],
        amount_cents: 1908,
        job_kind: "money.record_refund",
        failure: "the carrier voided the labels, then the refund could not be written: disk I/O error",
      },
      stamp,
    );
    const repaired = await insertMoneyIncident(
      testDb.db.kysely,
      { kind: "job_exhausted", job_id: 5, job_kind: "shipment.settle_refund", failure: "after 5 attempts" },
      stamp,
    );
    await testDb.db.kysely
      .updateTable("money_incidents")
      .set({ repaired_at: stamp, repair: "settled by hand" })
      .where("id", "=", repaired)
      .execute();

    const text = await cli("doctor");
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n")).toEqual([
      "1 open money incident(s):",
      `#${open}\t${stamp}\trefund_not_recorded\taccount ${accountId} (test)\tshipment 77\tups\tlabels 1Z999AA10123456784\t$19.08\tjob money.record_refund\tthe carrier voided the labels, then the refund could not be written: disk I/O error`,
      "",
    ]);
    const listed = json<{ id: number }[]>(await cli("--json", "doctor"));
    expect(listed.map((incident) => incident.id)).toEqual([open]);
  });
});
