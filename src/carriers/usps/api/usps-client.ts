import { createHash } from "node:crypto";
import { CallGuard } from "../../api-client/call-guard.js";
import { bearerAuth, OAuthToken, requestToken } from "../../api-client/carrier-auth.js";
import { CarrierHttpClient } from "../../api-client/carrier-http-client.js";
import type { RealCarrierContext } from "../../real-carrier.js";
import type { UspsErrorMessage, UspsOAuthError, UspsTokenRequest } from "./usps-wire.js";

/** USPS's own hosts: the Testing Environment for Mailers, and production. */
export const USPS_TEST_BASE_URL = "https://apis-tem.usps.com";
export const USPS_PRODUCTION_BASE_URL = "https://apis.usps.com";

/** USPS grants each app 60 calls per hour per API unless it asks for more. */
export const USPS_CALLS_PER_HOUR = 60;

/** The carrier's own words from a USPS error body, whichever of its two error shapes it is. */
export function uspsErrorWords(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const oauth = body as Partial<UspsOAuthError>;
  if (typeof oauth.error === "string") return oauth.error_description ?? oauth.error;
  const api = (body as UspsErrorMessage).error;
  if (!api) return undefined;
  const details = (api.errors ?? []).map((e) => e.detail ?? e.title).filter((d): d is string => Boolean(d));
  return [api.message, ...details].filter(Boolean).join(": ") || undefined;
}

/**
 * One USPS connection's HTTP: an OAuth client-credentials token (`POST /oauth2/v3/token`, JSON
 * body) kept until shortly before it expires, and USPS's default budget of 60 calls an hour per API.
 */
export function uspsHttpClient(
  context: RealCarrierContext,
  app: { clientId: string; clientSecret: string; callsPerHour?: number },
): CarrierHttpClient {
  const perApi = app.callsPerHour ?? USPS_CALLS_PER_HOUR;
  return new CarrierHttpClient({
    carrierCode: "usps",
    displayName: "USPS",
    baseUrl: context.baseUrl,
    timeoutMs: context.timeoutMs,
    clock: context.clock,
    wait: context.wait,
    errorWords: uspsErrorWords,
    guard: new CallGuard({
      clock: context.clock,
      counter: context.callCounter,
      // USPS grants the allowance to the app: every connection using its client ID shares it.
      budget: `usps:${context.mode}:${createHash("sha256").update(app.clientId).digest("hex").slice(0, 32)}`,
      callsPerHour: {
        rate: perApi,
        label: perApi,
        tracking: perApi,
        address: perApi,
        pickup: perApi,
        manifest: perApi,
      },
    }),
    auth: (client) =>
      bearerAuth(
        new OAuthToken(() => {
          const body: UspsTokenRequest = {
            grant_type: "client_credentials",
            client_id: app.clientId,
            client_secret: app.clientSecret,
          };
          return requestToken(client, { path: "/oauth2/v3/token", json: body });
        }, context.clock),
      ),
  });
}
