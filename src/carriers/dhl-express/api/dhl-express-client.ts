import { CallGuard } from "../../api-client/call-guard.js";
import { basicAuth } from "../../api-client/carrier-auth.js";
import { CarrierHttpClient } from "../../api-client/carrier-http-client.js";
import type { RealCarrierContext } from "../../real-carrier.js";
import type { DhlExpressCredentials } from "./dhl-express-credentials.js";
import type { DhlErrorBody } from "./dhl-express-wire.js";

/** MyDHL API's own hosts (the spec's `servers`): the test environment, and production. */
export const DHL_EXPRESS_TEST_BASE_URL = "https://express.api.dhl.com/mydhlapi/test";
export const DHL_EXPRESS_PRODUCTION_BASE_URL = "https://express.api.dhl.com/mydhlapi";

/** The interface version every MyDHL API call names in its `x-version` header (the spec's value). */
export const MYDHL_API_VERSION = "3.1.0";

/** DHL's own words from its error body: the detail (or title), then any additional details. */
export function dhlErrorWords(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const error = body as DhlErrorBody;
  const words = [error.detail ?? error.title ?? error.message, ...(error.additionalDetails ?? [])].filter(
    (part): part is string => typeof part === "string" && part !== "",
  );
  return words.length > 0 ? words.join("; ") : undefined;
}

/**
 * One DHL Express connection's HTTP: HTTP basic auth with the MyDHL API key and secret (no
 * OAuth), and the shared client's timeouts, backoff and circuit breaker. DHL publishes no hourly
 * call budget, so none is set.
 */
export function dhlExpressHttpClient(
  context: RealCarrierContext,
  credentials: DhlExpressCredentials,
): CarrierHttpClient {
  return new CarrierHttpClient({
    carrierCode: "dhl_express",
    displayName: "DHL Express",
    baseUrl: context.baseUrl,
    timeoutMs: context.timeoutMs,
    clock: context.clock,
    wait: context.wait,
    errorWords: dhlErrorWords,
    guard: new CallGuard({ clock: context.clock }),
    auth: () => basicAuth(credentials.apiKey, credentials.apiSecret),
  });
}
