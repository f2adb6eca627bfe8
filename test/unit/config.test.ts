import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

describe("configuration from the environment", () => {
  it("defaults to an embedded SQLite file under ./data on port 3000", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve("data"));
    expect(config.databaseUrl).toBe(`sqlite://${path.resolve("data/porter.sqlite")}`);
    expect(config.publicBaseUrl).toBe("http://localhost:3000");
  });

  it("listens on this machine only unless HOST widens it", () => {
    expect(loadConfig({}).host).toBe("127.0.0.1");
    expect(loadConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(loadConfig({ HOST: "::" }).host).toBe("::");
  });

  it.each([
    ["PORT", "70000", /PORT must be a whole number from 0 to 65535/],
    ["PORT", "abc", /PORT/],
    ["DATABASE_URL", "mysql://x", /DATABASE_URL must start with sqlite:\/\/ or postgres:\/\//],
    ["LOG_LEVEL", "loud", /LOG_LEVEL must be one of/],
    ["PUBLIC_BASE_URL", "ftp://x", /PUBLIC_BASE_URL/],
    ["KEY_CONCURRENCY_LIMIT", "0", /KEY_CONCURRENCY_LIMIT/],
    ["WEBHOOK_TIMEOUT_MS", "0", /WEBHOOK_TIMEOUT_MS/],
    ["IDEMPOTENCY_LEASE_MS", "999", /IDEMPOTENCY_LEASE_MS/],
    ["IDEMPOTENCY_RETENTION_HOURS", "0", /IDEMPOTENCY_RETENTION_HOURS must be a whole number from 1 to 2160/],
    ["EVENT_RETENTION_DAYS", "ninety", /EVENT_RETENTION_DAYS/],
    ["PRUNE_BATCH_SIZE", "5", /PRUNE_BATCH_SIZE/],
    ["WEBHOOK_ALLOW_PRIVATE_TARGETS", "maybe", /WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/],
    ["OUTBOUND_ALLOW_PRIVATE_TARGETS", "10.0.0.0/8,intranet", /OUTBOUND_ALLOW_PRIVATE_TARGETS must be .*"intranet"/],
  ])("refuses %s=%s with a clear message", (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it("keeps idempotent answers a day and events and deliveries 90 days unless told otherwise", () => {
    const HOUR = 3_600_000;
    expect(loadConfig({})).toMatchObject({
      idempotencyRetentionMs: 24 * HOUR,
      jobRetentionMs: 7 * 24 * HOUR,
      eventRetentionMs: 90 * 24 * HOUR,
      webhookDeliveryRetentionMs: 90 * 24 * HOUR,
      pruneIntervalMs: HOUR,
      pruneBatchSize: 500,
    });
    expect(
      loadConfig({ IDEMPOTENCY_RETENTION_HOURS: "48", JOB_RETENTION_DAYS: "1", WEBHOOK_DELIVERY_RETENTION_DAYS: "30" }),
    ).toMatchObject({
      idempotencyRetentionMs: 48 * HOUR,
      jobRetentionMs: 24 * HOUR,
      webhookDeliveryRetentionMs: 720 * HOUR,
    });
  });

  it("reads the webhook settings, private targets refused unless allowed", () => {
    expect(loadConfig({})).toMatchObject({
      webhookTimeoutMs: 30_000,
      webhookRetryBaseMs: 60_000,
      outboundAllowPrivateTargets: false,
      webhookConcurrency: 8,
    });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "250" })).toMatchObject({
      outboundAllowPrivateTargets: true,
      webhookTimeoutMs: 250,
    });
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE_TARGETS: "true" }).outboundAllowPrivateTargets).toBe(true);
    expect(
      loadConfig({
        OUTBOUND_ALLOW_PRIVATE_TARGETS: "10.0.0.0/8, fd00::/8,127.0.0.1",
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      }).outboundAllowPrivateTargets,
    ).toEqual(["10.0.0.0/8", "fd00::/8", "127.0.0.1"]);
  });

  it("never echoes a database password", () => {
    expect(() => loadConfig({ DATABASE_URL: "mysql://user:hunter2@db/x" })).toThrow(/\*\*\*@/);
    try {
      loadConfig({ DATABASE_URL: "mysql://user:hunter2@db/x" });
    } catch (error) {
      expect((error as Error).message).not.toContain("hunter2");
    }
  });
});
