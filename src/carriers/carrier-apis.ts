import { BoundedMap } from "../bounded-map.js";
import type { Clock } from "../clock.js";
import type { CallCounter, CarrierApiHealth } from "./api-client/call-guard.js";
import type { CarrierAdapter } from "./carrier.js";
import type { CarrierCode } from "./catalogue.js";
import type { ConnectionMode, RealCarrier } from "./real-carrier.js";
import { realCarrierFactory } from "./real-carriers.js";
import { findCarrier } from "./registry.js";

export type { ConnectionMode, RealCarrier } from "./real-carrier.js";

export interface CarrierApiSettings {
  /** Overrides a carrier's host for every mode (a proxy, a stand-in). */
  baseUrls: Partial<Record<CarrierCode, string>>;
  timeoutMs: number;
  clock: Clock;
  /** Where hourly call budgets are counted: the database's, so they hold across processes. */
  callCounter?: CallCounter;
  /** Waits between retries; tests pass one that does not sleep. */
  wait?: (ms: number) => Promise<void>;
}

/** A connection's credentials were given but are not what its carrier's API needs. */
export class CredentialsInvalid extends Error {}

interface StoredConnection {
  id: number;
  carrier_code: string;
  mode: ConnectionMode;
}

/**
 * The carrier a connection talks through: its carrier's own API when it holds that API's
 * credentials, else the sandbox carrier. Real carriers are kept per connection so their OAuth
 * tokens and breakers live as long as the process, not as long as one request (call budgets
 * are counted by the `callCounter`, on the database).
 */
export class CarrierApis {
  /** `false`: a connection of a carrier with a real API whose credentials are the sandbox's. */
  readonly #byConnection = new BoundedMap<number, RealCarrier | false>(10_000);

  constructor(private readonly settings: CarrierApiSettings) {}

  /** The real carrier these credentials open, or undefined for a sandbox connection. Throws CredentialsInvalid. */
  open(carrierCode: string, mode: ConnectionMode, credentials: Record<string, unknown>): RealCarrier | undefined {
    const factory = realCarrierFactory(carrierCode);
    if (!factory) return undefined;
    let parsed: unknown;
    try {
      parsed = factory.credentials(credentials);
    } catch (error) {
      throw new CredentialsInvalid((error as Error).message);
    }
    if (parsed === undefined) return undefined;
    return factory.open(parsed, {
      baseUrl:
        this.settings.baseUrls[factory.carrierCode] ??
        (mode === "production" ? factory.productionBaseUrl : factory.testBaseUrl),
      mode,
      timeoutMs: this.settings.timeoutMs,
      clock: this.settings.clock,
      callCounter: this.settings.callCounter,
      wait: this.settings.wait,
    });
  }

  /** Keeps a verified connection's real carrier, token and all, for its first requests. */
  remember(connectionId: number, real: RealCarrier): void {
    this.#byConnection.set(connectionId, real);
  }

  /**
   * The adapter of a stored connection. `credentials` is asked only for carriers that have a real
   * API and only once per connection per process: rating does not open a sealed secret each time.
   */
  adapterFor(connection: StoredConnection, credentials: () => Record<string, unknown>): CarrierAdapter | undefined {
    return this.#real(connection, credentials)?.adapter ?? findCarrier(connection.carrier_code);
  }

  /** The call budgets and breakers of a connection opened in this process; empty for the sandbox. */
  healthOf(connection: StoredConnection, credentials: () => Record<string, unknown>): CarrierApiHealth[] {
    return this.#real(connection, credentials)?.health() ?? [];
  }

  #real(connection: StoredConnection, credentials: () => Record<string, unknown>): RealCarrier | undefined {
    if (!realCarrierFactory(connection.carrier_code)) return undefined;
    const known = this.#byConnection.get(connection.id);
    if (known !== undefined) return known || undefined;
    let real: RealCarrier | undefined;
    try {
      real = this.open(connection.carrier_code, connection.mode, credentials());
    } catch (error) {
      // Connected before the carrier had a real API with credentials of another shape: a sandbox connection, as it was.
      if (!(error instanceof CredentialsInvalid)) throw error;
    }
    this.#byConnection.set(connection.id, real ?? false);
    return real;
  }
}
