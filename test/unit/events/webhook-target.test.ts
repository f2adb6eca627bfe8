import { describe, expect, it } from "vitest";
import { checkTarget, guardedLookup, isPublicAddress, TargetRefused } from "../../../src/events/webhook-target.js";

describe("webhook targets", () => {
  it.each([
    ["8.8.8.8", true],
    ["2606:4700:4700::1111", true],
    ["127.0.0.1", false],
    ["10.0.0.1", false],
    ["172.16.5.4", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["::1", false],
    ["fc00::1", false],
    ["fe80::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:8.8.8.8", true],
    ["not an address", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it("accepts public HTTPS, refuses private or plain targets unless the operator allows them", async () => {
    await expect(checkTarget("https://8.8.8.8/hooks", { allowPrivate: false })).resolves.toBeInstanceOf(URL);
    for (const url of ["http://8.8.8.8/hooks", "https://127.0.0.1/", "https://localhost/", "ftp://8.8.8.8/"]) {
      await expect(checkTarget(url, { allowPrivate: false })).rejects.toBeInstanceOf(TargetRefused);
    }
    await expect(checkTarget("http://127.0.0.1:9/hooks", { allowPrivate: true })).resolves.toBeInstanceOf(URL);
    await expect(checkTarget("ftp://127.0.0.1/", { allowPrivate: true })).rejects.toBeInstanceOf(TargetRefused);
  });

  it("resolves a host name at connection time and hands out no private address", async () => {
    const lookup = guardedLookup({ allowPrivate: false });
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup("localhost", {}, (error) => resolve(error)),
    );
    expect(refused?.code).toBe("ETARGETREFUSED");
    const allowed = await new Promise<unknown>((resolve) =>
      guardedLookup({ allowPrivate: true })("localhost", { all: true }, (_error, addresses) => resolve(addresses)),
    );
    expect(allowed).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]));
  });
});
