import { CallGuard } from "../../api-client/call-guard.js";
import { basicAuthHeader, bearerAuth, OAuthToken } from "../../api-client/carrier-auth.js";
import { CarrierHttpClient } from "../../api-client/carrier-http-client.js";
import type { RealCarrierContext } from "../../real-carrier.js";
import type { UpsCredentials } from "./ups-credentials.js";
import type { UpsErrorResponse, UpsTokenResponse } from "./ups-wire.js";

/** UPS's own hosts: the Customer Integration Environment, and production. The APIs live under `/api`. */
export const UPS_TEST_BASE_URL = "https://wwwcie.ups.com";
export const UPS_PRODUCTION_BASE_URL = "https://onlinetools.ups.com";

/** The API versions Porter speaks (a path segment in UPS's specs). */
export const UPS_VERSIONS = { rating: "v2409", shipping: "v2409", addressValidation: "v2", pickup: "v2409" } as const;

/** The carrier's own words from UPS's error body `{response:{errors:[{code,message}]}}`. */
export function upsErrorWords(body: unknown): string | undefined {
  const errors = (body as Partial<UpsErrorResponse> | null)?.response?.errors;
  if (!Array.isArray(errors)) return undefined;
  const words = errors
    .map((e) => (typeof e?.message === "string" ? e.message.trim() : ""))
    .filter((message) => message !== "");
  return words.length > 0 ? words.join("; ") : undefined;
}

/**
 * One UPS connection's HTTP: an OAuth client-credentials token (`POST /security/v1/oauth/token`,
 * HTTP Basic with the app's id and secret, form body), kept until shortly before it expires and
 * renewed once however many calls want it.
 */
export function upsHttpClient(context: RealCarrierContext, credentials: UpsCredentials): CarrierHttpClient {
  return new CarrierHttpClient({
    carrierCode: "ups",
    displayName: "UPS",
    baseUrl: context.baseUrl,
    timeoutMs: context.timeoutMs,
    clock: context.clock,
    wait: context.wait,
    errorWords: upsErrorWords,
    guard: new CallGuard({ clock: context.clock }),
    auth: (client) =>
      bearerAuth(
        new OAuthToken(async () => {
          const token = (
            await client.send({
              method: "POST",
              path: "/security/v1/oauth/token",
              purpose: "auth",
              form: { grant_type: "client_credentials" },
              headers: {
                authorization: basicAuthHeader(credentials.clientId, credentials.clientSecret),
                "x-merchant-id": credentials.shipperNumber,
              },
              authorized: false,
            })
          ).json as Partial<UpsTokenResponse> | undefined;
          const lifetimeS = Number(token?.expires_in);
          if (typeof token?.access_token !== "string" || !(lifetimeS > 0)) {
            throw client.error("UPS answered the token request with something that is not a token.");
          }
          return { accessToken: token.access_token, expiresInS: lifetimeS };
        }, context.clock),
      ),
  });
}
