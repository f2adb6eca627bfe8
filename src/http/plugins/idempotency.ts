import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { maskPlaintextKey } from "../../domain/accounts/api-keys.js";
import {
  completeIdempotencyKey,
  type Hold,
  type IdempotencyScope,
  idempotencyTopic,
  releaseIdempotencyKey,
  renewIdempotencyLeases,
  reserveIdempotencyKey,
} from "../../domain/idempotency/idempotency.repository.js";
import { waitForTurn } from "../../domain/shared/wait-for-turn.js";
import { errorBody } from "../errors.js";
import { inlineReferencedFiles, referenceInlineFiles } from "./inline-files.js";

const HEADER = "idempotency-key";
/** A run still going after this long is taken over even though its process renews its lease. */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** How long a repeated request waits for its running twin before hearing 409 in_progress. */
const TWIN_WAIT_MS = 30_000;

declare module "fastify" {
  interface FastifyRequest {
    /** Set while this request holds an idempotency key whose response must be stored. */
    idempotency?: { key: string; scope: IdempotencyScope } & Hold;
  }
  interface FastifyContextConfig {
    /**
     * Top-level keys of the route's answer that hold secrets shown once (new API keys, a
     * webhook signing secret): the
     * stored answer has them replaced by a marker, so they never rest and are never replayed.
     */
    secretAnswerKeys?: readonly string[];
    /**
     * Keys of the route's answer that may hold a file's bytes inline (a label image as base64):
     * the stored answer keeps a reference to the file instead, and a replay reads it again.
     */
    inlineFileKeys?: readonly string[];
  }
}

/**
 * The id of the idempotent request being answered, stable across a takeover after a crash, so a
 * use case can find what an earlier run of the same request started; undefined without a key.
 */
export function idempotentRequestId(request: FastifyRequest): string | undefined {
  return request.idempotency?.requestId;
}

/**
 * What a replay shows instead of a secret: that it was shown once, and which one it was (an API
 * key masked as listings show it, any other secret by its last four characters).
 */
function shownOnce(value: unknown): unknown {
  if (typeof value === "string") return `shown once: ${maskPlaintextKey(value) ?? `****${value.slice(-4)}`}`;
  if (Array.isArray(value)) return value.map(shownOnce);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shownOnce(inner)]));
  }
  return value;
}

function withholdSecrets(body: string, keys: readonly string[]): string {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return "";
  }
  if (!answer || typeof answer !== "object") return body;
  const withheld = { ...(answer as Record<string, unknown>) };
  for (const key of keys) if (key in withheld) withheld[key] = shownOnce(withheld[key]);
  return JSON.stringify(withheld);
}

/**
 * `Idempotency-Key` on POST and PUT: the first request runs and its response is
 * kept for IDEMPOTENCY_RETENTION_HOURS (24 by default) after it was given; a replay gets that response; the same key with another request, or while the first
 * still runs, gets 409. Server errors free the key so the client can retry.
 *
 * Keys belong to the user whose API key sent them, in the request's account and mode. The key is
 * reserved in the route's last preHandler, after authentication, the child-account scope and the
 * route's own authorization hooks: a replay is only for a caller allowed to make the request.
 * Routes therefore check permissions in hooks (`onRequest`, `preHandler`), never in the handler.
 *
 * This process renews a lease on every key it holds; a key whose lease ran out belonged to a dead
 * process, and the next request with it takes it over at once and runs again under the same
 * request id (a purchase finds and repairs what the dead run started).
 */
