import type { Clock } from "../clock.js";
import type { CallCounter, CarrierApiHealth } from "./api-client/call-guard.js";
import type { CarrierHttpClient } from "./api-client/carrier-http-client.js";
import type { CarrierAdapter } from "./carrier.js";
import type { CarrierCode } from "./catalogue.js";

export type ConnectionMode = "test" | "production";

/** What a real carrier's connection is opened with, beside its credentials. */
export interface RealCarrierContext {
  /** The carrier's host for the connection's mode, or the operator's override. */
  baseUrl: string;
  mode: ConnectionMode;
  timeoutMs: number;
  clock: Clock;
  /** Where hourly call budgets are counted (the database's, shared by every process); each guard's own if absent. */
  callCounter?: CallCounter;
  /** Waits between retries; tests pass one that does not sleep. */
  wait?: (ms: number) => Promise<void>;
}

/** A carrier's real API for one connection. */
export interface RealCarrier {
  adapter: CarrierAdapter;
  /** Proves the credentials with the carrier; throws CarrierError with its words. */
  verify(): Promise<void>;
  /** The connection's call budgets and breakers, per API, as far as this process has called. */
  health(): CarrierApiHealth[];
}

/**
 * A connection whose calls all go through `client`: its health is the client's, and the
 * credentials are proved by `verify`, by default the client's own authentication (an OAuth token).
 */
export function realCarrierOver(
  client: CarrierHttpClient,
  adapter: CarrierAdapter,
  verify: () => Promise<void> = () => client.authenticate(),
): RealCarrier {
  return { adapter, verify, health: () => client.health() };
}

/**
 * One carrier's real API as Porter knows it: where it lives, which credentials open it, and how
 * a connection is opened. A carrier folder exports one; `real-carriers.ts` lists them.
 */
export interface RealCarrierFactory<Credentials = unknown> {
  carrierCode: CarrierCode;
  testBaseUrl: string;
  productionBaseUrl: string;
  /**
   * The API credentials in a connection's credentials object; undefined when it holds none of
   * them (a sandbox connection). Throws an Error whose message says what is wrong with them.
   */
  credentials(raw: Record<string, unknown>): Credentials | undefined;
  open(credentials: Credentials, context: RealCarrierContext): RealCarrier;
}

/**
 * One text field of a connection's credentials: null when absent or empty, trimmed otherwise.
 * Throws a message naming the field when it is not a string, or not of `pattern` (said as `shape`).
 */
export function credentialText(
  raw: Record<string, unknown>,
  key: string,
  pattern?: { test: RegExp; shape: string },
): string | null {
  const value = raw[key];
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string") throw new Error(`credentials.${key} must be a string.`);
  const text = value.trim();
  if (pattern && !pattern.test.test(text)) throw new Error(`credentials.${key} must be ${pattern.shape}.`);
  return text;
}
