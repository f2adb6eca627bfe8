import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { findKeyHolder, type KeyHolder } from "../../domain/accounts/accounts.repository.js";
import { hashApiKey } from "../../domain/accounts/api-keys.js";
import { authenticateSession, csrfTokenFor, type SessionHolder } from "../../domain/accounts/dashboard-sessions.js";
import { DomainError } from "../../domain/errors.js";
import { ExpiringCache } from "../../domain/shared/expiring-cache.js";
import { sessionCookie } from "../dashboard-cookie.js";
import { errorBody } from "../errors.js";
import type { AdmissionStep } from "./key-concurrency.js";

const BEARER = /^Bearer ([^\s]+)$/;
const REJECTION = errorBody("errors.insufficient_scope", "Token does not allow access to service.");

/** A key seen recently: who holds it, its hash (to forget it when revoked) and its account scope. */
interface KnownKey {
  holder: KeyHolder;
  hash: string;
  scope: FastifyRequest["scope"];
}

/**
 * Recently seen keys, by the `Authorization` header that presented them, so a busy client costs
 * one map lookup per request (hashing the key every time cost more than the rest of a ping, and
 * parsing the header a tenth of it). A key revoked by another process
 * stops working within the cache's lifetime, and at once in this one (`forgetKeyHashes`).
 */
export class KeyHolderCache extends ExpiringCache<string, KnownKey> {
  forgetKeyHashes(hashes: readonly string[]): void {
    const revoked = new Set(hashes);
    this.forgetWhere((entry) => revoked.has(entry.hash));
  }
}
export const newKeyHolderCache = (): KeyHolderCache => new KeyHolderCache(5000);

declare module "fastify" {
  interface FastifyInstance {
    keyHolders: KeyHolderCache;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const noSession = () => new DomainError("errors.insufficient_scope", "Token does not allow access to service.");

/**
 * The dashboard session a request's cookie names, with its secret; a state-changing request must
 * also carry the session's CSRF token in `X-CSRF-Token` (403 `session.csrf_failed`), since a
 * browser sends the cookie with whatever request a page makes. Throws 401 when there is no live
 * session.
 */
export async function requireSession(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<{ holder: SessionHolder; secret: string }> {
  const secret = sessionCookie(request);
  const holder = secret === undefined ? undefined : await authenticateSession(app.services, secret);
  if (!holder || secret === undefined) throw noSession();
  if (!SAFE_METHODS.has(request.method)) {
    const sent = Buffer.from(String(request.headers["x-csrf-token"] ?? ""));
    const expected = Buffer.from(csrfTokenFor(app.services, secret));
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      throw new DomainError(
        "session.csrf_failed",
        "A change made with the dashboard's session needs its X-CSRF-Token.",
      );
    }
  }
  return { holder, secret };
}

/**
 * Every route in the calling scope needs `Authorization: Bearer <key>` or, without one, the
 * dashboard's session cookie (`requireSession`), which acts as its user in the session's mode and
 * acting account (the routes that need none — health, files, metrics, documents — live outside it). A known caller goes on to `admit`
 * in the same hook (each hook costs every request). A key seen recently is admitted without a
 * promise: this hook runs on every request.
 */
export function registerAuth(app: FastifyInstance, admit: AdmissionStep): void {
  app.decorateRequest("caller", null as unknown as KeyHolder);
  app.decorateRequest("scope", null as unknown as FastifyRequest["scope"]);
  const identify = (request: FastifyRequest, key: KnownKey) => {
    request.caller = key.holder;
    request.scope = key.scope;
  };
  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const header = request.headers.authorization;
    if (header === undefined) {
      if (!request.headers.cookie) return reply.code(401).send(REJECTION);
      // Not returned: a hook that returns a promise would be continued twice, by it and by `done`.
      requireSession(app, request).then(({ holder }) => {
        request.caller = holder;
        request.scope = { accountId: holder.actingAccountId, mode: holder.mode };
        admit(request, reply, done);
      }, done);
      return;
    }
    const nowMs = app.services.clock.now().getTime();
    // Cached by the header as sent, so a known key is admitted without parsing the header again.
    const known = app.keyHolders.get(header, nowMs);
    if (known) {
      identify(request, known);
      return admit(request, reply, done);
    }
    const match = BEARER.exec(header);
    if (!match) return reply.code(401).send(REJECTION);
    const hash = hashApiKey(match[1] as string);
    findKeyHolder(app.services.db, hash).then((holder) => {
      if (!holder) return reply.code(401).send(REJECTION);
      const key = { holder, hash, scope: { accountId: holder.accountId, mode: holder.mode } };
      app.keyHolders.set(header, key, nowMs);
      identify(request, key);
      admit(request, reply, done);
    }, done);
  });
}
