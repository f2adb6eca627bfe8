import type { ServerResponse } from "node:http";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { errorBody } from "../errors.js";

/** The step that runs once a request's key is known, in the same hook as authentication. */
export type AdmissionStep = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * Caps the requests one API key has in flight (DESIGN §6.14); the excess gets 429 at once.
 * `admit` runs after authentication, in the same hook; the server calls `release` from its one
 * `onResponse` hook. A request stops counting when its answer has been sent. One whose client
 * went away first stops counting when its key next reaches the limit: an abort hook would cost
 * every request a listener, and the answered ones are the rule.
 */
export class KeyConcurrencyLimit {
  readonly #inFlight = new Map<number, Set<ServerResponse>>();
  readonly #tooMany: ReturnType<typeof errorBody>;

  constructor(private readonly limit: number) {
    this.#tooMany = errorBody("errors.too_many_requests", `At most ${limit} requests per API key may be in flight.`);
  }

  readonly admit: AdmissionStep = (request, reply, done) => {
    const keyId = request.caller.keyId;
    let responses = this.#inFlight.get(keyId);
    if (!responses) {
      responses = new Set();
      this.#inFlight.set(keyId, responses);
    }
    if (responses.size >= this.limit) {
      for (const response of responses) {
        if (response.destroyed || response.writableEnded) responses.delete(response);
      }
      if (responses.size >= this.limit) return reply.code(429).header("retry-after", "1").send(this.#tooMany);
    }
    responses.add(reply.raw);
    done();
  };

  release(request: FastifyRequest, reply: FastifyReply): void {
    const keyId = request.caller?.keyId;
    if (keyId === undefined) return;
    const responses = this.#inFlight.get(keyId);
    if (responses?.delete(reply.raw) && responses.size === 0) this.#inFlight.delete(keyId);
  }
}
