import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
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
  /** Requests being handled right now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  readonly #server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      this.received.push({ headers: request.headers, body, json: JSON.parse(body) });
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      const behaviour = this.script.shift() ?? this.fallback;
      if (behaviour === "hang") {
        response.on("close", () => {
          this.inFlight -= 1;
        });
        return;
      }
      const answer = () => {
        this.inFlight -= 1;
        response.writeHead(behaviour.status, { "content-type": "text/plain" }).end(behaviour.body ?? "");
      };
      if (this.answerDelayMs > 0) setTimeout(answer, this.answerDelayMs);
      else answer();
    });
  });
  answerDelayMs = 0;

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hooks`;
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
