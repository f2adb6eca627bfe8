import { OutboundRefused } from "../../net/outbound-guard.js";
import { type ConnectorSettings, StoreConnectorError } from "../store-connector.js";
import { signOAuth1 } from "./oauth1.js";

/** Throttled or failing calls are tried this many times in all before the connector gives up. */
const MAX_ATTEMPTS = 5;
/** Without a Retry-After, waits double from this. */
const FIRST_BACKOFF_MS = 1000;
/** A Retry-After longer than this is not waited out inside one call: the next sync tries again. */
const MAX_WAIT_MS = 120_000;

export interface WooCredentials {
  /** The site's address, with the path WordPress lives under ("https://shop.example.com/store"). */
  siteUrl: URL;
  consumerKey: string;
  consumerSecret: string;
  /** Signs the site's webhooks; without it webhooks are refused. */
  webhookSecret: string | null;
}

export interface WooAnswer<T> {
  body: T;
  headers: Headers;
}

/**
 * What a refusal is called. The site is an address a user gave, so its answer's body never reaches
 * the caller: only its status and one of these.
 */
const REFUSALS: Record<number, string> = {
  401: "the site refused the consumer key and secret",
  403: "the key's user lacks the permission",
  404: "the site has no such resource",
  429: "the site kept throttling Porter",
};

/** A failure before any answer: the guard's refusal says why; the network's own words stay out. */
function unreachable(error: unknown): StoreConnectorError {
  if (error instanceof OutboundRefused) {
    return new StoreConnectorError("unavailable", `the site's address is refused: ${error.message}`);
  }
  const late = error instanceof Error && error.name === "TimeoutError";
  return new StoreConnectorError(
    "unavailable",
    late ? "the WooCommerce site did not answer in time" : "the WooCommerce site could not be reached",
  );
}

function retryAfterMs(response: Response, attempt: number, nowMs: number): number {
  const header = response.headers.get("retry-after");
  const seconds = header === null ? Number.NaN : Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = header === null ? Number.NaN : Date.parse(header);
  if (Number.isFinite(date)) return Math.max(date - nowMs, 0);
  return FIRST_BACKOFF_MS * 2 ** (attempt - 1);
}

/** How the key and secret travel: WooCommerce takes each of these (the first two over HTTPS only). */
type WooAuth = "header" | "query" | "oauth1";

/**
 * Whether a 401 answered to basic auth is WooCommerce's refusal of an anonymous request (the route's
 * own `woocommerce_rest_cannot_*`) rather than of the key: the site never saw the Authorization
 * header, which some hosts (CGI/FastCGI PHP set-ups) strip.
 */
async function refusedAsAnonymous(response: Response): Promise<boolean> {
  let code: unknown;
  try {
    code = ((await response.clone().json()) as { code?: unknown } | null)?.code;
  } catch {
    // An answer that is not WooCommerce's JSON is no evidence the header was lost.
    return false;
  }
  return typeof code === "string" && code.startsWith("woocommerce_rest_cannot_");
}

/**
 * WooCommerce's REST API (v3) of one site. Over HTTPS the consumer key and secret go as basic auth;
 * when the site answers that as an anonymous request (its host stripped the header), they go from
 * then on as `consumer_key` and `consumer_secret` query parameters, which WooCommerce accepts over
 * HTTPS only. Over plain HTTP, where either would expose the secret, each request is signed with
 * OAuth 1.0a one-legged, as WooCommerce documents. 429 and 5xx answers are retried, honouring
 * Retry-After.
 */
export class WooCommerceClient {
  readonly #apiRoot: URL;
  #auth: WooAuth;

  constructor(
    private readonly credentials: WooCredentials,
    private readonly settings: ConnectorSettings,
  ) {
    // An override (a proxy, a stand-in) replaces the site's origin; the site's path and scheme-based auth stay.
    const site = new URL(credentials.siteUrl);
    const origin = settings.baseUrl ? new URL(settings.baseUrl) : site;
    this.#apiRoot = new URL(`${origin.origin}${site.pathname.replace(/\/+$/, "")}/wp-json/wc/v3/`);
    this.#auth = site.protocol === "https:" ? "header" : "oauth1";
  }

  get<T>(path: string, query: Record<string, string> = {}): Promise<WooAnswer<T>> {
    return this.call<T>("GET", path, query);
  }

  async send<T>(
    method: "POST" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
    query: Record<string, string> = {},
  ): Promise<T> {
    return (await this.call<T>(method, path, query, body)).body;
  }

  async call<T>(method: string, path: string, query: Record<string, string>, body?: unknown): Promise<WooAnswer<T>> {
    for (let attempt = 1; ; attempt += 1) {
      const response = await this.#fetch(method, path, query, body);
      // A refused request changed nothing on the site, so asking again the other way is safe.
      if (response.status === 401 && this.#auth === "header" && (await refusedAsAnonymous(response))) {
        await response.body?.cancel();
        this.#auth = "query";
        attempt -= 1;
        continue;
      }
      const retryable = response.status === 429 || response.status >= 500;
      if (retryable && attempt < MAX_ATTEMPTS) {
        const wait = retryAfterMs(response, attempt, this.settings.clock.now().getTime());
        if (wait <= MAX_WAIT_MS) {
          await response.body?.cancel();
          await this.settings.wait(wait);
          continue;
        }
      }
      return { body: await this.#read<T>(response), headers: response.headers };
    }
  }

  async #fetch(method: string, path: string, query: Record<string, string>, body: unknown): Promise<Response> {
    let url = new URL(path, this.#apiRoot);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.#auth === "header") {
      const pair = `${this.credentials.consumerKey}:${this.credentials.consumerSecret}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
    } else if (this.#auth === "query") {
      url.searchParams.set("consumer_key", this.credentials.consumerKey);
      url.searchParams.set("consumer_secret", this.credentials.consumerSecret);
    } else {
      url = signOAuth1(method, url, {
        consumerKey: this.credentials.consumerKey,
        consumerSecret: this.credentials.consumerSecret,
        timestamp: Math.floor(this.settings.clock.now().getTime() / 1000),
      });
    }
    try {
      return await this.settings.outbound.request(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      throw unreachable(error);
    }
  }

  async #read<T>(response: Response): Promise<T> {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw unreachable(error);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (response.ok && body !== undefined) return body as T;
    if (response.ok) throw new StoreConnectorError("invalid_response", "WooCommerce answered something not JSON");
    const said = `WooCommerce answered ${response.status}: ${REFUSALS[response.status] ?? "the site refused the request"}`;
    if (response.status === 401) throw new StoreConnectorError("auth", said, 401);
    // A key with read-only permissions is refused writes with 401 too; 403 is a user without the capability.
    if (response.status === 403) throw new StoreConnectorError("scope", said, 403);
    if (response.status === 404) throw new StoreConnectorError("not_found", said, 404);
    if (response.status === 429) throw new StoreConnectorError("throttled", said, 429);
    if (response.status >= 500) throw new StoreConnectorError("unavailable", said, response.status);
    throw new StoreConnectorError("rejected", said, response.status);
  }
}
