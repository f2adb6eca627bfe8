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

const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * Runs `work`, which inserts a user with `email`. Two requests racing for one address both pass
 * the check in `insertUserWithKeys`; the unique index refuses the second, which then hears
 * `user.email_taken` instead of the database's fault.
 */
export async function refusingTakenEmail<T>(
  services: DomainServices,
  email: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof DomainError) && (await findUserByEmail(services.db, normalEmail(email)))) {
      throw emailTaken(normalEmail(email));
    }
    throw error;
  }
}

const emailTaken = (email: string) => new DomainError("user.email_taken", `A user with email ${email} already exists.`);

export async function insertUserWithKeys(
  trx: Transaction<Database>,
  input: NewUser,
  now: string,
): Promise<CreatedUser> {
  const email = normalEmail(input.email);
  if (await findUserByEmail(trx, email)) throw emailTaken(email);
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
  return refusingTakenEmail(services, input.email, () =>
    services.db.transaction().execute(async (trx) => {
      if (!(await findAccount(trx, input.accountId))) throw notFound("account", input.accountId);
      return insertUserWithKeys(trx, input, services.clock.now().toISOString());
    }),
  );
}
