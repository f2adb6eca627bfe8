import type { Insertable, Kysely, Selectable, Transaction } from "kysely";
import type { AccountTable, ApiKeyTable, Database, UserTable } from "../../storage/schema.js";
import type { IssuedKey, KeyMode } from "./api-keys.js";

export type AccountRow = Selectable<AccountTable>;
export type UserRow = Selectable<UserTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** The caller behind an API key: who they are, which account and mode they act in. */
export interface KeyHolder {
  keyId: number;
  userId: number;
  accountId: number;
  parentAccountId: number | null;
  mode: KeyMode;
  roles: string;
}

export async function findKeyHolder(db: Executor, keyHash: string): Promise<KeyHolder | undefined> {
  return db
    .selectFrom("api_keys as k")
    .innerJoin("users as u", "u.id", "k.user_id")
    .innerJoin("accounts as a", "a.id", "k.account_id")
    .select([
      "k.id as keyId",
      "k.user_id as userId",
      "k.account_id as accountId",
      "a.parent_id as parentAccountId",
      "k.mode as mode",
      "u.roles as roles",
    ])
    .where("k.key_hash", "=", keyHash)
    .where("k.revoked_at", "is", null)
    .executeTakeFirst();
}

export async function insertAccount(db: Executor, account: Insertable<AccountTable>): Promise<AccountRow> {
  return db.insertInto("accounts").values(account).returningAll().executeTakeFirstOrThrow();
}

export async function findAccount(db: Executor, id: number): Promise<AccountRow | undefined> {
  return db.selectFrom("accounts").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listAccounts(db: Executor): Promise<AccountRow[]> {
  return db.selectFrom("accounts").selectAll().orderBy("id").execute();
}

export async function countAccounts(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("accounts")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listChildAccounts(
  db: Executor,
  parentId: number,
  ids?: readonly number[],
): Promise<AccountRow[]> {
  let query = db.selectFrom("accounts").selectAll().where("parent_id", "=", parentId);
  if (ids && ids.length > 0) query = query.where("id", "in", ids);
  return query.orderBy("id").execute();
}

export async function insertUser(db: Executor, user: Insertable<UserTable>): Promise<UserRow> {
  return db.insertInto("users").values(user).returningAll().executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
}

export async function findUser(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function updateUserRoles(db: Executor, id: number, roles: string): Promise<UserRow> {
  return db.updateTable("users").set({ roles }).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

export async function listUsersOfAccounts(db: Executor, accountIds: readonly number[]): Promise<UserRow[]> {
  if (accountIds.length === 0) return [];
  return db.selectFrom("users").selectAll().where("account_id", "in", accountIds).orderBy("id").execute();
}

export async function insertApiKeys(
  db: Executor,
  user: Pick<UserRow, "id" | "account_id">,
  keys: readonly IssuedKey[],
  createdAt: string,
): Promise<void> {
  await db
    .insertInto("api_keys")
    .values(
      keys.map((key) => ({
        user_id: user.id,
        account_id: user.account_id,
        mode: key.mode,
        key_hash: key.hash,
        prefix: key.prefix,
        last4: key.last4,
        created_at: createdAt,
        revoked_at: null,
      })),
    )
    .execute();
}

/** Revokes the user's live keys of the given modes; returns the hashes revoked (for cache eviction). */
export async function revokeKeysOfUser(
  db: Executor,
  userId: number,
  modes: readonly KeyMode[],
  revokedAt: string,
): Promise<string[]> {
  const rows = await db
    .updateTable("api_keys")
    .set({ revoked_at: revokedAt })
    .where("user_id", "=", userId)
    .where("mode", "in", modes)
    .where("revoked_at", "is", null)
    .returning("key_hash")
    .execute();
  return rows.map((r) => r.key_hash);
}

export async function listLiveKeysOfUsers(db: Executor, userIds: readonly number[]): Promise<ApiKeyRow[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom("api_keys")
    .selectAll()
    .where("user_id", "in", userIds)
    .where("revoked_at", "is", null)
    .orderBy("id")
    .execute();
}

/**
 * Takes the account's row lock until the transaction ends (a write of the row to itself, the same
 * on both engines): changes that must see each other's results (the meter's balance, the default
 * payment method) take turns instead of racing.
 */
export async function lockAccount(trx: Transaction<Database>, accountId: number): Promise<void> {
  await trx
    .updateTable("accounts")
    .set((eb) => ({ name: eb.ref("accounts.name") }))
    .where("id", "=", accountId)
    .execute();
}
