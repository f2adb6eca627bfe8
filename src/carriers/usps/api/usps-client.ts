import type { Clock } from "../../../clock.js";
import { CarrierError } from "../../carrier.js";
import type { UspsErrorMessage, UspsOAuthError, UspsTokenRequest, UspsTokenResponse } from "./usps-wire.js";

/** USPS's own hosts: the Testing Environment for Mailers, and production. */
export const USPS_TEST_BASE_URL = "https://apis-tem.usps.com";
export const USPS_PRODUCTION_BASE_URL = "https://apis.usps.com";

/** A token is replaced this long before USPS says it expires, so no call carries a dying token. */
const TOKEN_RENEWAL_MARGIN_MS = 5 * 60_000;
/** 429 and 503 are retried this many times after the first try. */
const MAX_RETRIES = 2;
/** Without a Retry-After, the first retry waits this long, then twice as long. */
const DEFAULT_RETRY_MS = 1000;
/** A Retry-After longer than this is not waited out: the call fails and the caller warns. */
const MAX_RETRY_WAIT_MS = 30_000;

export interface UspsClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  clock: Clock;
  /** Waits between retries; tests pass one that does not sleep. */
  wait?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

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

/** A USPS call that failed; `status` is the HTTP status, undefined when USPS never answered. */
export class UspsCallError extends CarrierError {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super("usps", message);
  }
}

interface UspsAnswer {
  status: number;
  ok: boolean;
  headers: Headers;
  text: string;
}

/**
 * One USPS connection's HTTP: an OAuth client-credentials token kept until shortly before it
 * expires (one renewal however many calls want it at once), a timeout on every call, and
 * 429/503 retried after the wait USPS asks for.
 */
export class UspsClient {
  #token: { value: string; renewAt: number } | undefined;
  #pendingToken: Promise<string> | undefined;
  readonly #wait: (ms: number) => Promise<void>;

  constructor(private readonly options: UspsClientOptions) {
    this.#wait = options.wait ?? sleep;
  }

  /** A valid access token: the kept one, or a new one (shared by every caller that waits for it). */
  async accessToken(): Promise<string> {
    const now = this.options.clock.now().getTime();
    if (this.#token && now < this.#token.renewAt) return this.#token.value;
    this.#pendingToken ??= this.#requestToken().finally(() => {
      this.#pendingToken = undefined;
    });
    return this.#pendingToken;
  }

  async #requestToken(): Promise<string> {
    const body: UspsTokenRequest = {
      grant_type: "client_credentials",
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    };
    const answer = await this.#send("/oauth2/v3/token", body);
    const token = answer as Partial<UspsTokenResponse>;
    if (typeof token.access_token !== "string" || typeof token.expires_in !== "number") {
      throw new UspsCallError("USPS answered the token request with something that is not a token.");
    }
    const lifetimeMs = token.expires_in * 1000;
    const margin = Math.min(TOKEN_RENEWAL_MARGIN_MS, lifetimeMs / 2);
    this.#token = { value: token.access_token, renewAt: this.options.clock.now().getTime() + lifetimeMs - margin };
    return token.access_token;
  }

  /** POSTs JSON to a USPS API with the connection's token; a refused token is renewed once. */
  async post<T>(path: string, body: unknown): Promise<T> {
    const token = await this.accessToken();
    try {
      return (await this.#send(path, body, token)) as T;
    } catch (error) {
      if (!(error instanceof UspsCallError) || error.status !== 401) throw error;
      this.#token = undefined;
      return (await this.#send(path, body, await this.accessToken())) as T;
    }
  }

  async #send(path: string, body: unknown, token?: string): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.#fetch(path, body, token);
      if ((response.status === 429 || response.status === 503) && attempt < MAX_RETRIES) {
        const asked = retryAfterMs(response.headers.get("retry-after"), this.options.clock.now());
        const waitMs = asked ?? DEFAULT_RETRY_MS * 2 ** attempt;
        if (waitMs <= MAX_RETRY_WAIT_MS) {
          await this.#wait(waitMs);
          continue;
        }
      }
      let parsed: unknown;
      try {
        parsed = response.text === "" ? undefined : JSON.parse(response.text);
      } catch {
        parsed = undefined;
      }
      if (response.ok) {
        if (parsed === undefined) throw new UspsCallError(`USPS answered ${path} with a body that is not JSON.`);
        return parsed;
      }
      const words = uspsErrorWords(parsed) ?? `HTTP ${response.status}`;
      throw new UspsCallError(`USPS refused the request: ${words}`, response.status);
    }
  }

  /** One exchange, the body read within the same timeout. */
  async #fetch(path: string, body: unknown, token: string | undefined): Promise<UspsAnswer> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    try {
      const response = await fetch(`${this.options.baseUrl}${path}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      return { status: response.status, ok: response.ok, headers: response.headers, text: await response.text() };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw new UspsCallError(
        timedOut
          ? `USPS did not answer within ${this.options.timeoutMs} ms.`
          : `USPS could not be reached (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  }
}
