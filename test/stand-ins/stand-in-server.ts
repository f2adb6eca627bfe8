import http from "node:http";
import type { AddressInfo } from "node:net";

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
