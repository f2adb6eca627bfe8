import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { findKeyHolder, type KeyHolder } from "../../domain/accounts/accounts.repository.js";
import { hashApiKey } from "../../domain/accounts/api-keys.js";
import { errorBody } from "../errors.js";

const BEARER = /^Bearer ([^\s]+)$/;
const REJECTION = errorBody("errors.insufficient_scope", "Token does not allow access to service.");

/**
 * Recently seen keys, so a busy client costs one hash and one map lookup per request. Entries live
 * a few seconds: a key revoked by another process stops working within that time, and at once in
 * this one (`forget`).
 */
export class KeyHolderCache {
  readonly #entries = new Map<string, { holder: KeyHolder; until: number }>();

  constructor(
    private readonly ttlMs = 5000,
    private readonly maxEntries = 10_000,
  ) {}

  get(hash: string, nowMs: number): KeyHolder | undefined {
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    if (entry.until > nowMs) return entry.holder;
    this.#entries.delete(hash);
    return undefined;
  }

  set(hash: string, holder: KeyHolder, nowMs: number): void {
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(hash, { holder, until: nowMs + this.ttlMs });
  }

  forget(hashes: readonly string[]): void {
    for (const hash of hashes) this.#entries.delete(hash);
  }
}

declare module "fastify" {
  interface FastifyInstance {
    keyHolders: KeyHolderCache;
  }
}

/** Every route in the calling scope needs `Authorization: Bearer <key>` unless marked public. */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest("caller", null as unknown as KeyHolder);
  app.decorateRequest("scope", null as unknown as FastifyRequest["scope"]);
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.public) return;
    const match = BEARER.exec(request.headers.authorization ?? "");
    if (!match) return reply.code(401).send(REJECTION);
    const hash = hashApiKey(match[1] as string);
    const nowMs = app.services.clock.now().getTime();
    let holder = app.keyHolders.get(hash, nowMs);
    if (!holder) {
      holder = await findKeyHolder(app.services.db, hash);
      if (!holder) return reply.code(401).send(REJECTION);
      app.keyHolders.set(hash, holder, nowMs);
    }
    request.caller = holder;
    request.scope = { accountId: holder.accountId, mode: holder.mode };
  });
}
