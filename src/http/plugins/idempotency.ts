import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  completeIdempotencyKey,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
} from "../../domain/idempotency/idempotency.repository.js";
import { errorBody } from "../errors.js";

const HEADER = "idempotency-key";
const TTL_MS = 24 * 60 * 60 * 1000;
/** A request still "in progress" after this long died without answering. */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** How long a repeated request waits for its running twin before hearing 409 in_progress. */
const TWIN_WAIT_MS = 30_000;
const TWIN_POLL_MS = 20;

declare module "fastify" {
  interface FastifyRequest {
    /** Set while this request owns an idempotency key whose response must be stored. */
    idempotencyKey?: string;
  }
}

/**
 * `Idempotency-Key` on POST and PUT (DESIGN §6.12): the first request runs and its response is
 * kept 24 h; a replay gets that response; the same key with another request, or while the first
 * still runs, gets 409. Server errors free the key so the client can retry.
 */
export function registerIdempotency(app: FastifyInstance): void {
  /**
   * A twin of a request still running waits for its answer (polling the stored row, since the
   * first may run in another process), so every caller of one key gets the same response.
   */
  const reserveWaitingForTwin = async (scope: FastifyRequest["scope"], key: string, requestHash: string) => {
    const started = Date.now();
    for (;;) {
      const now = app.services.clock.now();
      const reservation = await reserveIdempotencyKey(
        app.services.db,
        scope,
        key,
        requestHash,
        now,
        TTL_MS,
        new Date(now.getTime() - ABANDONED_AFTER_MS),
      );
      if (reservation.outcome !== "in_progress" || Date.now() - started >= TWIN_WAIT_MS) return reservation;
      await new Promise((resolve) => setTimeout(resolve, TWIN_POLL_MS));
    }
  };

  const reserve = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers[HEADER];
    if (key === undefined || (request.method !== "POST" && request.method !== "PUT")) return;
    if (typeof key !== "string" || !KEY_FORMAT.test(key)) {
      return reply
        .code(400)
        .send(errorBody("request.invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters."));
    }
    const requestHash = createHash("sha256")
      .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest("hex");
    const reservation = await reserveWaitingForTwin(request.scope, key, requestHash);
    switch (reservation.outcome) {
      case "reserved":
        request.idempotencyKey = key;
        return;
      case "replay":
        return reply
          .code(reservation.response.status)
          .header("content-type", "application/json; charset=utf-8")
          .header("idempotent-replayed", "true")
          .send(reservation.response.body);
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
    const key = request.idempotencyKey;
    if (key === undefined) return payload;
    request.idempotencyKey = undefined;
    if (reply.statusCode >= 500) {
      await releaseIdempotencyKey(app.services.db, request.scope, key);
    } else {
      await completeIdempotencyKey(app.services.db, request.scope, key, {
        status: reply.statusCode,
        body: typeof payload === "string" ? payload : String(payload ?? ""),
      });
    }
    return payload;
  };

  // Only routes that change things carry the hooks, so reads pay nothing for them.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes("POST") && !methods.includes("PUT")) return;
    route.preHandler = [reserve, ...asArray(route.preHandler)];
    route.onSend = [...asArray(route.onSend), store];
  });
}

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
