import path from "node:path";
import { type PrivateTargetAllowance, parseAllowedRange } from "./net/outbound-guard.js";
import { parseS3Url, type S3Location } from "./storage/files/s3-location.js";

/** Every setting Porter reads from the environment, validated once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  publicBaseUrl: string;
  logLevel: string;
  /** Requests one API key may have in flight before 429. */
  keyConcurrencyLimit: number;
  /** Largest request body in bytes. */
  bodyLimitBytes: number;
  /** How long a claimed job stays leased to a worker without a heartbeat. */
  jobLeaseMs: number;
  jobPollMs: number;
  /** How long after a batch request its manifest documents are generated (carriers take minutes). */
  manifestDelayMs: number;
  /** How long a webhook receiver has to answer one delivery. */
  webhookTimeoutMs: number;
  /** The first retry delay after a failed delivery; each further failure doubles it. */
  webhookRetryBaseMs: number;
  /**
   * Private-network addresses users may point Porter at (webhook targets, WooCommerce sites): all
   * (true), none (false), or the listed ranges. Allowing any also accepts plain-HTTP webhook targets.
   */
  outboundAllowPrivateTargets: PrivateTargetAllowance;
  /** Subscriptions one worker delivers to at the same time. */
  webhookConcurrency: number;
  /** How many times faster than the clock sandbox parcels travel (demos); 1 is real time. */
  sandboxTimeScale: number;
  /** Percent of sandbox USPS parcels whose audit at acceptance finds them different from their labels. */
  sandboxAuditPercent: number;
  /** How long an idempotency key stays its holder's without the holder renewing it. */
  idempotencyLeaseMs: number;
  /**
   * Hosts for real carrier connections (a proxy, a stand-in); unset: the carrier's test or
   * production host by the connection's mode.
   */
  uspsApiBaseUrl: string | undefined;
  upsApiBaseUrl: string | undefined;
  fedexApiBaseUrl: string | undefined;
  dhlExpressApiBaseUrl: string | undefined;
  /** Overrides every Shopify store's host (a proxy, a stand-in). */
  shopifyApiBaseUrl: string | undefined;
  storeApiTimeoutMs: number;
  /** How often every platform store's new and changed orders are imported. */
  storeSyncIntervalMs: number;
  /** How far back the hourly reconciliation re-reads orders, to catch what webhooks missed. */
  storeReconcileWindowMs: number;
  /** How often stores of a platform that never retries a failed webhook (WooCommerce) are synced when they take webhooks. */
  storeWebhookReconcileIntervalMs: number;
  /** How long one call to a carrier API may take before it counts as failed. */
  carrierApiTimeoutMs: number;
  /** How long a completed idempotent request's answer is replayed (and kept) after it finished. */
  idempotencyRetentionMs: number;
  /** How long finished jobs (done, or failed for good) are kept. */
  jobRetentionMs: number;
  /** How long events are kept once every active webhook subscription has delivered them. */
  eventRetentionMs: number;
  /** How long finished webhook delivery records are kept. */
  webhookDeliveryRetentionMs: number;
  /** How often the pruning job runs, and how many rows one of its deletes takes. */
  pruneIntervalMs: number;
  pruneBatchSize: number;
  /**
   * FILE_STORE_URL: where labels, customs forms and manifests are kept. Unset: `$DATA_DIR/files`
   * on this machine's disk; `s3://bucket/prefix`: an S3-compatible object store (docs/files.md).
   */
  fileStore: FileStoreSetting;
  /** SECRET_KEY as given (hex or base64 of 32 bytes); absent in embedded mode, which keeps a key file. */
  secretKey: string | undefined;
}

export type FileStoreSetting =
  | { kind: "disk"; directory: string }
  | {
      kind: "s3";
      location: S3Location;
      /** AWS_REGION, else AWS_DEFAULT_REGION, else us-east-1 (R2 takes "auto"). */
      region: string;
      /** FILE_STORE_S3_PATH_STYLE; by default on when an endpoint is set (MinIO, Ceph RGW, R2), off for AWS. */
      forcePathStyle: boolean;
      /** FILE_STORE_TIMEOUT_MS: one request to the store, before it counts as unavailable. */
      timeoutMs: number;
    };

export class ConfigError extends Error {}

function fileStore(env: Env, dataDir: string): FileStoreSetting {
  const url = env.FILE_STORE_URL?.trim();
  if (!url) return { kind: "disk", directory: path.join(dataDir, "files") };
  const location = parseS3Url(url);
  if (!location) {
    throw new ConfigError(`FILE_STORE_URL must be s3://bucket or s3://bucket/prefix, got "${url}"`);
  }
  const endpointSet = Boolean(env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL);
  return {
    kind: "s3",
    location,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1",
    forcePathStyle: env.FILE_STORE_S3_PATH_STYLE ? flag(env, "FILE_STORE_S3_PATH_STYLE") : endpointSet,
    timeoutMs: integer(env, "FILE_STORE_TIMEOUT_MS", 10_000, 100, 300_000),
  };
}

/** An http(s) base URL without its trailing slashes, or undefined when unset. */
function baseUrl(env: Env, name: string): string | undefined {
  const value = env[name] ? (env[name] as string).replace(/\/+$/, "") : undefined;
  if (value && !/^https?:\/\//.test(value)) throw new ConfigError(`${name} must be an http(s) URL, got "${value}"`);
  return value;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? "").toLowerCase();
  if (raw === "" || raw === "0" || raw === "false" || raw === "no") return false;
  if (raw === "1" || raw === "true" || raw === "yes") return true;
  throw new ConfigError(`${name} must be true or false (or 1/0, yes/no), got "${env[name]}"`);
}

