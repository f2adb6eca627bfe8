import { promises as dns } from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Where webhooks may go. Unless the operator allows private targets, a URL must be HTTPS and
 * every address its host resolves to must be public unicast: no loopback, private (RFC 1918,
 * unique-local), link-local (cloud metadata), carrier-grade NAT, multicast or reserved address,
 * so a subscription cannot make the server probe its own network.
 */
export class TargetRefused extends Error {}

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

export interface TargetPolicy {
  allowPrivate: boolean;
}

/** The URL's form: http(s), no credentials in it, HTTPS unless private targets are allowed. */
export function checkTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("url must be an absolute http(s) URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TargetRefused("url must use HTTPS");
  if (url.protocol === "http:" && !policy.allowPrivate) throw new TargetRefused("url must use HTTPS");
  if (url.username || url.password) throw new TargetRefused("url must not carry credentials; use http_basic");
  return url;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Resolves the URL's host and refuses it when an address is not public. A host that does not
 * resolve now is accepted: delivery checks again, address by address.
 */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  const url = checkTargetUrl(raw, policy);
  if (policy.allowPrivate) return url;
  const host = hostOf(url);
  if (net.isIP(host)) {
    if (!isPublicAddress(host)) throw new TargetRefused(`url points at a private or reserved address (${host})`);
    return url;
  }
  if (host === "localhost" || host.endsWith(".localhost")) throw new TargetRefused("url points at this machine");
  let addresses: { address: string }[];
  try {
    addresses = await dns.lookup(host, { all: true, verbatim: true });
  } catch {
    return url;
  }
  const blocked = addresses.find((a) => !isPublicAddress(a.address));
  if (blocked) throw new TargetRefused(`url's host resolves to a private or reserved address (${blocked.address})`);
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for the HTTP client that resolves the host and only hands out a public address, so
 * the address checked is the address connected to (a DNS answer that changes between the check
 * and the connection cannot slip a private address in).
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dns.lookup(hostname, { all: true, verbatim: true }).then(
      (addresses) => {
        const usable = policy.allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
        const chosen = usable[0];
        if (!chosen) {
          const error: NodeJS.ErrnoException = new TargetRefused(
            `${hostname} resolves only to private or reserved addresses (${addresses.map((a) => a.address).join(", ")})`,
          );
          error.code = "ETARGETREFUSED";
          callback(error, "", 0);
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
