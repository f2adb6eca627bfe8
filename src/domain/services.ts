import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { CarrierApis } from "../carriers/carrier-apis.js";
import type { Clock } from "../clock.js";
import type { JobQueue } from "../jobs/queue.js";
import type { PaymentGateway } from "../payments/payment-gateway.js";
import type { FileStore } from "../storage/files/file-store.js";
import type { Database } from "../storage/schema.js";
import type { SecretBox } from "../storage/secret-box.js";
import type { WakeUps } from "../storage/wake-ups.js";
import type { StoreConnectors } from "../stores/registry.js";
import { SignInLimiter } from "./accounts/sign-in-limits.js";
import type { CarrierAccountRow, CarrierServiceStatusRow } from "./carriers/carrier-accounts.repository.js";
import { ExpiringCache } from "./shared/expiring-cache.js";

/** What every use case needs from the outside world; built once per process. */
export interface DomainServices {
  db: Kysely<Database>;
  clock: Clock;
  /** Wakes a request that waits for another one (a twin, a refill in flight) when that one is done. */
  wakeUps: WakeUps;
  /** Seals credentials and other secrets stored in the database. */
  secrets: SecretBox;
  caches: DomainCaches;
  /** Label, customs and manifest files. */
  files: FileStore;
  /** The carriers' own APIs, for connections that hold their credentials. */
  carrierApis: CarrierApis;
  /** Durable background work (refunds, recovery of interrupted purchases). */
  jobs: JobQueue;
  /** Holds card and bank numbers and charges them; Porter keeps only its tokens. */
  payments: PaymentGateway;
  /** The e-commerce platforms' APIs, for order stores connected to one. */
  storeConnectors: StoreConnectors;
  /** Where what an operator must act on is logged (money incidents); the running process sets it. */
  logger?: Pick<Logger, "error">;
}

/**
 * What every rate request would otherwise read from the database: the account's carrier
 * connections and the operator's carrier statuses. Kept one second; changes made in this process
 * clear them at once.
 */
export interface DomainCaches {
  carrierConnections: ExpiringCache<string, CarrierAccountRow[]>;
  carrierStatuses: ExpiringCache<"all", CarrierServiceStatusRow[]>;
  /** Failed dashboard sign-ins, counted by this process. */
  signIns: SignInLimiter;
}

export function createDomainCaches(): DomainCaches {
  return {
    carrierConnections: new ExpiringCache(1000),
    carrierStatuses: new ExpiringCache(1000, 1),
    signIns: new SignInLimiter(),
  };
}

/** Whose data a request reads and writes: the acting account and the key's mode. */
export interface AccountScope {
  readonly accountId: number;
  readonly mode: "test" | "production";
}
