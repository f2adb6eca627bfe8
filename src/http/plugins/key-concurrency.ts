import type { FastifyInstance, FastifyRequest } from "fastify";
import { errorBody } from "../errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The key whose in-flight count this request holds, until it ends. */
    heldKeySlot?: number;
  }
}

/** Caps the requests one API key has in flight (DESIGN §6.14); the excess gets 429 at once. */
export function registerKeyConcurrencyLimit(app: FastifyInstance, limit: number): void {
  const inFlight = new Map<number, number>();
  // Callback hooks, not async ones: they run on every request.
  app.addHook("onRequest", (request, reply, done) => {
    if (!request.caller) return done();
    const keyId = request.caller.keyId;
    const current = inFlight.get(keyId) ?? 0;
    if (current >= limit) {
      return reply
        .code(429)
        .header("retry-after", "1")
        .send(errorBody("errors.too_many_requests", `At most ${limit} requests per API key may be in flight.`));
    }
    inFlight.set(keyId, current + 1);
    request.heldKeySlot = keyId;
    done();
  });
  const release = (request: FastifyRequest) => {
    const keyId = request.heldKeySlot;
    if (keyId === undefined) return;
    request.heldKeySlot = undefined;
    const left = (inFlight.get(keyId) ?? 1) - 1;
    if (left <= 0) inFlight.delete(keyId);
    else inFlight.set(keyId, left);
  };
  app.addHook("onResponse", (request, _reply, done) => {
    release(request);
    done();
  });
  app.addHook("onRequestAbort", (request, done) => {
    release(request);
    done();
  });
}