export function registerIdempotency(app: FastifyInstance): void {
  const holder = randomUUID();
  const leaseMs = app.services.config.idempotencyLeaseMs;
  const retentionMs = app.services.config.idempotencyRetentionMs;
  // The runs this process has in hand, the only leases it renews. A run that ended but could not
  // record so (the database was unreachable when it stored its answer or freed its key) leaves
  // this set all the same: its lease then runs out and the next request with its key takes it
  // over, instead of every retry waiting for a twin that is not running until the key counts as
  // abandoned.
  const inHand = new Set<string>();
  const renew = () => {
    const leaseUntil = new Date(app.services.clock.now().getTime() + leaseMs);
    renewIdempotencyLeases(app.services.db, holder, [...inHand], leaseUntil).catch((error: unknown) =>
      app.log.error({ err: error }, "renewing idempotency leases failed"),
    );
  };
  // Three renewals per lease: a holder must miss two in a row before others take its keys.
  const heartbeat = setInterval(renew, Math.floor(leaseMs / 3)).unref();
  app.services.wakeUps.reportErrorsTo((error) =>
    app.log.warn({ err: error }, "waking waiting requests across processes failed; they look again on a timer"),
  );
  app.addHook("onClose", async () => clearInterval(heartbeat));

  /**
   * A twin of a request still running waits for its answer, so every caller of one key gets the
   * same response: it looks again when the run stores its answer or frees the key (signalled here,
   * and from other processes on PostgreSQL), and now and then in case the signal cannot come.
   */
  const reserveWaitingForTwin = async (scope: IdempotencyScope, key: string, requestHash: string) => {
    const reserve = () => {
      const now = app.services.clock.now();
      return reserveIdempotencyKey(app.services.db, scope, key, requestHash, {
        now,
        ttlMs: retentionMs,
        holder,
        leaseMs,
        staleBefore: new Date(now.getTime() - ABANDONED_AFTER_MS),
      });
    };
    const settled = await waitForTurn(app.services, idempotencyTopic(scope, key), TWIN_WAIT_MS, async () => {
      const reservation = await reserve();
      return reservation.outcome === "in_progress" ? undefined : reservation;
    });
    return settled ?? ({ outcome: "in_progress" } as const);
  };

  const reserve = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers[HEADER];
    if (key === undefined || (request.method !== "POST" && request.method !== "PUT")) return;
    if (typeof key !== "string" || !KEY_FORMAT.test(key)) {
      return reply
        .code(400)
        .send(errorBody("request.invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters."));
    }
    const requestHash = app.services.secrets.fingerprint(
      `${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`,
    );
    const scope = { ...request.scope, userId: request.caller.userId };
    const reservation = await reserveWaitingForTwin(scope, key, requestHash);
    switch (reservation.outcome) {
      case "reserved":
        request.idempotency = { key, scope, ...reservation.hold };
        inHand.add(reservation.hold.attempt);
        return;
      case "replay": {
        const fileKeys = request.routeOptions.config.inlineFileKeys;
        const body = fileKeys
          ? await inlineReferencedFiles(reservation.response.body, fileKeys, app.services.files)
          : reservation.response.body;
        return reply
          .code(reservation.response.status)
          .header("content-type", "application/json; charset=utf-8")
          .header("idempotent-replayed", "true")
          .send(body);
      }
      case "in_progress":
        return reply
          .code(409)
          .send(errorBody("idempotency.in_progress", "A request with this Idempotency-Key is still running."));
      case "key_reused":
        return reply
          .code(409)
          .send(errorBody("idempotency.key_reused", "This Idempotency-Key was already used with a different request."));
    }
  };

  const store = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const held = request.idempotency;
    if (held === undefined) return payload;
    request.idempotency = undefined;
    try {
      await settle(request, reply, held, payload);
      await app.services.wakeUps.signal(idempotencyTopic(held.scope, held.key));
    } catch (error) {
      // The answer stands: failing here would replace it with the framework's own error body.
      // Leaving `inHand` lets the lease run out, so a retry takes the key over under the same
      // request id and finds what this run did.
      request.log.warn(
        { err: error, idempotency_key: held.key, request_id: held.requestId, status: reply.statusCode },
        "the idempotent answer could not be recorded; the key is taken over when its lease runs out",
      );
    } finally {
      inHand.delete(held.attempt);
    }
    return payload;
  };

  /** Frees the key after a server error (the client may retry), or stores the answer to replay. */
  const settle = async (
    request: FastifyRequest,
    reply: FastifyReply,
    held: NonNullable<FastifyRequest["idempotency"]>,
    payload: unknown,
  ): Promise<void> => {
    if (reply.statusCode >= 500) {
      await releaseIdempotencyKey(app.services.db, held.scope, held.key, held.attempt);
    } else {
      let body = typeof payload === "string" ? payload : String(payload ?? "");
      const { secretAnswerKeys, inlineFileKeys } = request.routeOptions.config;
      if (secretAnswerKeys) body = withholdSecrets(body, secretAnswerKeys);
      if (inlineFileKeys) body = referenceInlineFiles(body, inlineFileKeys);
      // Kept for the retention after the answer, not after the request began (a purchase may be long).
      const expiresAt = new Date(app.services.clock.now().getTime() + retentionMs);
      await completeIdempotencyKey(
        app.services.db,
        held.scope,
        held.key,
        held.attempt,
        { status: reply.statusCode, body },
        expiresAt,
      );
    }
  };

  // Only routes that change things carry the hooks, so reads pay nothing for them. The key is
  // reserved last, so every authorization hook of the route has run before a replay.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes("POST") && !methods.includes("PUT")) return;
    route.preHandler = [...asArray(route.preHandler), reserve];
    route.onSend = [...asArray(route.onSend), store];
  });
}

/** A route's hook option as a list, so a plugin can add its own hook to it. */
export function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
