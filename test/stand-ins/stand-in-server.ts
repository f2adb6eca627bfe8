import { randomBytes } from "node:crypto";
import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RealCarrierContext } from "../../src/carriers/real-carrier.js";
import type { Clock } from "../../src/clock.js";
import { PageContent } from "../../src/labels/pdf/page-content.js";
import { PdfPages } from "../../src/labels/pdf/pdf-pages.js";
import {
  carrierSpecsAvailable,
  type PublishedContract,
  publishedContract,
  type SentRequest,
  type Violation,
} from "../contracts/published-specs.js";

export type StandInHandler = (req: http.IncomingMessage, res: http.ServerResponse, raw: string) => void;

/**
 * The local HTTP server under a carrier stand-in: hands each request to the stand-in with its whole
 * body, keeps the answers a stand-in leaves hanging (a simulated timeout) so stopping ends them.
 */
export class StandInServer {
  readonly #server: http.Server;
  readonly #hanging = new Set<http.ServerResponse>();
  origin = "";

  constructor(handler: StandInHandler) {
    this.#server = http.createServer((req, res) => {
      let raw = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => {
        raw += chunk;
      });
      req.on("end", () => handler(req, res, raw));
    });
    // Longer than any pause in a test: the client's pooled connection is never closed under it
    // just as it sends (which fails the call as "fetch failed" on a busy machine).
    this.#server.keepAliveTimeout = 120_000;
  }

  /** Listens on a free loopback port; `origin` is then `http://127.0.0.1:<port>`. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.origin;
  }

  /** Never answers `res`: the caller's timeout is what ends the exchange. */
  hang(res: http.ServerResponse): void {
    this.#hanging.add(res);
  }

  async stop(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** The failures a stand-in was told to produce: each fails the next `times` calls to one operation, or to any. */
export class FaultQueue<Kind extends string, Operation extends string> {
  readonly #faults: { kind: Kind; operation: Operation | undefined; times: number }[] = [];

  add(kind: Kind, operation: Operation | undefined, times = 1): void {
    this.#faults.push({ kind, operation, times });
  }

  clear(): void {
    this.#faults.length = 0;
  }

  /** The failure this call to `operation` is to produce, if any; each use counts one call down. */
  take(operation: Operation | undefined): Kind | undefined {
    const fault = this.#faults.find((f) => f.operation === undefined || f.operation === operation);
    if (!fault) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) this.#faults.splice(this.#faults.indexOf(fault), 1);
    return fault.kind;
  }
}

/**
 * What every carrier stand-in shares: its server, the failures it was told to produce, starting and
 * stopping. `apiPath` is where the carrier's API sits under the server's origin.
 */
export abstract class CarrierStandIn<Fault extends string, Operation extends string> {
  protected readonly server = new StandInServer((req, res, raw) => this.#receive(req, res, raw));
  protected readonly faults = new FaultQueue<Fault, Operation>();
  baseUrl = "";
  /**
   * The carrier's published spec files (relative to `CARRIER_SPECS_DIR`) whose operations every
   * request must conform to, and path prefixes the stand-in serves them under besides the specs'
   * own servers. A request that does not conform is refused as the carrier would refuse it, and
   * kept in `specViolations`.
   */
  protected readonly specFiles: readonly string[] = [];
  protected readonly specPrefixes: readonly string[] = [];
  /** Paths of calls the carrier publishes no spec for (an OAuth token endpoint): served unchecked. */
  protected readonly unspecifiedPaths: readonly string[] = [];
  readonly specViolations: Violation[] = [];
  #contract: PublishedContract | undefined;

  constructor(private readonly apiPath = "") {}

  async start(): Promise<this> {
    if (this.specFiles.length > 0 && carrierSpecsAvailable()) {
      this.#contract = await publishedContract(this.specFiles, this.specPrefixes);
    }
    this.baseUrl = `${await this.server.start()}${this.apiPath}`;
    return this;
  }

  #receive(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const unspecified = this.unspecifiedPaths.includes(new URL(req.url ?? "/", "http://stand-in").pathname);
    const sent = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body: raw };
    const violations = unspecified
      ? []
      : [
          ...(this.#contract?.check(sent).filter((violation) => !this.excused(violation)) ?? []),
          ...this.proseViolations(sent),
        ];
    if (violations.length) {
      this.specViolations.push(...violations);
      this.refuseNonConforming(res, violations);
      return;
    }
    this.handle(req, res, raw);
  }

