import { createHash, createHmac, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../storage/schema.js";
import { DomainError, notFound } from "../errors.js";
import type { DomainServices } from "../services.js";
import { findAccount, findUser, findUserByEmail, type KeyHolder } from "./accounts.repository.js";
import type { KeyMode } from "./api-keys.js";
import { checkPasswordStrength, hashPassword, verifyPassword } from "./passwords.js";
import { SIGN_IN_LIMITS } from "./sign-in-limits.js";

/** A session ends after this long without a request, and in any case this long after sign-in. */
export const SESSION_IDLE_MS = 2 * 60 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** How long a sign-in link printed by the CLI works (once). */
export const SIGN_IN_LINK_MS = 15 * 60_000;
/** `last_used_at` is written at most this often: a write per request would cost more than the request. */
const TOUCH_EVERY_MS = 60_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
/** 32 random bytes: the session id or link token, shown to its holder only. */
const newSecret = () => randomBytes(32).toString("base64url");

/** A signed-in dashboard user: the caller the API's authorization reads, and the session's scope. */
export interface SessionHolder extends KeyHolder {
  sessionId: number;
  email: string;
  actingAccountId: number;
  actingAccountName: string;
  ownAccountName: string;
}

export interface NewSession {
  /** The cookie's value; only its hash is stored. */
  secret: string;
  holder: SessionHolder;
}

/** A password for the dashboard, set by the operator (`porter users set-password`). */
export async function setPassword(services: DomainServices, userId: number, password: string): Promise<void> {
  checkPasswordStrength(password);
  if (!(await findUser(services.db, userId))) throw notFound("user", userId);
  const passwordHash = await hashPassword(password);
  await services.db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", userId).execute();
    // A new password ends the sessions signed in with the old one.
    await trx.deleteFrom("dashboard_sessions").where("user_id", "=", userId).execute();
  });
}

/** A link that signs the user in once within `SIGN_IN_LINK_MS`; the token is returned, its hash stored. */
export async function issueSignInLink(
  services: DomainServices,
  userId: number,
): Promise<{ token: string; expiresAt: string }> {
  if (!(await findUser(services.db, userId))) throw notFound("user", userId);
  const now = services.clock.now();
  const token = newSecret();
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_MS).toISOString();
  await services.db
    .insertInto("sign_in_links")
    .values({
      token_hash: sha256(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
    })
    .execute();
  return { token, expiresAt };
}

const refusedCredentials = () =>
  new DomainError("session.invalid_credentials", "The email address or the password is wrong.");

/**
 * Signs in with an email and a password. Failures count against the email and the client's address
 * (`SIGN_IN_LIMITS`); a wrong email and a wrong password are refused alike.
 */
export async function signInWithPassword(
  services: DomainServices,
  input: { email: string; password: string; clientAddress: string },
): Promise<NewSession> {
  const email = input.email.trim().toLowerCase();
  const nowMs = services.clock.now().getTime();
  const keys = [
    { key: `email:${email}`, limit: SIGN_IN_LIMITS.perEmail },
    { key: `address:${input.clientAddress}`, limit: SIGN_IN_LIMITS.perAddress },
  ];
  const limiter = services.caches.signIns;
  limiter.check(keys, nowMs);
  const user = await findUserByEmail(services.db, email);
  if (!(await verifyPassword(input.password, user?.password_hash)) || !user) {
    limiter.fail(keys, nowMs);
    throw refusedCredentials();
  }
  return startSession(services, user.id, user.account_id);
}

/** Signs in with a link's token: once, before it expires. Failures count against the client's address. */
export async function signInWithLink(
  services: DomainServices,
  input: { token: string; clientAddress: string },
): Promise<NewSession> {
  const now = services.clock.now();
  const keys = [{ key: `address:${input.clientAddress}`, limit: SIGN_IN_LIMITS.perAddress }];
  const limiter = services.caches.signIns;
  limiter.check(keys, now.getTime());
  // Taken in one statement, so two requests with the same link cannot both use it.
  const link = await services.db
    .updateTable("sign_in_links")
    .set({ used_at: now.toISOString() })
    .where("token_hash", "=", sha256(input.token))
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .returning("user_id")
    .executeTakeFirst();
  const user = link && (await findUser(services.db, link.user_id));
  if (!user) {
    limiter.fail(keys, now.getTime());
    throw new DomainError("session.invalid_link", "The sign-in link is unknown, used or expired; ask for a new one.");
  }
  return startSession(services, user.id, user.account_id);
}

async function startSession(services: DomainServices, userId: number, accountId: number): Promise<NewSession> {
  const now = services.clock.now();
  const secret = newSecret();
  await services.db
    .insertInto("dashboard_sessions")
    .values({
      id_hash: sha256(secret),
      user_id: userId,
      acting_account_id: accountId,
      mode: "test",
      created_at: now.toISOString(),
      last_used_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
    })
    .execute();
  const holder = (await findSessionHolder(services.db, secret, now))?.holder;
  if (!holder) throw new Error("a session just made cannot be found");
  return { secret, holder };
}

