import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PageContent } from "../../src/labels/pdf/page-content.js";
import { PdfPages } from "../../src/labels/pdf/pdf-pages.js";

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
