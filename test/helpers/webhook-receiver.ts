import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { subscription_type: string; status?: string; payload: Record<string, unknown>[] };
}

/** What the receiver does with the next request: answer with a status, or never answer. */
export type ReceiverBehaviour = { status: number; body?: string } | "hang";

/**
 * A real HTTP server on loopback that records every webhook it gets. Its answer is programmable
 * per request; requests left hanging are ended when the receiver closes.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Answers for the coming requests, in order; once used up, `fallback` answers. */
  readonly script: ReceiverBehaviour[] = [];
  fallback: ReceiverBehaviour = { status: 200, body: "ok" };
  /** How long each answer waits (a slow receiver). */
  answerDelayMs = 0;
  /** Requests being handled right now, and the most there ever were at once (overall and per path). */
  inFlight = 0;
  maxInFlight = 0;
  readonly maxInFlightByPath = new Map<string, number>();
  readonly #inFlightByPath = new Map<string, number>();
  readonly #server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = request.url ?? "/";
      this.received.push({ path, headers: request.headers, body, json: JSON.parse(body) });
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      const onPath = (this.#inFlightByPath.get(path) ?? 0) + 1;
      this.#inFlightByPath.set(path, onPath);
      this.maxInFlightByPath.set(path, Math.max(this.maxInFlightByPath.get(path) ?? 0, onPath));
      const done = () => {
        this.inFlight -= 1;
        this.#inFlightByPath.set(path, (this.#inFlightByPath.get(path) ?? 1) - 1);
      };
      const behaviour = this.script.shift() ?? this.fallback;
      if (behaviour === "hang") {
        response.on("close", done);
        return;
      }
      const answer = () => {
        done();
        response.writeHead(behaviour.status, { "content-type": "text/plain" }).end(behaviour.body ?? "");
      };
      if (this.answerDelayMs > 0) setTimeout(answer, this.answerDelayMs);
      else answer();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return this.url;
  }

  get url(): string {
    return this.urlFor("/hooks");
  }

  urlFor(path: string): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  /** Every payload item received, in arrival order. */
  items(): Record<string, unknown>[] {
    return this.received.flatMap((r) => r.json.payload);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
