import { type ConnectorSettings, StoreConnectorError } from "../store-connector.js";

/** The Admin API version Porter speaks; Shopify supports a stable version for a year after release. */
export const SHOPIFY_API_VERSION = "2026-10";

/** Throttled calls are retried this many times before the sync gives up (it resumes next time). */
const MAX_ATTEMPTS = 6;
/** A read that fails for want of an answer (network, 5xx) is tried this many times. */
const UNAVAILABLE_ATTEMPTS = 3;

interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface GraphqlError {
  message: string;
  extensions?: { code?: string };
}

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: GraphqlError[] | string;
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus } };
}

/**
 * How Porter is let into the shop: a legacy custom app's static Admin API token, or a Dev Dashboard
 * app's client id and secret, exchanged for a token that expires (the client credentials grant).
 */
export type ShopifyAuth =
  | { kind: "static"; accessToken: string }
  | { kind: "client_credentials"; clientId: string; clientSecret: string };

export interface ShopifyClientOptions extends ConnectorSettings {
  shopDomain: string;
  auth: ShopifyAuth;
}

/** A granted token is fetched again this long before Shopify says it expires. */
const TOKEN_MARGIN_MS = 5 * 60 * 1000;

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
}

/** Milliseconds until the bucket holds `needed` points again, at its restore rate (points per second). */
function refillMs(status: ThrottleStatus, needed: number): number {
  const missing = needed - status.currentlyAvailable;
  if (missing <= 0 || status.restoreRate <= 0) return 0;
  return Math.ceil((missing / status.restoreRate) * 1000);
}

function errorText(errors: GraphqlError[] | string): string {
  return typeof errors === "string" ? errors : errors.map((error) => error.message).join("; ");
}

/**
 * Shopify's Admin GraphQL API for one shop. Shopify meters calls by query cost from a bucket that
 * refills at a restore rate: a call whose cost the bucket cannot cover is answered THROTTLED (or
 * HTTP 429), so the client waits for the refill the answer describes and tries again; and after a
 * call that left the bucket short of the next one's cost, it waits before the next call instead of
 * being refused.
 */
export class ShopifyClient {
  readonly #url: string;
  readonly #tokenUrl: string;
  #lastCost = 0;
  #status: ThrottleStatus | undefined;
  #granted: { token: string; renewAt: number } | undefined;

  constructor(private readonly options: ShopifyClientOptions) {
    const origin = options.baseUrl ?? `https://${options.shopDomain}`;
    this.#url = `${origin}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
    this.#tokenUrl = `${origin}/admin/oauth/access_token`;
  }

