import { CallGuard } from "../../api-client/call-guard.js";
import { bearerAuth, OAuthToken, requestToken } from "../../api-client/carrier-auth.js";
import { CarrierHttpClient } from "../../api-client/carrier-http-client.js";
import type { RealCarrierContext } from "../../real-carrier.js";
import type { FedexCredentials } from "./fedex-credentials.js";
import { fedexErrorWords } from "./fedex-mapping.js";
import type { FedexTokenRequest } from "./fedex-wire.js";

/** FedEx's own hosts: the sandbox, and production. */
export const FEDEX_TEST_BASE_URL = "https://apis-sandbox.fedex.com";
export const FEDEX_PRODUCTION_BASE_URL = "https://apis.fedex.com";

/**
 * One FedEx connection's HTTP: an OAuth client-credentials token (`POST /oauth/token`, form
 * body; FedEx grants an hour) kept until shortly before it expires. FedEx publishes throttling
 * per project rather than an hourly allowance per API, so the guard keeps breakers, not budgets.
 */
export function fedexHttpClient(context: RealCarrierContext, credentials: FedexCredentials): CarrierHttpClient {
  return new CarrierHttpClient({
    carrierCode: "fed_ex",
    displayName: "FedEx",
    baseUrl: context.baseUrl,
    timeoutMs: context.timeoutMs,
    clock: context.clock,
    wait: context.wait,
    errorWords: fedexErrorWords,
    guard: new CallGuard({ clock: context.clock }),
    auth: (client) =>
      bearerAuth(
        new OAuthToken(() => {
          const form: FedexTokenRequest = {
            grant_type: "client_credentials",
            client_id: credentials.clientId,
            client_secret: credentials.clientSecret,
          };
          return requestToken(client, { path: "/oauth/token", form: { ...form } });
        }, context.clock),
      ),
  });
}
