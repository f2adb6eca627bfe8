import { describe, expect, it } from "vitest";
import { hashApiKey, issueApiKey, maskApiKey, modeOfKey } from "../../../src/domain/accounts/api-keys.js";
import { isGranted, parseRoles, serializeRoles } from "../../../src/domain/accounts/roles.js";

describe("API keys", () => {
  it("issues prefixed 32-character base62 keys, different every time", () => {
    const test = issueApiKey("test");
    const live = issueApiKey("production");
    expect(test.plaintext).toMatch(/^pk_test_[0-9A-Za-z]{32}$/);
    expect(live.plaintext).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    expect(issueApiKey("test").plaintext).not.toBe(test.plaintext);
  });

  it("keeps only a SHA-256 hash, the prefix and the last four characters", () => {
    const key = issueApiKey("test");
    expect(key.hash).toBe(hashApiKey(key.plaintext));
    expect(key.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.last4).toBe(key.plaintext.slice(-4));
    expect(maskApiKey(key.prefix, key.last4)).toBe(`pk_test_…${key.last4}`);
  });

  it("tells the mode from the prefix", () => {
    expect(modeOfKey("pk_test_abc")).toBe("test");
    expect(modeOfKey("pk_live_abc")).toBe("production");
    expect(modeOfKey("sk_abc")).toBeUndefined();
  });
});

describe("roles", () => {
  it("round-trips a role set and drops unknown names", () => {
    expect(parseRoles(serializeRoles(["Owner", "API", "API"]))).toEqual(["Owner", "API"]);
    expect(parseRoles("API,Wizard")).toEqual(["API"]);
  });

  it("lets only Owner and Primary administer users", () => {
    expect(isGranted(["Owner"], "administration")).toBe(true);
    expect(isGranted(["Primary", "API"], "administration")).toBe(true);
    expect(isGranted(["API", "Member"], "administration")).toBe(false);
    expect(isGranted(["API", "Billing"], "administration")).toBe(false);
  });

  it("lets Billing, Primary and Owner pay, and the API role ship but not pay", () => {
    expect(isGranted(["API", "Billing"], "billing")).toBe(true);
    expect(isGranted(["Owner"], "billing")).toBe(true);
    expect(isGranted(["API"], "billing")).toBe(false);
    expect(isGranted(["API"], "shipping")).toBe(true);
    expect(isGranted(["Member"], "shipping")).toBe(false);
  });
});
