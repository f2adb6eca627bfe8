import type { FastifyInstance } from "fastify";
import type { AppServices } from "./app-services.js";
import { CarrierApis } from "./carriers/carrier-apis.js";
import { CARRIER_CODES_CONNECTED_BY_DEFAULT } from "./carriers/registry.js";
import { type Clock, systemClock } from "./clock.js";
import type { Config } from "./config.js";
import { countAccounts } from "./domain/accounts/accounts.repository.js";
import { createAccount } from "./domain/accounts/create-account.js";
import { createUser, type PlaintextKeys } from "./domain/accounts/create-user.js";
import { scheduleCloseOut } from "./domain/batches/close-out.js";
import { connectAllSandboxCarriers } from "./domain/carriers/connect-carrier.js";
import { scheduleStoreSyncs } from "./domain/orders/store-sync-schedule.js";
import { schedulePruning } from "./domain/retention/prune.js";
import { createDomainCaches } from "./domain/services.js";
import { WebhookDispatcher } from "./events/webhook-dispatcher.js";
import { WebhookPoster } from "./events/webhook-poster.js";
import { buildServer } from "./http/server.js";
import { jobHandlers, storeSyncSchedule } from "./job-handlers.js";
import { JobQueue } from "./jobs/queue.js";
import { Worker } from "./jobs/worker.js";
import { OutboundPolicy } from "./net/outbound-guard.js";
import { SandboxPaymentGateway } from "./payments/sandbox-gateway.js";
import { DatabaseCallCounter } from "./storage/carrier-call-counts.js";
import { type Db, openDatabase } from "./storage/db.js";
import { openFileStore } from "./storage/files/open-file-store.js";
import { migrateToLatest, underSchemaLock } from "./storage/migrate.js";
import { loadSecretKey, SecretBox } from "./storage/secret-box.js";
import { StoreConnectors } from "./stores/registry.js";

/** Opens the database (migrated to the latest schema) and wires the domain services. */
export async function openServices(config: Config, clock: Clock = systemClock): Promise<AppServices> {
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  const secrets = new SecretBox(loadSecretKey(config.secretKey, config.dataDir));
  return {
    config,
    database,
    db: database.kysely,
    clock,
    wakeUps: database.wakeUps,
    secrets,
    caches: createDomainCaches(),
    files: await openFileStore(config.fileStore),
    jobs: new JobQueue(database.kysely, database.dialect, clock),
    payments: new SandboxPaymentGateway(),
    carrierApis: carrierApisFor(config, clock, database),
    storeConnectors: new StoreConnectors({
      clock,
      timeoutMs: config.storeApiTimeoutMs,
      baseUrls: { shopify: config.shopifyApiBaseUrl },
      allowPrivateTargets: config.outboundAllowPrivateTargets,
    }),
  };
}

/**
 * The real carrier APIs as configured: their hosts (or the operator's overrides) and timeout, with
 * hourly call budgets counted on the database so they hold across every process on it.
 */
export function carrierApisFor(
  config: Config,
  clock: Clock,
  database: Db,
  wait?: (ms: number) => Promise<void>,
): CarrierApis {
  return new CarrierApis({
    baseUrls: {
      usps: config.uspsApiBaseUrl,
      ups: config.upsApiBaseUrl,
      fed_ex: config.fedexApiBaseUrl,
      dhl_express: config.dhlExpressApiBaseUrl,
    },
    timeoutMs: config.carrierApiTimeoutMs,
    clock,
    callCounter: new DatabaseCallCounter(database.kysely, database.dialect),
    wait,
  });
}

export function createWorker(services: AppServices, logger?: FastifyInstance["log"]): Worker {
  return new Worker(services.jobs, jobHandlers(services, logger), {
    leaseMs: services.config.jobLeaseMs,
    pollMs: services.config.jobPollMs,
    logger,
  });
}

/**
 * A running worker, with the daily postal close-out, the order stores' syncs and the pruning of
 * old records on the queue (each round queues the next).
 */
export async function startWorker(services: AppServices, logger?: FastifyInstance["log"]): Promise<Worker> {
  // Each schedule looks for its queued round before queueing one: workers starting together take
  // turns, so each chain exists once.
  await underSchemaLock(services.database, async () => {
    await scheduleCloseOut(services);
    await scheduleStoreSyncs(services, storeSyncSchedule(services));
    await schedulePruning(services);
  });
  const worker = createWorker(services, logger);
  worker.start();
  return worker;
}

/** The worker's webhook side: delivers every subscription's events as they arrive. */
export function createWebhookDispatcher(services: AppServices, logger?: FastifyInstance["log"]): WebhookDispatcher {
  const { config } = services;
  const poster = new WebhookPoster(
    services.secrets,
    new OutboundPolicy(config.outboundAllowPrivateTargets),
    config.webhookTimeoutMs,
  );
  return new WebhookDispatcher(services.db, services.database.dialect, services.clock, poster, {
    timeoutMs: config.webhookTimeoutMs,
    retryBaseMs: config.webhookRetryBaseMs,
    concurrency: config.webhookConcurrency,
    pollMs: config.jobPollMs,
    logger,
  });
}

export interface DemoAccount {
  accountId: number;
  email: string;
  keys: PlaintextKeys;
}

/**
 * On an empty database, a demo merchant with one Owner+API user and every sandbox carrier
 * connected in both modes, so the first curl works.
 */
/** The demo account's user, which the first start creates. */
export const DEMO_EMAIL = "demo@porter.local";

export async function ensureDemoAccount(services: AppServices): Promise<DemoAccount | undefined> {
  // Processes starting together on an empty database create one demo account between them.
  return underSchemaLock(services.database, () => createDemoAccountIfEmpty(services));
}

async function createDemoAccountIfEmpty(services: AppServices): Promise<DemoAccount | undefined> {
  if ((await countAccounts(services.db)) > 0) return undefined;
  const account = await createAccount(services, { name: "Demo Merchant", email: DEMO_EMAIL });
  const { keys } = await createUser(services, {
    accountId: account.id,
    email: DEMO_EMAIL,
    firstName: "Demo",
    lastName: "Merchant",
    roles: ["Owner", "API"],
  });
  if (!keys) throw new Error("the demo user has the API role, so it has keys");
  await connectAllSandboxCarriers(services, account.id, CARRIER_CODES_CONNECTED_BY_DEFAULT);
  return { accountId: account.id, email: DEMO_EMAIL, keys };
}

export { buildServer };
