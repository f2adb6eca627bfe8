import { promises as dns } from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { type Duplex, Readable } from "node:stream";
import ipaddr from "ipaddr.js";

/**
 * # The outbound guard
 *
 * Every request Porter makes to an address a user gave (webhook targets, WooCommerce sites) goes
 * through this module, so a user cannot make the server reach its own machine or network:
 *
 * - `checkOutboundTarget` when the address is given: a literal address (in any of the forms a URL
 *   parser accepts: `2130706433`, `0177.0.0.1`, `[::ffff:127.0.0.1]`) must be public, and every
 *   address a host name resolves to must be public.
 * - `guardedAgents` on every connection: a host name is resolved by the guard and only a public
 *   address is handed to the socket, and a literal address is checked before the socket opens, so
 *   a DNS answer that changed since the check reaches nothing and no TLS byte leaves before the check.
 * - `OutboundClient` makes the requests: it never follows a redirect (a 3xx is the answer).
 *
 * Public means global unicast: no loopback, unspecified (`0.0.0.0`, `::`), private (RFC 1918),
 * carrier-grade NAT, link-local (cloud metadata), unique-local, multicast or reserved address, and
 * no IPv6 form carrying an IPv4 address (mapped `::ffff:0:0/96`, compatible `::/96`, 6to4, NAT64,
 * Teredo). The operator's allow-list (`OUTBOUND_ALLOW_PRIVATE_TARGETS`) lets chosen ranges, or
 * every address, through: stand-ins, private deployments.
 */
export class OutboundRefused extends Error {
  readonly code = "EOUTBOUNDREFUSED";
}

/** Which non-public addresses are let through: every one (true), none (false), or those in the listed ranges. */
export type PrivateTargetAllowance = boolean | readonly string[];

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/** A range or a single address of the allow-list; throws on anything else. */
export function parseAllowedRange(text: string): Range {
  if (text.includes("/")) return ipaddr.parseCIDR(text);
  const address = ipaddr.parse(text);
  return [address, address.kind() === "ipv4" ? 32 : 128];
}

/** IPv6 text ending in a dotted IPv4 address other than the mapped form, which ipaddr.js reads as mapped. */
const COMPATIBLE_V6 = /^(?!::ffff:)[0-9a-f:]*:\d+\.\d+\.\d+\.\d+$/i;

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address) || COMPATIBLE_V6.test(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== "unicast") return false;
  return parsed.kind() === "ipv4" || parsed.match(GLOBAL_UNICAST_V6);
}

export class OutboundPolicy {
  readonly #all: boolean;
  readonly #ranges: Range[];

  constructor(allowance: PrivateTargetAllowance) {
    this.#all = allowance === true;
    this.#ranges = Array.isArray(allowance) ? allowance.map(parseAllowedRange) : [];
  }

  /** Whether the operator lets some private target through (development, stand-ins, private networks). */
  get allowsPrivate(): boolean {
    return this.#all || this.#ranges.length > 0;
  }

