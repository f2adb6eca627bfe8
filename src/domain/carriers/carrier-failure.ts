import { isCarrierOutage } from "../../carriers/api-client/carrier-http-client.js";
import { CarrierError } from "../../carriers/carrier.js";
import { findCarrier } from "../../carriers/registry.js";
import type { Clock } from "../../clock.js";
import { DomainError } from "../errors.js";

/**
 * When a carrier that timed out or failed without saying when to come back is worth asking again:
 * long enough for a passing fault to pass, short against the minute its breaker stays open.
 */
export const CARRIER_RETRY_AFTER_SECONDS = 30;

/** The answer to a carrier that cannot be had now: 503 `carrier.unavailable`, naming it and why. */
export function carrierUnavailable(
  carrierName: string,
  why: string,
  retryAfterSeconds = CARRIER_RETRY_AFTER_SECONDS,
): DomainError {
  return new DomainError("carrier.unavailable", `${carrierName} is unavailable: ${why}`, retryAfterSeconds);
}

/**
 * The one answer to a failed carrier call: its outage (silence, 5xx, an unreadable answer, an open
 * breaker or a spent call budget) is 503 `carrier.unavailable` with a Retry-After (when the
 * breaker or budget lets calls through again, or the carrier's own wait); its refusal of the
 * request is 422 `carrier.rejected` in its words.
 */
export function carrierFailure(error: CarrierError, clock: Clock): DomainError {
  if (!isCarrierOutage(error)) return new DomainError("carrier.rejected", error.message);
  const carrierName = findCarrier(error.carrierCode)?.displayName ?? error.carrierCode;
  if (!error.retryAt) return carrierUnavailable(carrierName, error.message);
  const seconds = Math.ceil((error.retryAt.getTime() - clock.now().getTime()) / 1000);
  return carrierUnavailable(carrierName, error.message, Math.max(1, seconds));
}

/** `error` as the API answers it: a carrier's failure by `carrierFailure`, anything else as it is. */
export function asApiError(error: unknown, clock: Clock): unknown {
  return error instanceof CarrierError ? carrierFailure(error, clock) : error;
}

/** Runs a call to a carrier, its failure answered as `carrierFailure` says. */
export async function callingCarrier<T>(clock: Clock, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asApiError(error, clock);
  }
}
