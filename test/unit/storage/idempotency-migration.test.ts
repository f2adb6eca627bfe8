import fs from "node:fs";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reserveIdempotencyKey } from "../../../src/domain/idempotency/idempotency.repository.js";
import { migrateToLatest } from "../../../src/storage/migrate.js";
import type { Database } from "../../../src/storage/schema.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.js";

const STAMP = "2026-01-15T15:00:00.000Z";

/** The tables this test writes, as they were before migration 0004. */
interface SchemaBefore0004 {
  accounts: Pick<Database["accounts"], "id" | "parent_id" | "name" | "created_at">;
  users: Pick<Database["users"], "id" | "account_id" | "email" | "roles" | "created_at">;
  idempotency_keys: Omit<Database["idempotency_keys"], "user_id" | "request_id" | "holder" | "attempt" | "lease_until">;
}
const KEY_IN_OLD_ANSWER = "pk_test_OldAnswerKeptThisKeyInClearText01";

describe("migration 0004: idempotency keys per user, with leases", () => {
  let testDb: TestDatabase;
  let db: Kysely<Database>;
  let parentId: number;
  let childId: number;
  let parentUser: number;
  let childUser: number;

  beforeAll(async () => {
    testDb = await createTestDatabase("0003-shipments");
    const old = testDb.db.kysely as unknown as Kysely<SchemaBefore0004>;
    const account = (parent: number | null) =>
      old
        .insertInto("accounts")
        .values({ parent_id: parent, name: "A", created_at: STAMP })
        .returning("id")
        .executeTakeFirstOrThrow();
    const user = (accountId: number, email: string) =>
      old
        .insertInto("users")
        .values({ account_id: accountId, email, roles: "Owner,API", created_at: STAMP })
        .returning("id")
        .executeTakeFirstOrThrow();
    parentId = (await account(null)).id;
    childId = (await account(parentId)).id;
    parentUser = (await user(parentId, "parent@migration.test")).id;
    childUser = (await user(childId, "child@migration.test")).id;
    const row = (accountId: number, key: string, state: string, body: string | null) => ({
      account_id: accountId,
      mode: "test",
      idempotency_key: key,
      request_hash: "0".repeat(64),
      state: state as "done" | "in_progress",
      response_status: body ? 201 : null,
      response_body: body,
      created_at: STAMP,
      expires_at: "2026-01-16T15:00:00.000Z",
    });
    await old
      .insertInto("idempotency_keys")
      .values([
        row(childId, "child-key", "done", JSON.stringify({ api_keys: { test: KEY_IN_OLD_ANSWER } })),
        row(parentId, "parent-key", "in_progress", null),
        // Enough answers to fill pages of their own, which the dropped table leaves behind.
        ...Array.from({ length: 40 }, (_, i) =>
          row(
            parentId,
            `filler-${i}`,
            "done",
            JSON.stringify({ api_keys: { test: KEY_IN_OLD_ANSWER }, pad: "x".repeat(300) }),
          ),
        ),
      ])
      .execute();
    await migrateToLatest(testDb.db);
    db = testDb.db.kysely;
  });
  afterAll(() => testDb.drop());

  it("gives each old key to every user who could have sent it, without its stored answer", async () => {
    const rows = await db
      .selectFrom("idempotency_keys")
      .where("idempotency_key", "not like", "filler-%")
      .select(["account_id", "user_id", "idempotency_key", "state", "response_body"])
      .orderBy("idempotency_key")
      .orderBy("user_id")
      .execute();
    expect(rows).toEqual([
      { account_id: childId, user_id: parentUser, idempotency_key: "child-key", state: "done", response_body: null },
      { account_id: childId, user_id: childUser, idempotency_key: "child-key", state: "done", response_body: null },
      {
        account_id: parentId,
        user_id: parentUser,
        idempotency_key: "parent-key",
        state: "in_progress",
        response_body: null,
      },
    ]);
  });

  it("leaves no trace of the API key the old answer held", async () => {
    if (testDb.db.dialect === "sqlite") {
      const file = testDb.url.replace(/^sqlite:\/\//, "");
      for (const part of [file, `${file}-wal`].filter((f) => fs.existsSync(f))) {
        expect(fs.readFileSync(part).toString("latin1")).not.toContain(KEY_IN_OLD_ANSWER);
      }
    } else {
      const dump = await sql<{ row: string }>`select t::text as row from idempotency_keys t`.execute(db);
      expect(dump.rows.map((r) => r.row).join("\n")).not.toContain(KEY_IN_OLD_ANSWER);
    }
  });

  it("answers a retry of an old key with key_reused rather than running it again", async () => {
    const reservation = await reserveIdempotencyKey(
      db,
      { accountId: childId, mode: "test", userId: parentUser },
      "child-key",
      "a keyed fingerprint",
      {
        now: new Date(STAMP),
        ttlMs: 86_400_000,
        holder: "p",
        leaseMs: 10_000,
        staleBefore: new Date("2026-01-15T14:50:00.000Z"),
      },
    );
    expect(reservation).toEqual({ outcome: "key_reused" });
  });
});
