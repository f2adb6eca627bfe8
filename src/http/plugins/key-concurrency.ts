import type { ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { errorBody } from "../errors.js";

/** The step that runs once a request's key is known, in the same hook as authentication. */
export type AdmissionStep = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * Caps the requests one API key has in flight (DESIGN §6.14); the excess gets 429 at once.
 * A request stops counting when its answer has been sent. One whose client went away first
 * stops counting when its key next reaches the limit: an abort hook would cost every request
 * a listener, and the answered ones are the rule.
 */
export function registerKeyConcurrencyLimit(app: FastifyInstance, limit: number): AdmissionStep {
  const inFlight = new Map<number, Set<ServerResponse>>();
  const tooMany = errorBody("errors.too_many_requests", `At most ${limit} requests per API key may be in flight.`);

  app.addHook("onResponse", (request, reply, done) => {
    const keyId = request.caller?.keyId;
    const responses = keyId === undefined ? undefined : inFlight.get(keyId);
    if (responses?.delete(reply.raw) && responses.size === 0) inFlight.delete(keyId as number);
    done();
  });

  return (request, reply, done) => {
    const keyId = request.caller.keyId;
    let responses = inFlight.get(keyId);
    if (!responses) {
      responses = new Set();
      inFlight.set(keyId, responses);
    }
    if (responses.size >= limit) {
      for (const response of responses) {
        if (response.destroyed || response.writableEnded) responses.delete(response);
      }
      if (responses.size >= limit) return reply.code(429).header("retry-after", "1").send(tooMany);
    }
    responses.add(reply.raw);
    done();
  };
}