  permits(address: string): boolean {
    if (isPublicAddress(address)) return true;
    if (!ipaddr.isValid(address)) return false;
    if (this.#all) return true;
    const parsed = ipaddr.process(address);
    return this.#ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  }
}

/** A URL's host as a resolver sees it: no brackets, no trailing dot, lower case. */
function normalHost(hostname: string): string {
  return hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "")
    .toLowerCase();
}

function isLocalName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

/** A refusal for a host that is an address, or a name every resolver answers locally; undefined otherwise. */
function literalRefusal(host: string, policy: OutboundPolicy): OutboundRefused | undefined {
  if (net.isIP(host) || ipaddr.isValid(host)) {
    return policy.permits(host) ? undefined : new OutboundRefused(`${host} is a private or reserved address`);
  }
  if (isLocalName(host) && !policy.permits("127.0.0.1")) return new OutboundRefused(`${host} is this machine`);
  return undefined;
}

/**
 * Checks an address a user gives: http(s), and its host public (resolved now). A host that does
 * not resolve now is accepted: every connection checks again, address by address.
 */
export async function checkOutboundTarget(url: URL, policy: OutboundPolicy): Promise<void> {
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new OutboundRefused("the address must be http(s)");
  const host = normalHost(url.hostname);
  const refusal = literalRefusal(host, policy);
  if (refusal) throw refusal;
  if (net.isIP(host)) return;
  let addresses: { address: string }[];
  try {
    addresses = await dns.lookup(host, { all: true, verbatim: true });
  } catch {
    return;
  }
  const blocked = addresses.find((a) => !policy.permits(a.address));
  if (blocked) throw new OutboundRefused(`${host} resolves to a private or reserved address (${blocked.address})`);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets that resolves the host and only hands out permitted addresses, so the
 * address checked is the address connected to.
 */
export function guardedLookup(policy: OutboundPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dns.lookup(hostname, { all: true, verbatim: true }).then(
      (addresses) => {
        const usable = addresses.filter((a) => policy.permits(a.address));
        const chosen = usable[0];
        if (!chosen) {
          callback(
            new OutboundRefused(
              `${hostname} resolves only to private or reserved addresses (${addresses.map((a) => a.address).join(", ")})`,
            ),
            "",
            0,
          );
          return;
        }
        // Node's connection racing (autoSelectFamily) asks for every address at once.
        if (options.all) callback(null, usable);
        else callback(null, chosen.address, chosen.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

type ConnectionCallback = (error: Error | null, stream: Duplex) => void;

/**
 * How long a kept-alive socket may sit idle before the guard's agents close it: under the 5 s
 * keep-alive timeout of Node's HTTP server (and the longer ones of nginx and Apache), so a receiver
 * that does not announce its timeout does not close the socket as the next request is written.
 */
export const IDLE_SOCKET_MS = 4_000;

/**
 * HTTP and HTTPS agents whose every connection passes the guard: names through the guarded lookup
 * (Node does not call a lookup for an address), addresses checked here before the socket opens.
 * Kept-alive sockets close after `IDLE_SOCKET_MS` idle unless the options give another `timeout`.
 */
export function guardedAgents(policy: OutboundPolicy, agentOptions: http.AgentOptions = {}) {
  const options = agentOptions.keepAlive ? { timeout: IDLE_SOCKET_MS, ...agentOptions } : agentOptions;
  const lookup = guardedLookup(policy) as never;
  const refuse = (host: string | null | undefined, callback: ConnectionCallback | undefined): boolean => {
    const refusal = literalRefusal(normalHost(host ?? ""), policy);
    if (refusal) callback?.(refusal, undefined as never);
    return refusal !== undefined;
  };
  class GuardedHttpAgent extends http.Agent {
    override createConnection(connection: http.ClientRequestArgs, callback?: ConnectionCallback) {
      return refuse(connection.host, callback) ? undefined : super.createConnection(connection, callback);
    }
  }
  class GuardedHttpsAgent extends https.Agent {
    override createConnection(connection: https.RequestOptions, callback?: ConnectionCallback) {
      return refuse(connection.host, callback) ? undefined : super.createConnection(connection, callback);
    }
  }
  return {
    http: new GuardedHttpAgent({ ...options, lookup }),
    https: new GuardedHttpsAgent({ ...options, lookup }),
  };
}

export interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/**
 * Requests to user-given addresses over the guarded agents, answered as a fetch `Response`. A
 * redirect is never followed: the 3xx is the answer, so a public address cannot bounce the
 * request to a private one.
 */
export class OutboundClient {
  readonly #agents;

  constructor(policy: OutboundPolicy, options: http.AgentOptions = {}) {
    this.#agents = guardedAgents(policy, options);
  }

  request(url: URL, init: OutboundRequest): Promise<Response> {
    return new Promise((resolve, reject) => {
      if (url.protocol !== "https:" && url.protocol !== "http:") {
        reject(new OutboundRefused("the address must be http(s)"));
        return;
      }
      const secure = url.protocol === "https:";
      const request = (secure ? https : http).request(url, {
        method: init.method,
        headers:
          init.body === undefined
            ? init.headers
            : { ...init.headers, "content-length": String(Buffer.byteLength(init.body)) },
        agent: secure ? this.#agents.https : this.#agents.http,
        signal: init.signal,
      });
      request.on("error", reject);
      request.on("response", (response) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const one of [value ?? []].flat()) headers.append(name, one);
        }
        const status = response.statusCode ?? 0;
        const empty = init.method === "HEAD" || status === 204 || status === 304;
        try {
          resolve(
            new Response(empty ? null : (Readable.toWeb(response) as ReadableStream), {
              status,
              statusText: response.statusMessage ?? "",
              headers,
            }),
          );
        } catch (error) {
          // A status outside 200-599 cannot be a Response: the answer is unreadable.
          response.destroy();
          reject(error);
        }
      });
      request.end(init.body);
    });
  }

  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }
}