  /** The token to send: the static one, or a granted one that is not about to expire. */
  async #accessToken(): Promise<string> {
    const auth = this.options.auth;
    if (auth.kind === "static") return auth.accessToken;
    const now = this.options.clock.now().getTime();
    if (this.#granted && now < this.#granted.renewAt) return this.#granted.token;
    let response: Response;
    try {
      response = await fetch(this.#tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: auth.clientId,
          client_secret: auth.clientSecret,
        }).toString(),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new StoreConnectorError("unavailable", `Shopify could not be reached: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (response.status >= 500) {
      throw new StoreConnectorError("unavailable", `Shopify answered ${response.status} for a token`, response.status);
    }
    if (!response.ok) {
      // 400 or 401: a wrong client id or secret, or the app is not installed on this shop.
      throw new StoreConnectorError(
        "auth",
        `Shopify refused the app's client id and secret (${response.status}): ${text.slice(0, 300)}`,
        response.status,
      );
    }
    let answer: TokenAnswer;
    try {
      answer = JSON.parse(text) as TokenAnswer;
    } catch {
      throw new StoreConnectorError("invalid_response", "Shopify's token answer is not JSON");
    }
    if (!answer.access_token || typeof answer.expires_in !== "number") {
      throw new StoreConnectorError("invalid_response", "Shopify's token answer has no access_token or expires_in");
    }
    this.#granted = {
      token: answer.access_token,
      renewAt: now + Math.max(answer.expires_in * 1000 - TOKEN_MARGIN_MS, 0),
    };
    return answer.access_token;
  }

  async query<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    // A read is tried again after a network failure or a 5xx; a mutation is not, since Shopify may
    // have made the change before the answer was lost.
    const isRead = /^\s*query\b/.test(query);
    let renewed = false;
    for (let attempt = 1; ; attempt += 1) {
      if (this.#status) await this.#wait(refillMs(this.#status, this.#lastCost));
      let answer: GraphqlAnswer<T>;
      try {
        const response = await this.#post(query, variables);
        if (response.status === 401 && this.#granted && !renewed) {
          // A granted token Shopify no longer takes (revoked, or expired early): get a new one, once.
          this.#granted = undefined;
          renewed = true;
          continue;
        }
        if (response.status === 429) {
          if (attempt >= MAX_ATTEMPTS) {
            throw new StoreConnectorError("throttled", "Shopify answered 429 Too Many Requests", 429);
          }
          const seconds = Number(response.headers.get("retry-after"));
          await this.#wait(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000);
          continue;
        }
        answer = await this.#read<T>(response);
      } catch (error) {
        if (
          !(
            isRead &&
            error instanceof StoreConnectorError &&
            error.kind === "unavailable" &&
            attempt < UNAVAILABLE_ATTEMPTS
          )
        ) {
          throw error;
        }
        await this.#wait(1000 * 2 ** (attempt - 1));
        continue;
      }
      const cost = answer.extensions?.cost;
      this.#status = cost?.throttleStatus;
      if (cost?.requestedQueryCost !== undefined) this.#lastCost = cost.requestedQueryCost;
      const errors = answer.errors;
      if (Array.isArray(errors) && errors.some((error) => error.extensions?.code === "THROTTLED")) {
        if (attempt >= MAX_ATTEMPTS) throw new StoreConnectorError("throttled", errorText(errors));
        const status = cost?.throttleStatus;
        await this.#wait(status ? Math.max(refillMs(status, cost?.requestedQueryCost ?? 0), 1000) : 1000);
        this.#status = undefined;
        continue;
      }
      if (errors && errors.length > 0) {
        // ACCESS_DENIED is a missing scope or protected customer data not granted: the data is not
        // "empty", Porter may not read it, and the store must say so.
        const denied = Array.isArray(errors) && errors.some((error) => error.extensions?.code === "ACCESS_DENIED");
        throw new StoreConnectorError(denied ? "scope" : "invalid_response", errorText(errors));
      }
      if (!answer.data) throw new StoreConnectorError("invalid_response", "Shopify answered no data");
      return answer.data;
    }
  }

  async #post(query: string, variables: Record<string, unknown>): Promise<Response> {
    const accessToken = await this.#accessToken();
    try {
      return await fetch(this.#url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "x-shopify-access-token": accessToken,
        },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new StoreConnectorError("unavailable", `Shopify could not be reached: ${(error as Error).message}`);
    }
  }

  async #read<T>(response: Response): Promise<GraphqlAnswer<T>> {
    const text = await response.text();
    let body: GraphqlAnswer<T> | undefined;
    try {
      body = JSON.parse(text) as GraphqlAnswer<T>;
    } catch {
      body = undefined;
    }
    const words = body?.errors ? errorText(body.errors) : text.slice(0, 300);
    if (response.status === 401) throw new StoreConnectorError("auth", words, 401);
    if (response.status === 402 || response.status === 403 || response.status === 423) {
      // 402: the shop's plan is frozen; 403: the token may not use this API; 423: the shop is locked.
      throw new StoreConnectorError(response.status === 403 ? "scope" : "auth", words, response.status);
    }
    if (response.status === 404)
      throw new StoreConnectorError("not_found", `no shop answers at ${this.options.shopDomain}`, 404);
    if (response.status >= 500)
      throw new StoreConnectorError("unavailable", `Shopify answered ${response.status}: ${words}`, response.status);
    if (!response.ok || !body) {
      throw new StoreConnectorError(
        "invalid_response",
        `Shopify answered ${response.status}: ${words}`,
        response.status,
      );
    }
    return body;
  }

  async #wait(ms: number): Promise<void> {
    if (ms > 0) await this.options.wait(ms);
  }
}
