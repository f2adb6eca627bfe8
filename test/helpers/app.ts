import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { carrierApisFor } from "../../src/app.js";
import type { AppServices } from "../../src/app-services.js";
import { ManualClock } from "../../src/clock.js";
import { type Config, loadConfig } from "../../src/config.js";
import { createAccount } from "../../src/domain/accounts/create-account.js";
import { createUser, type PlaintextKeys } from "../../src/domain/accounts/create-user.js";
import type { Role } from "../../src/domain/accounts/roles.js";
import { appendMeterEntry } from "../../src/domain/meter/meter.repository.js";
import { createDomainCaches } from "../../src/domain/services.js";
import { type BuildServerOptions, buildServer } from "../../src/http/server.js";
import { JobQueue } from "../../src/jobs/queue.js";
import { SandboxPaymentGateway } from "../../src/payments/sandbox-gateway.js";
import { DiskFileStore } from "../../src/storage/files/disk-file-store.js";
import type { FileStore } from "../../src/storage/files/file-store.js";
import { SecretBox } from "../../src/storage/secret-box.js";
import { StoreConnectors } from "../../src/stores/registry.js";
import { createTestDatabase, type TestDatabase } from "./database.js";

export interface TestApp {
  app: FastifyInstance;
  services: AppServices;
  clock: ManualClock;
  database: TestDatabase;
  /** What another process of this deployment needs: the database and the same secret key. */
  processEnv: Record<string, string>;
  close(): Promise<void>;
}

/** The real server on a fresh database, with a manual clock; requests go through `app.inject`. */
export async function buildTestApp(
  options: { config?: Partial<Config>; files?: FileStore } & Omit<BuildServerOptions, "logger"> & {
      logger?: BuildServerOptions["logger"];
    } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const clock = new ManualClock();
  // No sandbox USPS audits unless a test asks for them: a surprise adjustment would move balances.
  const config = {
    ...loadConfig({ LOG_LEVEL: "silent", SANDBOX_AUDIT_PERCENT: "0" }),
    databaseUrl: database.url,
    ...options.config,
  };
  const secretKey = randomBytes(32);
  const secrets = new SecretBox(secretKey);
  const services: AppServices = {
    config,
    database: database.db,
    db: database.db.kysely,
    clock,
    wakeUps: database.db.wakeUps,
    secrets,
    caches: createDomainCaches(),
    files: options.files ?? new DiskFileStore(fs.mkdtempSync(path.join(os.tmpdir(), "porter-files-"))),
    jobs: new JobQueue(database.db.kysely, database.db.dialect, clock),
    payments: new SandboxPaymentGateway(),
    carrierApis: carrierApisFor(config, clock, database.db, async () => undefined),
    storeConnectors: new StoreConnectors({
      clock,
      timeoutMs: config.storeApiTimeoutMs,
      baseUrls: { shopify: config.shopifyApiBaseUrl },
      allowPrivateTargets: config.outboundAllowPrivateTargets,
      // Platform throttling waits are the stand-ins' word, not time a test should spend.
      wait: async () => {},
    }),
  };
  const app = await buildServer(services, {
    logger: options.logger ?? false,
    extraApiRoutes: options.extraApiRoutes,
  });
  await app.ready();
  return {
    app,
    services,
    clock,
    database,
    processEnv: { ...database.env, SECRET_KEY: secretKey.toString("hex") },
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

export interface TestAccount {
  accountId: number;
  userId: number;
  keys: PlaintextKeys;
  /** `Authorization` header for the test key. */
  auth: { authorization: string };
}

let sequence = 0;

/** An account with one user holding keys (Owner + API unless other roles are asked for). */
export async function createTestAccount(
  services: AppServices,
  options: { parentId?: number; roles?: Role[]; name?: string } = {},
): Promise<TestAccount> {
  sequence += 1;
  const account = await createAccount(services, {
    name: options.name ?? `Account ${sequence}`,
    parentId: options.parentId,
  });
  const { user, keys } = await createUser(services, {
    accountId: account.id,
    email: `user${sequence}-${account.id}@example.com`,
    roles: options.roles ?? ["Owner", "API"],
  });
  if (!keys) throw new Error("test accounts need an API user");
  return { accountId: account.id, userId: user.id, keys, auth: { authorization: `Bearer ${keys.test}` } };
}

/** The three accounts an isolation test needs: a merchant, a stranger and the merchant's child. */
export interface TestTenants {
  merchant: TestAccount;
  other: TestAccount;
  child: TestAccount;
}

export async function createTestTenants(services: AppServices): Promise<TestTenants> {
  const merchant = await createTestAccount(services);
  const other = await createTestAccount(services);
  const child = await createTestAccount(services, { parentId: merchant.accountId });
  return { merchant, other, child };
}

/**
 * The app and tenants an isolation test's `describe` shares: built before its tests, closed after
 * them. Read its fields in tests and hooks, not when the tests are declared.
 */
export function tenantsApp(): TestTenants & { t: TestApp } {
  const shared = {} as TestTenants & { t: TestApp };
  beforeAll(async () => {
    shared.t = await buildTestApp();
    Object.assign(shared, await createTestTenants(shared.t.services));
  });
  afterAll(() => shared.t.close());
  return shared;
}

/**
 * `call(auth, method, path, payload)`: one request under `/api/v2` with the given key, to the app
 * that `app()` returns at the time of the call (test files build theirs in `beforeAll`).
 */
export function apiCaller(app: () => TestApp) {
  return (
    auth: TestAccount["auth"],
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    payload?: Record<string, unknown>,
  ) => app().app.inject({ method, url: `/api/v2${url}`, headers: auth, payload });
}

/** The production-mode key of an account, as request headers. */
export const liveAuth = (account: TestAccount): TestAccount["auth"] => ({
  authorization: `Bearer ${account.keys.production}`,
});

/** A user with keys added to an existing account. */
export async function addTestUser(services: AppServices, accountId: number, roles: Role[]): Promise<TestAccount> {
  sequence += 1;
  const { user, keys } = await createUser(services, {
    accountId,
    email: `member${sequence}-${accountId}@example.com`,
    roles,
  });
  if (!keys) throw new Error("test users need the API role");
  return { accountId, userId: user.id, keys, auth: { authorization: `Bearer ${keys.test}` } };
}

/**
 * Puts money on an account's meter (an `adjustment` entry, as an operator's credit would be), so a
 * test can buy production labels without a payment method.
 */
export async function fundMeter(
  services: AppServices,
  account: { accountId: number },
  mode: "test" | "production" = "production",
  cents = 1_000_000,
): Promise<void> {
  const stamp = services.clock.now().toISOString();
  await appendMeterEntry(services.db, {
    account_id: account.accountId,
    mode,
    kind: "adjustment",
    amount_cents: cents,
    shipment_id: null,
    description: "Test credit",
    status: "posted",
    available_at: stamp,
    created_at: stamp,
  });
}
