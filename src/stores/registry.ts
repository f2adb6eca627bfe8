import type { Clock } from "../clock.js";
import {
  checkOutboundTarget,
  OutboundClient,
  OutboundPolicy,
  OutboundRefused,
  type PrivateTargetAllowance,
} from "../net/outbound-guard.js";
import { shopifyPlatform } from "./shopify/shopify-connector.js";
import { type PlatformType, type StoreConnector, StoreConnectorError, type StorePlatform } from "./store-connector.js";
import { woocommercePlatform } from "./woocommerce/woocommerce-connector.js";

/** Every platform Porter can connect a store to; a platform not listed has no connector yet. */
const PLATFORMS: readonly StorePlatform[] = [shopifyPlatform, woocommercePlatform];

export interface StoreConnectorSettings {
  clock: Clock;
  timeoutMs: number;
  /** Waits between retries; tests pass one that does not sleep. */
  wait?: (ms: number) => Promise<void>;
  /** Per platform, a host that replaces the platform's own (a proxy, a stand-in). */
  baseUrls?: Partial<Record<PlatformType, string>>;
  /** Private-network addresses a store's credentials may point at (the operator's allow-list). */
  allowPrivateTargets?: PrivateTargetAllowance;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Opens connectors for stores; one per process, in the domain services. */
export class StoreConnectors {
  readonly #policy: OutboundPolicy;
  readonly #outbound: OutboundClient;

  constructor(
    private readonly settings: StoreConnectorSettings,
    private readonly platforms: readonly StorePlatform[] = PLATFORMS,
  ) {
    this.#policy = new OutboundPolicy(settings.allowPrivateTargets ?? false);
    this.#outbound = new OutboundClient(this.#policy);
  }

  /** The platform behind a store type, or undefined when Porter has no connector for it. */
  platform(type: string): StorePlatform | undefined {
    return this.platforms.find((platform) => platform.type === type);
  }

  /** Whether some platform sends this body unsigned and expects it acknowledged (a webhook's ping). */
  isUnsignedPing(rawBody: Buffer): boolean {
    return this.platforms.some((platform) => platform.isUnsignedPing?.(rawBody) === true);
  }

  /** A connector for one store. Throws StoreConnectorError when the credentials have the wrong shape. */
  open(platform: StorePlatform, credentials: Record<string, string>): StoreConnector {
    return platform.open(credentials, {
      clock: this.settings.clock,
      timeoutMs: this.settings.timeoutMs,
      wait: this.settings.wait ?? sleep,
      baseUrl: this.settings.baseUrls?.[platform.type],
      outbound: this.#outbound,
    });
  }

  /**
   * Throws StoreConnectorError (kind `auth`) when an address in the credentials is refused by the
   * outbound guard; the connection to it is checked again every time.
   */
  async checkAddresses(platform: StorePlatform, credentials: Record<string, string>): Promise<void> {
    for (const url of platform.userAddresses?.(credentials) ?? []) {
      try {
        await checkOutboundTarget(url, this.#policy);
      } catch (error) {
        if (!(error instanceof OutboundRefused)) throw error;
        throw new StoreConnectorError("auth", `the site's address is refused: ${error.message}`);
      }
    }
  }
}
