import { once } from "node:events";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebhookSender } from "../../../src/events/webhook-sender.js";
import { IDLE_SOCKET_MS, OutboundPolicy } from "../../../src/net/outbound-guard.js";

/**
 * A stock `node:http` receiver. It numbers its connections and the requests seen on each, and
 * `onRequest` decides what to do with each one.
 */
class StockReceiver {
  readonly sockets: Socket[] = [];
  readonly requestsOn = new Map<Socket, number>();
  /** Sockets the sender ended (the receiver saw the sender's FIN). */
  readonly endedBySender = new Set<Socket>();
  onRequest: (request: http.IncomingMessage, response: http.ServerResponse, nth: number) => void = (_, response) =>
    response.end("ok");
  readonly server = http.createServer((request, response) => {
    const socket = request.socket;
    const nth = (this.requestsOn.get(socket) ?? 0) + 1;
    this.requestsOn.set(socket, nth);
    request.resume();
    request.on("end", () => this.onRequest(request, response, nth));
  });

  constructor(keepAliveTimeoutMs: number) {
    this.server.keepAliveTimeout = keepAliveTimeoutMs;
    this.server.on("connection", (socket: Socket) => {
      this.sockets.push(socket);
      socket.on("end", () => this.endedBySender.add(socket));
    });
  }

  async listen(): Promise<string> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, "close");
  }
}

const post = (url: string) => ({ url, body: '{"payload":[]}', headers: { "content-type": "application/json" } });

describe("webhook deliveries over kept-alive sockets", () => {
  let receiver: StockReceiver;
  let sender: WebhookSender;

  afterEach(async () => {
    sender?.close();
    await receiver?.close();
  });

  it("keeps an idle socket for less time than Node's default keep-alive timeout of 5 s", () => {
    expect(IDLE_SOCKET_MS).toBeLessThan(5_000);
  });

  it("closes an idle socket itself before the receiver would, then delivers on a new one", async () => {
    // The receiver does not announce its timeout (an explicit Connection header suppresses Node's
    // Keep-Alive hint, as a proxy in front of a receiver often does), so only the sender's own
    // idle limit closes the socket in time.
    receiver = new StockReceiver(60_000);
    receiver.onRequest = (_, response) => response.setHeader("connection", "keep-alive").end("ok");
    const url = await receiver.listen();
    sender = new WebhookSender(new OutboundPolicy(true), 5_000, { idleSocketMs: 100 });

    expect((await sender.send(post(url))).ok).toBe(true);
    const first = receiver.sockets[0] as Socket;
    if (!first.closed) await once(first, "close");
    expect(receiver.endedBySender.has(first)).toBe(true);

    expect((await sender.send(post(url))).ok).toBe(true);
    expect(receiver.sockets).toHaveLength(2);
  });

  it("retries once on a new socket when a reused socket is reset before any byte of the answer", async () => {
    // The receiver closes a kept-alive socket just as the next request arrives on it: the race a
    // receiver's keep-alive timeout opens.
    receiver = new StockReceiver(60_000);
    receiver.onRequest = (request, response, nth) => {
      if (nth > 1) request.socket.destroy();
      else response.end("ok");
    };
    const url = await receiver.listen();
    sender = new WebhookSender(new OutboundPolicy(true), 5_000);

    expect((await sender.send(post(url))).ok).toBe(true);
    const second = await sender.send(post(url));
    expect(second).toMatchObject({ ok: true, statusCode: 200 });
    expect(receiver.sockets).toHaveLength(2);
  });

  it("does not retry a reset on a new socket", async () => {
    receiver = new StockReceiver(60_000);
    receiver.onRequest = (request) => request.socket.destroy();
    const url = await receiver.listen();
    sender = new WebhookSender(new OutboundPolicy(true), 5_000);

    const outcome = await sender.send(post(url));
    expect(outcome).toMatchObject({ ok: false, statusCode: null, message: "the connection was reset" });
    expect(receiver.sockets).toHaveLength(1);
  });

  it("does not retry once the answer has begun", async () => {
    receiver = new StockReceiver(60_000);
    receiver.onRequest = (request, response, nth) => {
      if (nth === 1) {
        response.end("ok");
        return;
      }
      response.writeHead(200, { "content-length": "100" });
      response.write("partial", () => request.socket.destroy());
    };
    const url = await receiver.listen();
    sender = new WebhookSender(new OutboundPolicy(true), 5_000);

    expect((await sender.send(post(url))).ok).toBe(true);
    const outcome = await sender.send(post(url));
    expect(outcome.ok).toBe(false);
    expect(receiver.sockets).toHaveLength(1);
  });
});
