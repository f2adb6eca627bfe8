import type { Clock } from "../../clock.js";
import { CarrierError } from "../carrier.js";
import type { CarrierCode } from "../catalogue.js";
import type { CallGuard, CarrierApiHealth, CarrierCallPurpose } from "./call-guard.js";

/** 429 and 503 are retried this many times after the first try, for requests that may be repeated. */
const MAX_RETRIES = 2;
/** Without a Retry-After, the first retry waits this long, then twice as long. */
const DEFAULT_RETRY_MS = 1000;
/** A Retry-After longer than this is not waited out: the call fails and the caller warns. */
const MAX_RETRY_WAIT_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * A carrier call that failed. `status` is the HTTP status (undefined when the carrier never
 * answered), `body` its parsed answer; `retryAt` is when the carrier may be called again: set when
 * Porter did not call at all because the connection's budget for that API is spent or its breaker
 * is open, or when the carrier asked for a longer wait (Retry-After) than Porter waits in a call.
 */
export class CarrierCallError extends CarrierError {
  constructor(
    carrierCode: CarrierCode,
    message: string,
    readonly status?: number,
    readonly body?: unknown,
    readonly retryAt?: Date,
  ) {
    super(carrierCode, message);
    this.name = "CarrierCallError";
  }
}

/**
 * Whether a failed call is the carrier being unavailable rather than refusing the request: no
 * answer, a 5xx, throttling that outlasted the retries, an answer Porter cannot read, or no call
 * made at all (budget, breaker). Only the carrier's other 4xx answers are refusals.
 */
export function isCarrierOutage(error: unknown): error is CarrierCallError {
  return error instanceof CarrierCallError && unavailableStatus(error.status);
}

function unavailableStatus(status: number | undefined): boolean {
  return status === undefined || status === 429 || status < 400 || status >= 500;
}

/** How a connection proves itself on each call (a bearer token, basic auth). */
export interface CarrierAuth {
  headers(): Promise<Record<string, string>>;
  /** The carrier refused what `headers` gave (401): the next call asks for new credentials. */
  refused(): void;
}

export interface CarrierHttpRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Appended to the base URL as is (already encoded). */
  path: string;
  /** The API the call belongs to: whose budget it spends and whose breaker it feeds. */
  purpose: CarrierCallPurpose;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body, or a form-encoded one; at most one. */
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** False for a call that must go without the connection's auth (the token request itself). */
  authorized?: boolean;
  /**
   * False for a request that must not be sent twice once it may have reached the carrier (a label
   * bought without an idempotency key): a 429 or 503 is then the failure, not retried.
   */
  idempotent?: boolean;
}

export interface CarrierHttpAnswer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json: unknown;
  bytes: Buffer;
}

export interface CarrierHttpOptions {
  carrierCode: CarrierCode;
  /** How the carrier is named in messages ("USPS"). */
  displayName: string;
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  /** The carrier's own words from one of its error bodies. */
  errorWords(body: unknown): string | undefined;
  /** Built with the client, for auth (OAuth) that calls the carrier itself. */
  auth?: (client: CarrierHttpClient) => CarrierAuth;
  guard?: CallGuard;
  /** Waits between retries; tests pass one that does not sleep. */
  wait?: (ms: number) => Promise<void>;
}

/**
 * One carrier connection's HTTP: a timeout on every call, 429/503 retried after the wait the
 * carrier asks for (unless the request says it is not idempotent), one renewal of refused credentials, and the connection's call budget and
 * circuit breaker in front of every call. Non-2xx answers throw CarrierCallError with the
 * carrier's words.
 */
export class CarrierHttpClient {
  readonly #auth: CarrierAuth | undefined;
  readonly #wait: (ms: number) => Promise<void>;

  constructor(private readonly options: CarrierHttpOptions) {
    this.#wait = options.wait ?? sleep;
    this.#auth = options.auth?.(this);
  }

  get displayName(): string {
    return this.options.displayName;
  }

  /** A failure in the carrier's name, for answers a caller finds unreadable. */
  error(message: string, status?: number, body?: unknown): CarrierCallError {
    return new CarrierCallError(this.options.carrierCode, message, status, body);
  }

  /** Obtains the connection's credentials where the carrier issues them (an OAuth token). */
  async authenticate(): Promise<void> {
    await this.#auth?.headers();
  }

