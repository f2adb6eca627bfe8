import type { Clock } from "../clock.js";
import { shopifyPlatform } from "./shopify/shopify-connector.js";
import type { PlatformType, StoreConnector, StorePlatform } from "./store-connector.js";
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
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Opens connectors for stores; one per process, in the domain services. */
export class StoreConnectors {
  constructor(
    private readonly settings: StoreConnectorSettings,
    private readonly platforms: readonly StorePlatform[] = PLATFORMS,
  ) {}

  /** The platform behind a store type, or undefined when Porter has no connector for it. */
  platform(type: string): StorePlatform | undefined {
    return this.platforms.find((platform) => platform.type === type);
  }

  /** A connector for one store. Throws StoreConnectorError when the credentials have the wrong shape. */
  open(platform: StorePlatform, credentials: Record<string, string>): StoreConnector {
    return platform.open(credentials, {
      clock: this.settings.clock,
      timeoutMs: this.settings.timeoutMs,
      wait: this.settings.wait ?? sleep,
      baseUrl: this.settings.baseUrls?.[platform.type],
    });
  }
}
