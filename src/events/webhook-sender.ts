import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { guardedLookup, isPublicAddress, type TargetPolicy, TargetRefused } from "./webhook-target.js";

/** How much of a receiver's answer is kept with the delivery. */
const EXCERPT_BYTES = 1024;

export interface WebhookPost {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface WebhookOutcome {
  /** A 2xx answer arrived in time. */
  ok: boolean;
  statusCode: number | null;
  /** The receiver's reason phrase, or what went wrong when there was no answer. */
  message: string;
  /** The start of the receiver's body. */
  excerpt: string | null;
  latencyMs: number;
}

/**
 * Posts webhook bodies over kept-alive connections. Every attempt has one deadline for the whole
 * exchange (connection, request, answer); the address actually connected to is checked against
 * the target policy, so DNS answers that change after the subscription was checked cannot reach
 * a private network.
 */
export class WebhookSender {
  readonly #http = new http.Agent({ keepAlive: true, maxSockets: 64 });
  readonly #https = new https.Agent({ keepAlive: true, maxSockets: 64 });
  readonly #lookup;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly timeoutMs: number,
  ) {
    this.#lookup = guardedLookup(policy);
  }

  send(post: WebhookPost): Promise<WebhookOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<WebhookOutcome, "latencyMs">) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ ...outcome, latencyMs: elapsed() });
      };
      const fail = (message: string) => finish({ ok: false, statusCode: null, message, excerpt: null });
      let url: URL;
      try {
        url = new URL(post.url);
      } catch {
        fail("the url is not valid");
        return;
      }
      const secure = url.protocol === "https:";
      const request = (secure ? https : http).request(url, {
        method: "POST",
        agent: secure ? this.#https : this.#http,
        lookup: this.#lookup as never,
        headers: { ...post.headers, "content-length": String(Buffer.byteLength(post.body)) },
      });
      const deadline = setTimeout(() => {
        fail(`no answer within ${this.timeoutMs} ms`);
        request.destroy();
      }, this.timeoutMs);
      request.on("socket", (socket: Socket) => {
        const check = () => {
          const address = socket.remoteAddress;
          if (!this.policy.allowPrivate && (!address || !isPublicAddress(address))) {
            request.destroy(new TargetRefused(`the target's address ${address ?? "(unknown)"} is private or reserved`));
          }
        };
        if (socket.connecting) socket.once("connect", check);
        else check();
      });
      request.on("error", (error: NodeJS.ErrnoException) => {
        fail(error instanceof TargetRefused ? error.message : describeNetworkError(error));
      });
      request.on("response", (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on("data", (chunk: Buffer) => {
          if (kept < EXCERPT_BYTES) {
            chunks.push(chunk.subarray(0, EXCERPT_BYTES - kept));
            kept += Math.min(chunk.length, EXCERPT_BYTES - kept);
          }
        });
        response.on("end", () => {
          const statusCode = response.statusCode ?? 0;
          finish({
            ok: statusCode >= 200 && statusCode < 300,
            statusCode,
            message: response.statusMessage || String(statusCode),
            excerpt: kept > 0 ? Buffer.concat(chunks).toString("utf8") : null,
          });
        });
        response.on("error", (error) => fail(describeNetworkError(error)));
      });
      request.end(post.body);
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
      return "the host name does not resolve";
    case "ECONNRESET":
      return "the connection was reset";
    default:
      return error.message || String(error.code);
  }
}
