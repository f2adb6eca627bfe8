import http from "node:http";
import https from "node:https";
import { performance } from "node:perf_hooks";
import { guardedAgents, type OutboundPolicy, OutboundRefused } from "../net/outbound-guard.js";

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

export interface WebhookSenderOptions {
  /** How long an idle kept-alive socket stays open; the guard's `IDLE_SOCKET_MS` unless given. */
  idleSocketMs?: number;
}

/** Errors with which a receiver's side of a kept-alive socket ends: it closed the socket as the request went out. */
const STALE_SOCKET_ERRORS = new Set(["ECONNRESET", "EPIPE"]);

/**
 * Posts webhook bodies over kept-alive connections. Every attempt has one deadline for the whole
 * exchange (connection, request, answer); every connection passes the outbound guard, so DNS
 * answers that change after the subscription was checked cannot reach a private network. A
 * redirect is an answer like any other: it is not followed.
 *
 * A receiver may close an idle kept-alive socket just as the next request is written on it. Idle
 * sockets are therefore closed before common servers' keep-alive timeouts (`IDLE_SOCKET_MS`), and
 * a request whose reused socket is reset before any byte of the answer is sent once more at once
 * on a new socket: the receiver cannot have answered it, and eHub's message id lets a receiver
 * drop the rare duplicate.
 */
export class WebhookSender {
  readonly #agents;

  constructor(
    policy: OutboundPolicy,
    private readonly timeoutMs: number,
    options: WebhookSenderOptions = {},
  ) {
    this.#agents = guardedAgents(policy, {
      keepAlive: true,
      maxSockets: 64,
      ...(options.idleSocketMs === undefined ? {} : { timeout: options.idleSocketMs }),
    });
  }

  send(post: WebhookPost): Promise<WebhookOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      let current: http.ClientRequest | undefined;
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
      const deadline = setTimeout(() => {
        fail(`no answer within ${this.timeoutMs} ms`);
        current?.destroy();
      }, this.timeoutMs);
      const attempt = (mayRetry: boolean) => {
        const secure = url.protocol === "https:";
        const request = (secure ? https : http).request(url, {
          method: "POST",
          agent: secure ? this.#agents.https : this.#agents.http,
          headers: { ...post.headers, "content-length": String(Buffer.byteLength(post.body)) },
        });
        current = request;
        let answered = false;
        request.on("error", (error: NodeJS.ErrnoException) => {
          if (settled) return;
          if (mayRetry && !answered && request.reusedSocket && STALE_SOCKET_ERRORS.has(error.code ?? "")) {
            attempt(false);
            return;
          }
          fail(error instanceof OutboundRefused ? error.message : describeNetworkError(error));
        });
        request.on("response", (response) => {
          answered = true;
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
      };
      attempt(true);
    });
  }

  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
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
