import { BoundedMap } from "../bounded-map.js";
import type { Clock } from "../clock.js";
import type { CarrierAdapter } from "./carrier.js";
import { findCarrier } from "./registry.js";
import { uspsApiCarrier } from "./usps/api/usps-api-carrier.js";
import { USPS_PRODUCTION_BASE_URL, USPS_TEST_BASE_URL, UspsClient } from "./usps/api/usps-client.js";
import { uspsCredentials } from "./usps/api/usps-credentials.js";

export interface CarrierApiSettings {
  /** Overrides USPS's host for every mode (a proxy, a stand-in). */
  uspsBaseUrl?: string;
  timeoutMs: number;
  clock: Clock;
  /** Waits between retries; tests pass one that does not sleep. */
  wait?: (ms: number) => Promise<void>;
}

export type ConnectionMode = "test" | "production";

/** A connection's credentials were given but are not what its carrier's API needs. */
export class CredentialsInvalid extends Error {}

/** A carrier's real API for one connection, and how to check its credentials. */
export interface RealCarrier {
  adapter: CarrierAdapter;
  /** Proves the credentials with the carrier (an OAuth token); throws CarrierError with its words. */
  verify(): Promise<void>;
}

/**
 * The carrier a connection talks through: its carrier's own API when it holds that API's
 * credentials, else the sandbox carrier. Real adapters are kept per connection so their OAuth
 * tokens live as long as the tokens do, not as long as one request.
 */
export class CarrierApis {
  readonly #byConnection = new BoundedMap<number, CarrierAdapter>(10_000);

  constructor(private readonly settings: CarrierApiSettings) {}

  /** The real carrier these credentials open, or undefined for a sandbox connection. Throws CredentialsInvalid. */
  open(carrierCode: string, mode: ConnectionMode, credentials: Record<string, unknown>): RealCarrier | undefined {
    if (carrierCode !== "usps") return undefined;
    let parsed: ReturnType<typeof uspsCredentials>;
    try {
      parsed = uspsCredentials(credentials);
    } catch (error) {
      throw new CredentialsInvalid((error as Error).message);
    }
    if (!parsed) return undefined;
    const client = new UspsClient({
      baseUrl: this.settings.uspsBaseUrl ?? (mode === "production" ? USPS_PRODUCTION_BASE_URL : USPS_TEST_BASE_URL),
      clientId: parsed.clientId,
      clientSecret: parsed.clientSecret,
      timeoutMs: this.settings.timeoutMs,
      clock: this.settings.clock,
      wait: this.settings.wait,
    });
    return {
      adapter: uspsApiCarrier(client, parsed),
      verify: async () => {
        await client.accessToken();
      },
    };
  }

  /** Keeps a verified connection's adapter, token and all, for its first requests. */
  remember(connectionId: number, adapter: CarrierAdapter): void {
    this.#byConnection.set(connectionId, adapter);
  }

  /**
   * The adapter of a stored connection. `credentials` is asked only for carriers that have a real
   * API and only once per connection per process: rating does not open a sealed secret each time.
   */
  adapterFor(
    connection: { id: number; carrier_code: string; mode: ConnectionMode },
    credentials: () => Record<string, unknown>,
  ): CarrierAdapter | undefined {
    const sandbox = findCarrier(connection.carrier_code);
    if (connection.carrier_code !== "usps") return sandbox;
    const known = this.#byConnection.get(connection.id);
    if (known) return known;
    let adapter = sandbox;
    try {
      adapter = this.open(connection.carrier_code, connection.mode, credentials())?.adapter ?? sandbox;
    } catch (error) {
      // Connected before USPS had a real API with credentials of another shape: a sandbox connection, as it was.
      if (!(error instanceof CredentialsInvalid)) throw error;
    }
    if (adapter) this.#byConnection.set(connection.id, adapter);
    return adapter;
  }
}
