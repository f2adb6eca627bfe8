import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../storage/schema.js";
import { DomainError, notFound } from "../errors.js";
import type { DomainServices } from "../services.js";
import { findAccount, findUserByEmail, insertApiKeys, insertUser, type UserRow } from "./accounts.repository.js";
import { issueApiKey, KEY_MODES, type KeyMode } from "./api-keys.js";
import { type Role, serializeRoles } from "./roles.js";

export interface NewUser {
  accountId: number;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  roles: readonly Role[];
}

/** Plaintext keys, returned once when they are made. */
export interface PlaintextKeys {
  test: string;
  production: string;
}

export interface CreatedUser {
  user: UserRow;
  /** Present when the user has the API role. */
  keys?: PlaintextKeys;
}

/** New keys of the given modes, stored hashed; the plaintexts leave only through the caller. */
export async function issueKeysFor(
  db: Kysely<Database> | Transaction<Database>,
  user: Pick<UserRow, "id" | "account_id">,
  modes: readonly KeyMode[],
  createdAt: string,
): Promise<Partial<PlaintextKeys>> {
  const issued = modes.map(issueApiKey);
  await insertApiKeys(db, user, issued, createdAt);
  return Object.fromEntries(issued.map((key) => [key.mode, key.plaintext]));
}

export async function insertUserWithKeys(
  trx: Transaction<Database>,
  input: NewUser,
  now: string,
): Promise<CreatedUser> {
  const email = input.email.trim().toLowerCase();
  if (await findUserByEmail(trx, email)) {
    throw new DomainError("user.email_taken", `A user with email ${email} already exists.`);
  }
  const user = await insertUser(trx, {
    account_id: input.accountId,
    email,
    first_name: input.firstName ?? null,
    last_name: input.lastName ?? null,
    phone: input.phone ?? null,
    roles: serializeRoles(input.roles),
    created_at: now,
  });
  if (!input.roles.includes("API")) return { user };
  // One key of each mode, so both are always present.
  return { user, keys: (await issueKeysFor(trx, user, KEY_MODES, now)) as PlaintextKeys };
}

export async function createUser(services: DomainServices, input: NewUser): Promise<CreatedUser> {
  return services.db.transaction().execute(async (trx) => {
    if (!(await findAccount(trx, input.accountId))) throw notFound("account", input.accountId);
    return insertUserWithKeys(trx, input, services.clock.now().toISOString());
  });
}