async function findSessionHolder(db: Kysely<Database>, secret: string, now: Date) {
  const row = await db
    .selectFrom("dashboard_sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .innerJoin("accounts as own", "own.id", "u.account_id")
    .innerJoin("accounts as acting", "acting.id", "s.acting_account_id")
    .select([
      "s.id as sessionId",
      "s.mode as mode",
      "s.last_used_at as lastUsedAt",
      "u.id as userId",
      "u.email as email",
      "u.roles as roles",
      "own.id as accountId",
      "own.name as ownAccountName",
      "own.parent_id as parentAccountId",
      "acting.id as actingAccountId",
      "acting.name as actingAccountName",
      "acting.parent_id as actingParentId",
    ])
    .where("s.id_hash", "=", sha256(secret))
    .where("s.expires_at", ">", now.toISOString())
    .where("s.last_used_at", ">", new Date(now.getTime() - SESSION_IDLE_MS).toISOString())
    .executeTakeFirst();
  // The acting account is the user's own or its child; anything else ends the session's use.
  if (!row || (row.actingAccountId !== row.accountId && row.actingParentId !== row.accountId)) return undefined;
  const { lastUsedAt, actingParentId: _parent, ...holder } = row;
  return { holder: { ...holder, keyId: -row.sessionId } satisfies SessionHolder, lastUsedAt };
}

/** The live session a cookie's secret names, its idle time renewed; undefined when none is. */
export async function authenticateSession(
  services: DomainServices,
  secret: string,
): Promise<SessionHolder | undefined> {
  const now = services.clock.now();
  const found = await findSessionHolder(services.db, secret, now);
  if (!found) return undefined;
  if (now.getTime() - new Date(found.lastUsedAt).getTime() >= TOUCH_EVERY_MS) {
    await services.db
      .updateTable("dashboard_sessions")
      .set({ last_used_at: now.toISOString() })
      .where("id", "=", found.holder.sessionId)
      .execute();
  }
  return found.holder;
}

/**
 * Switches the session's mode and acting account: the user's own account or one of its children
 * (any other id answers `customer.not_found`, as the child form of the API does).
 */
export async function switchSession(
  services: DomainServices,
  holder: SessionHolder,
  change: { mode?: KeyMode; accountId?: number },
): Promise<void> {
  const accountId = change.accountId ?? holder.actingAccountId;
  if (accountId !== holder.accountId) {
    const account = await findAccount(services.db, accountId);
    if (!account || account.parent_id !== holder.accountId) {
      throw new DomainError("customer.not_found", `No customer with id ${accountId} belongs to this account.`);
    }
  }
  await services.db
    .updateTable("dashboard_sessions")
    .set({ acting_account_id: accountId, mode: change.mode ?? holder.mode })
    .where("id", "=", holder.sessionId)
    .execute();
}

export async function endSession(services: DomainServices, holder: Pick<SessionHolder, "sessionId">): Promise<void> {
  await services.db.deleteFrom("dashboard_sessions").where("id", "=", holder.sessionId).execute();
}

/**
 * The token a state-changing request of the session must echo in `X-CSRF-Token`: a keyed hash of
 * the session's secret, so it is never stored and another site, which cannot read the cookie,
 * cannot make it.
 */
export function csrfTokenFor(services: DomainServices, secret: string): string {
  return createHmac("sha256", Buffer.from(services.secrets.fingerprint("dashboard csrf"), "hex"))
    .update(secret)
    .digest("base64url");
}

/** Up to `limit` sessions that have ended (idle or past their end); how many were deleted. */
export async function pruneEndedSessions(db: Kysely<Database>, now: Date, limit: number): Promise<number> {
  const ended = await db
    .selectFrom("dashboard_sessions")
    .select("id")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", now.toISOString()),
        eb("last_used_at", "<=", new Date(now.getTime() - SESSION_IDLE_MS).toISOString()),
      ]),
    )
    .limit(limit)
    .execute();
  if (ended.length === 0) return 0;
  const ids = ended.map((row) => row.id);
  await db.deleteFrom("dashboard_sessions").where("id", "in", ids).execute();
  return ended.length;
}

/** Up to `limit` sign-in links past their expiry (used or not); how many were deleted. */
export async function pruneExpiredSignInLinks(db: Kysely<Database>, now: Date, limit: number): Promise<number> {
  const expired = await db
    .selectFrom("sign_in_links")
    .select("token_hash")
    .where("expires_at", "<=", now.toISOString())
    .limit(limit)
    .execute();
  if (expired.length === 0) return 0;
  const hashes = expired.map((row) => row.token_hash);
  await db.deleteFrom("sign_in_links").where("token_hash", "in", hashes).execute();
  return expired.length;
}
