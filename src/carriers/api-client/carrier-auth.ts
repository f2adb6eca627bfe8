import type { Clock } from "../../clock.js";
import type { CarrierAuth, CarrierHttpClient, CarrierHttpRequest } from "./carrier-http-client.js";

/** A token is replaced this long before the carrier says it expires, so no call carries a dying token. */
const TOKEN_RENEWAL_MARGIN_MS = 5 * 60_000;

export interface IssuedToken {
  accessToken: string;
  /** Seconds the carrier says the token lives. */
  expiresInS: number;
}

/**
 * Asks the carrier's token endpoint for a token, without the connection's own auth, in the body
 * shape the carrier wants; reads RFC 6749's `access_token` and `expires_in` (a number, or digits
 * as some carriers write it) from the answer.
 */
export async function requestToken(
  client: CarrierHttpClient,
  request: Pick<CarrierHttpRequest, "path" | "json" | "form" | "headers">,
): Promise<IssuedToken> {
  const answer = await client.send({ method: "POST", purpose: "auth", authorized: false, ...request });
  const token = answer.json as { access_token?: unknown; expires_in?: unknown } | undefined;
  const lifetimeS = Number(token?.expires_in);
  if (typeof token?.access_token !== "string" || !(lifetimeS > 0)) {
    throw client.error(`${client.displayName} answered the token request with something that is not a token.`);
  }
  return { accessToken: token.access_token, expiresInS: lifetimeS };
}

/**
 * An OAuth access token kept until shortly before it expires. However many calls want it at
 * once, one request renews it (UPS refresh tokens are single-use; every carrier counts token
 * calls against the connection).
 */
export class OAuthToken {
  #token: { value: string; renewAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly clock: Clock,
  ) {}

  async value(): Promise<string> {
    const now = this.clock.now().getTime();
    if (this.#token && now < this.#token.renewAt) return this.#token.value;
    this.#pending ??= this.#renew().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  forget(): void {
    this.#token = undefined;
  }

  async #renew(): Promise<string> {
    const issued = await this.issue();
    const lifetimeMs = issued.expiresInS * 1000;
    const margin = Math.min(TOKEN_RENEWAL_MARGIN_MS, lifetimeMs / 2);
    this.#token = { value: issued.accessToken, renewAt: this.clock.now().getTime() + lifetimeMs - margin };
    return issued.accessToken;
  }
}

/** `Authorization: Bearer <token>` from an OAuth token. */
export function bearerAuth(token: OAuthToken): CarrierAuth {
  return {
    headers: async () => ({ authorization: `Bearer ${await token.value()}` }),
    refused: () => token.forget(),
  };
}

/** HTTP basic auth (RFC 7617), as DHL Express and the UPS token call use it. */
export function basicAuthHeader(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`;
}

export function basicAuth(user: string, password: string): CarrierAuth {
  const header = { authorization: basicAuthHeader(user, password) };
  return { headers: async () => header, refused: () => undefined };
}
