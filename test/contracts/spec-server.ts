import http from "node:http";
import type { AddressInfo } from "node:net";
import type { PublishedContract, SentRequest, Violation } from "./published-specs.js";

/** What the server answers one request with. */
export interface SpecAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Picks the answer to a request that conforms. `example` is the spec's own example of the
 * operation's success answer (undefined when the spec has none): answer it as is, adapt it (a
 * tracking number the adapter will look for), or build a schema-valid answer. Every answer is
 * checked against the spec too, so a test cannot feed the adapter what the carrier never sends.
 */
export type Answerer = (request: SentRequest, example: SpecAnswer | undefined) => SpecAnswer | undefined;

/**
 * A carrier API made from its published spec, for contract tests: every request an adapter sends
 * is recorded and checked against the operation it is for; a request that does not conform is
 * answered 400 (as the carrier would refuse it) and recorded as a violation.
 */
export class SpecServer {
  readonly requests: SentRequest[] = [];
  readonly violations: Violation[] = [];
  readonly #server: http.Server;
  origin = "";

  /**
   * `unspecifiedPaths`: calls the carrier publishes no spec for (an OAuth token endpoint), answered
   * unchecked. `excused`: violations of a schema the same spec contradicts (its own examples or
   * value lists), each excuse citing the spec's lines where it is written; not refused.
   */
  constructor(
    readonly contract: PublishedContract,
    answer: Answerer,
    unspecifiedPaths: readonly string[] = [],
    excused: (violation: Violation) => boolean = () => false,
  ) {
    this.#server = http.createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => {
        body += chunk;
      });
      req.on("end", () => {
        const sent: SentRequest = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body };
        this.requests.push(sent);
        const unspecified = unspecifiedPaths.includes(new URL(sent.url, "http://spec-server").pathname);
        const refused = unspecified ? [] : contract.check(sent).filter((violation) => !excused(violation));
        this.violations.push(...refused);
        const example = contract.exampleAnswer(sent);
        const chosen = refused.length
          ? { status: 400, body: { violations: refused } }
          : (answer(sent, example) ?? {
              status: 501,
              body: { error: "the spec has no example answer for this operation" },
            });
        if (!refused.length && !unspecified) {
          this.violations.push(
            ...contract.checkAnswer(sent, chosen.status, chosen.body).filter((violation) => !excused(violation)),
          );
        }
        const text = JSON.stringify(chosen.body);
        res.writeHead(chosen.status, { "content-type": "application/json", ...chosen.headers });
        res.end(text);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.origin;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