/**
 * OUTBOUND_ALLOW_PRIVATE_TARGETS: true/false or a comma-separated list of addresses and CIDR
 * ranges; unset, the older WEBHOOK_ALLOW_PRIVATE_TARGETS flag is read in its place.
 */
function privateTargets(env: Env): PrivateTargetAllowance {
  const name = "OUTBOUND_ALLOW_PRIVATE_TARGETS";
  const raw = env[name]?.trim();
  if (!raw) return flag(env, "WEBHOOK_ALLOW_PRIVATE_TARGETS");
  if (/^(true|false|yes|no|1|0)$/i.test(raw)) return flag(env, name);
  const ranges = raw.split(",").map((entry) => entry.trim());
  for (const range of ranges) {
    try {
      parseAllowedRange(range);
    } catch {
      throw new ConfigError(`${name} must be true, false or a list of addresses and CIDR ranges, got "${range}"`);
    }
  }
  return ranges;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, "PORT", 3000, 0, 65535);
  // This machine only unless the operator widens it: a fresh install is not reachable from the network.
  const host = env.HOST || "127.0.0.1";
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  const databaseUrl = env.DATABASE_URL || `sqlite://${path.join(dataDir, "porter.sqlite")}`;
  if (!/^(sqlite|postgres|postgresql):\/\//.test(databaseUrl)) {
    throw new ConfigError(
      `DATABASE_URL must start with sqlite:// or postgres://, got "${databaseUrl.replace(/\/\/[^@]*@/, "//***@")}"`,
    );
  }
  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  if (!/^https?:\/\//.test(publicBaseUrl)) {
    throw new ConfigError(`PUBLIC_BASE_URL must be an http(s) URL, got "${publicBaseUrl}"`);
  }
  const logLevel = env.LOG_LEVEL || "info";
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  }
  const secretKey = env.SECRET_KEY || undefined;
  if (secretKey && !/^[0-9a-fA-F]{64}$/.test(secretKey) && Buffer.from(secretKey, "base64").length !== 32) {
    throw new ConfigError("SECRET_KEY must be 32 bytes written as 64 hex characters or as base64");
  }
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    publicBaseUrl,
    logLevel,
    keyConcurrencyLimit: integer(env, "KEY_CONCURRENCY_LIMIT", 50, 1, 100_000),
    bodyLimitBytes: integer(env, "BODY_LIMIT_BYTES", 1_048_576, 1024, 100 * 1_048_576),
    jobLeaseMs: integer(env, "JOB_LEASE_MS", 30_000, 1000, 3_600_000),
    jobPollMs: integer(env, "JOB_POLL_MS", 500, 10, 60_000),
    manifestDelayMs: integer(env, "MANIFEST_DELAY_MS", 5000, 0, 3_600_000),
    webhookTimeoutMs: integer(env, "WEBHOOK_TIMEOUT_MS", 30_000, 1, 300_000),
    webhookRetryBaseMs: integer(env, "WEBHOOK_RETRY_BASE_MS", 60_000, 1, 86_400_000),
    outboundAllowPrivateTargets: privateTargets(env),
    webhookConcurrency: integer(env, "WEBHOOK_CONCURRENCY", 8, 1, 1000),
    sandboxTimeScale: integer(env, "SANDBOX_TIME_SCALE", 1, 1, 100_000),
    sandboxAuditPercent: integer(env, "SANDBOX_AUDIT_PERCENT", 2, 0, 100),
    idempotencyLeaseMs: integer(env, "IDEMPOTENCY_LEASE_MS", 10_000, 1000, 600_000),
    uspsApiBaseUrl: baseUrl(env, "USPS_API_BASE_URL"),
    upsApiBaseUrl: baseUrl(env, "UPS_API_BASE_URL"),
    fedexApiBaseUrl: baseUrl(env, "FEDEX_API_BASE_URL"),
    dhlExpressApiBaseUrl: baseUrl(env, "DHL_EXPRESS_API_BASE_URL"),
    carrierApiTimeoutMs: integer(env, "CARRIER_API_TIMEOUT_MS", 15_000, 100, 300_000),
    shopifyApiBaseUrl: baseUrl(env, "SHOPIFY_API_BASE_URL"),
    storeApiTimeoutMs: integer(env, "STORE_API_TIMEOUT_MS", 30_000, 100, 300_000),
    storeSyncIntervalMs: integer(env, "STORE_SYNC_INTERVAL_MS", 900_000, 60_000, 86_400_000),
    storeReconcileWindowMs: integer(env, "STORE_RECONCILE_WINDOW_MS", 86_400_000, 3_600_000, 30 * 86_400_000),
    storeWebhookReconcileIntervalMs: integer(env, "STORE_WEBHOOK_RECONCILE_INTERVAL_MS", 300_000, 60_000, 3_600_000),
    idempotencyRetentionMs: integer(env, "IDEMPOTENCY_RETENTION_HOURS", 24, 1, 24 * 90) * HOUR_MS,
    jobRetentionMs: integer(env, "JOB_RETENTION_DAYS", 7, 1, 3650) * DAY_MS,
    eventRetentionMs: integer(env, "EVENT_RETENTION_DAYS", 90, 1, 3650) * DAY_MS,
    webhookDeliveryRetentionMs: integer(env, "WEBHOOK_DELIVERY_RETENTION_DAYS", 90, 1, 3650) * DAY_MS,
    pruneIntervalMs: integer(env, "PRUNE_INTERVAL_MS", 3_600_000, 60_000, 86_400_000),
    pruneBatchSize: integer(env, "PRUNE_BATCH_SIZE", 500, 10, 100_000),
    fileStore: fileStore(env, dataDir),
    secretKey,
  };
}
