import type { ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { errorBody } from "../errors.js";

/** The step that runs once a request's key is known, in the same hook as authentication. */
export type AdmissionStep = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

declare module "fastify" {
  interface FastifyRequest {
    /** The in-flight slot this request holds for its key, until it is answered. */
    keySlot: { slots: KeySlots; index: number } | null;
  }
}

/**
 * One key's requests in flight, each in a slot of a list that grows to the most the key has had
 * at once; freed slots are found again through a list of their numbers. Nothing here is
 * allocated per request: a `Set` of responses rebuilt its table as it filled and emptied, and
 * those tables lived long enough to be promoted, which made full collections run every few
 * seconds under load. A slot whose client went away stays taken until `reclaim`, so a key holds
 * at most its limit of such slots.
 */
export class KeySlots {
  readonly #responses: (ServerResponse | undefined)[] = [];
  #free = new Int32Array(8);
  #freeCount = 0;

  get busy(): number {
    return this.#responses.length - this.#freeCount;
  }

  take(response: ServerResponse): number {
    if (this.#freeCount === 0) return this.#responses.push(response) - 1;
    const index = this.#free[--this.#freeCount] as number;
    this.#responses[index] = response;
    return index;
  }

  /** Frees the slot if `response` still holds it (a reclaimed slot may have a new holder). */
  free(index: number, response: ServerResponse): void {
    if (this.#responses[index] !== response) return;
    this.#responses[index] = undefined;
    if (this.#freeCount === this.#free.length) {
      const grown = new Int32Array(this.#free.length * 2);
      grown.set(this.#free);
      this.#free = grown;
    }
    this.#free[this.#freeCount++] = index;
  }

  /** Frees the slots of requests answered or abandoned without having been freed. */
  reclaim(): void {
    for (let index = 0; index < this.#responses.length; index++) {
      const response = this.#responses[index];
      if (response && (response.destroyed || response.writableEnded)) this.free(index, response);
    }
  }
}

/**
 * Caps the requests one API key has in flight; the excess gets 429 at once.
 * `admit` runs after authentication, in the same hook; the server calls `release` from its one
 * `onResponse` hook. A request stops counting when its answer has been sent. One whose client
 * went away first stops counting when its key next reaches the limit: an abort hook would cost
 * every request a listener, and the answered ones are the rule.
 */
export class KeyConcurrencyLimit {
  readonly #slotsByKey = new Map<number, KeySlots>();
  readonly #tooMany: ReturnType<typeof errorBody>;

  constructor(private readonly limit: number) {
    this.#tooMany = errorBody("errors.too_many_requests", `At most ${limit} requests per API key may be in flight.`);
  }

  /** Gives every request the slot field, so requests keep one shape. */
  register(app: FastifyInstance): void {
    app.decorateRequest("keySlot", null);
  }

  readonly admit: AdmissionStep = (request, reply, done) => {
    const keyId = request.caller.keyId;
    let slots = this.#slotsByKey.get(keyId);
    if (!slots) {
      slots = new KeySlots();
      this.#slotsByKey.set(keyId, slots);
    }
    if (slots.busy >= this.limit) {
      slots.reclaim();
      if (slots.busy >= this.limit) return reply.code(429).header("retry-after", "1").send(this.#tooMany);
    }
    request.keySlot = { slots, index: slots.take(reply.raw) };
    done();
  };

  release(request: FastifyRequest, reply: FastifyReply): void {
    const held = request.keySlot;
    if (held === null) return;
    request.keySlot = null;
    held.slots.free(held.index, reply.raw);
  }
}