  /** What a request breaks of the rules the carrier's specs state only in prose (each citing its line). */
  protected proseViolations(_request: SentRequest): Violation[] {
    return [];
  }

  /** A violation of a schema the spec's own prose contradicts (a stand-in cites the lines); not refused. */
  protected excused(_violation: Violation): boolean {
    return false;
  }

  /** Answers a request its published operation does not allow; a carrier overrides this with its own error body. */
  protected refuseNonConforming(res: http.ServerResponse, violations: readonly Violation[]): void {
    sendJson(res, 400, {
      errors: violations.map((v) => ({ code: "invalid_request", message: `${v.where} ${v.message}` })),
    });
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** The next `times` calls (to `operation`, or to any) fail as `kind` says. */
  fail(kind: Fault, options: { operation?: Operation; times?: number } = {}): void {
    this.faults.add(kind, options.operation, options.times);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /**
   * Answers the faults every carrier answers alike: a timeout never answers, a malformed answer is
   * `truncated` JSON. True when it answered (or left hanging) the call.
   */
  protected answeredAsFault(fault: Fault | undefined, res: http.ServerResponse, truncated: string): boolean {
    if (fault === "timeout") {
      this.server.hang(res);
      return true;
    }
    if (fault === "malformed") {
      res.writeHead(200, { "content-type": "application/json" }).end(truncated);
      return true;
    }
    return false;
  }

  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void;
}

/** A carrier stand-in whose API takes OAuth bearer tokens it grants for client credentials. */
export abstract class OAuthCarrierStandIn<Fault extends string, Operation extends string> extends CarrierStandIn<
  Fault,
  Operation
> {
  protected readonly tokens = new Set<string>();

  /** Forgets every token it granted, as the carrier does when a token is revoked or expires early. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  /** A new token, valid until revoked. */
  protected grantToken(bytes: number, encoding: "hex" | "base64url"): string {
    const token = randomBytes(bytes).toString(encoding);
    this.tokens.add(token);
    return token;
  }

  /** Whether the request carries a bearer token the stand-in granted. */
  protected bearerGranted(req: http.IncomingMessage): boolean {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    return token !== undefined && this.tokens.has(token);
  }
}

/** A request body as its content type says: form fields, JSON, or undefined when it is neither. */
export function parseRequestBody(raw: string, contentType: string | undefined): unknown {
  if (contentType?.startsWith("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return raw === "" ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/**
 * A real one-page PDF as a carrier's document (a commercial invoice, a SCAN form): its title
 * names it, so a test can tell it from one Porter draws, and any PDF reader opens it; `lines`
 * follow the title (what the document lists).
 */
export function standInPdf(title: string, lines: readonly string[] = []): Buffer {
  const pdf = new PdfPages(title);
  const page = new PageContent(792, 1);
  page.text([{ x: 72, baseline: 72, text: title }], { weight: "bold", sizePt: 14 });
  page.text(
    lines.map((text, index) => ({ x: 72, baseline: 96 + index * 12, text })),
    { weight: "regular", sizePt: 9 },
  );
  pdf.page(612, 792, page);
  return Buffer.concat([...pdf.drain(), ...pdf.end()]);
}

/** How a test opens a real carrier against its stand-in: test mode, and no sleeping between retries. */
export function standInContext(baseUrl: string, clock: Clock, timeoutMs = 5000): RealCarrierContext {
  return { baseUrl, mode: "test", timeoutMs, clock, wait: async () => undefined };
}