  /** The connection's call budgets and breakers, per API called so far. */
  health(): CarrierApiHealth[] {
    return this.options.guard?.health() ?? [];
  }

  /** Sends a request and answers its parsed JSON body; an empty or non-JSON answer is an error. */
  async json<T>(request: CarrierHttpRequest): Promise<T> {
    const answer = await this.send(request);
    if (answer.json === undefined) {
      throw this.error(
        `${this.options.displayName} answered ${request.path} with a body that is not JSON.`,
        answer.status,
      );
    }
    return answer.json as T;
  }

  /** Sends a request; a refused credential is renewed once. Throws CarrierCallError unless 2xx. */
  async send(request: CarrierHttpRequest): Promise<CarrierHttpAnswer> {
    const refusal = await this.options.guard?.admit(request.purpose);
    if (refusal) {
      const why =
        refusal.reason === "budget"
          ? `this connection's hourly call budget for the ${request.purpose} API is spent`
          : `its ${request.purpose} API failed repeatedly`;
      throw new CarrierCallError(
        this.options.carrierCode,
        `${this.options.displayName} was not called: ${why}; calls resume at ${refusal.retryAt.toISOString()}.`,
        undefined,
        undefined,
        refusal.retryAt,
      );
    }
    try {
      const answer = await this.#authorizedSend(request);
      this.options.guard?.succeeded(request.purpose);
      return answer;
    } catch (error) {
      // A carrier that refused the request (4xx) is up; its outages count against it.
      const carrierFailed = !(error instanceof CarrierCallError) || isCarrierOutage(error);
      if (carrierFailed) this.options.guard?.failed(request.purpose, (error as Error).message);
      else this.options.guard?.succeeded(request.purpose);
      throw error;
    }
  }

  async #authorizedSend(request: CarrierHttpRequest): Promise<CarrierHttpAnswer> {
    if (request.authorized === false || !this.#auth) return this.#retrying(request, {});
    try {
      return await this.#retrying(request, await this.#auth.headers());
    } catch (error) {
      if (!(error instanceof CarrierCallError) || error.status !== 401) throw error;
      this.#auth.refused();
      return this.#retrying(request, await this.#auth.headers());
    }
  }

  async #retrying(request: CarrierHttpRequest, authHeaders: Record<string, string>): Promise<CarrierHttpAnswer> {
    for (let attempt = 0; ; attempt++) {
      const answer = await this.#exchange(request, authHeaders);
      const now = this.options.clock.now();
      const asked = retryAfterMs(answer.headers.get("retry-after"), now);
      const retriable = request.idempotent !== false && (answer.status === 429 || answer.status === 503);
      if (retriable && attempt < MAX_RETRIES) {
        const waitMs = asked ?? DEFAULT_RETRY_MS * 2 ** attempt;
        if (waitMs <= MAX_RETRY_WAIT_MS) {
          await this.#wait(waitMs);
          continue;
        }
      }
      if (answer.status >= 200 && answer.status < 300) return answer;
      const { displayName } = this.options;
      const words = this.options.errorWords(answer.json);
      const message = unavailableStatus(answer.status)
        ? `${displayName} answered HTTP ${answer.status}${words ? ` (${words})` : ""}.`
        : `${displayName} refused the request: ${words ?? `HTTP ${answer.status}`}`;
      // A longer wait than a call waits out is the carrier's word on when to call it again.
      const retryAt = asked !== undefined && asked > MAX_RETRY_WAIT_MS ? new Date(now.getTime() + asked) : undefined;
      throw new CarrierCallError(this.options.carrierCode, message, answer.status, answer.json, retryAt);
    }
  }

  /** One exchange, the body read within the same timeout. */
  async #exchange(request: CarrierHttpRequest, authHeaders: Record<string, string>): Promise<CarrierHttpAnswer> {
    const headers: Record<string, string> = { accept: "application/json", ...authHeaders, ...request.headers };
    let body: string | undefined;
    if (request.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(request.json);
    } else if (request.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(request.form).toString();
    }
    const url = new URL(`${this.options.baseUrl}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    try {
      const response = await fetch(url, {
        method: request.method,
        headers,
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      return { status: response.status, headers: response.headers, json: parseJson(bytes), bytes };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw this.error(
        timedOut
          ? `${this.options.displayName} did not answer within ${this.options.timeoutMs} ms.`
          : `${this.options.displayName} could not be reached (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  }
}

function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}
