import net from "node:net";

/**
 * A TCP proxy on a free loopback port in front of `target`: what a test puts between Porter's
 * processes and a server it must not stop itself (the machine's PostgreSQL cluster, shared with
 * other tests). `cut` simulates the server going down: every open connection is dropped and new
 * ones are refused until `restore`, as while a restarted server is not yet listening.
 */
export class TcpProxy {
  readonly #sockets = new Set<net.Socket>();
  #server: net.Server | undefined;
  port = 0;
  /** Connections taken so far, and how many `cut` dropped. */
  accepted = 0;
  dropped = 0;

  constructor(
    readonly targetHost: string,
    readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      this.accepted += 1;
      const upstream = net.connect(this.targetPort, this.targetHost);
      this.#sockets.add(client);
      this.#sockets.add(upstream);
      const end = () => {
        client.destroy();
        upstream.destroy();
        this.#sockets.delete(client);
        this.#sockets.delete(upstream);
      };
      client.on("error", end).on("close", end);
      upstream.on("error", end).on("close", end);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  /** Drops every connection and stops listening: clients see resets, then refusals. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    this.dropped += Math.floor(this.#sockets.size / 2);
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    await closed;
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    if (!this.#server) await this.start();
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
