import net from "node:net";
import { describe, expect, it } from "vitest";
import {
  checkOutboundTarget,
  guardedLookup,
  isPublicAddress,
  OutboundClient,
  OutboundPolicy,
  OutboundRefused,
} from "../../../src/net/outbound-guard.js";

describe("the outbound guard", () => {
  it.each([
    ["8.8.8.8", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["127.0.0.1", false],
    ["10.0.0.1", false],
    ["172.16.5.4", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["::", false],
    ["::1", false],
    ["fc00::1", false],
    ["fd12:3456::1", false],
    ["fe80::1", false],
    ["::ffff:127.0.0.1", false],
    ["::127.0.0.1", false],
    ["::7f00:1", false],
    ["::8.8.8.8", false],
    ["64:ff9b::7f00:1", false],
    ["2002:7f00:1::", false],
    ["not an address", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("lets the operator's ranges through and nothing else", () => {
    const policy = new OutboundPolicy(["10.1.0.0/16", "::1"]);
    expect(policy.allowsPrivate).toBe(true);
    expect(policy.permits("10.1.2.3")).toBe(true);
    expect(policy.permits("::ffff:10.1.2.3")).toBe(true);
    expect(policy.permits("::1")).toBe(true);
    expect(policy.permits("10.2.0.1")).toBe(false);
    expect(policy.permits("127.0.0.1")).toBe(false);
    expect(new OutboundPolicy(false).allowsPrivate).toBe(false);
    expect(new OutboundPolicy(true).permits("169.254.169.254")).toBe(true);
  });

  it.each([
    "http://127.0.0.1/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.1/",
    "http://127.1/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::127.0.0.1]/",
    "http://0.0.0.0/",
    "http://localhost/",
    "http://localhost./",
    "http://api.localhost/",
    "http://[fe80::1]/",
    "gopher://8.8.8.8/",
  ])("refuses %s when it is given", async (url) => {
    await expect(checkOutboundTarget(new URL(url), new OutboundPolicy(false))).rejects.toBeInstanceOf(OutboundRefused);
  });

  it("resolves a host name at connection time and hands out no private address", async () => {
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup(new OutboundPolicy(false))("localhost", {}, (error) => resolve(error)),
    );
    expect(refused).toBeInstanceOf(OutboundRefused);
    const allowed = await new Promise<unknown>((resolve) =>
      guardedLookup(new OutboundPolicy(true))("localhost", { all: true }, (_error, addresses) => resolve(addresses)),
    );
    expect(allowed).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]));
  });

  it("opens no connection to a refused address, so no TLS byte leaves", async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    const client = new OutboundClient(new OutboundPolicy(false));
    try {
      for (const url of [
        `https://127.0.0.1:${port}/`,
        `https://[::ffff:127.0.0.1]:${port}/`,
        `http://localhost:${port}/`,
      ]) {
        await expect(client.request(new URL(url), { method: "GET", headers: {} })).rejects.toBeInstanceOf(
          OutboundRefused,
        );
      }
    } finally {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(connections).toBe(0);
  });
});
