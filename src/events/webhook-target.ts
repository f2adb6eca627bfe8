import { checkOutboundTarget, type OutboundPolicy, OutboundRefused } from "../net/outbound-guard.js";

/**
 * Where webhooks may go: an http(s) URL without credentials in it, HTTPS unless the operator lets
 * private targets through, whose host passes the outbound guard.
 */
export class TargetRefused extends Error {}

/** The URL's form: http(s), no credentials in it, HTTPS unless private targets are allowed. */
function checkTargetUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("url must be an absolute http(s) URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TargetRefused("url must use HTTPS");
  if (url.protocol === "http:" && !policy.allowsPrivate) throw new TargetRefused("url must use HTTPS");
  if (url.username || url.password) throw new TargetRefused("url must not carry credentials; use http_basic");
  return url;
}

/** The URL's form, then its host through the outbound guard (resolved now; delivery checks again). */
export async function checkTarget(raw: string, policy: OutboundPolicy): Promise<URL> {
  const url = checkTargetUrl(raw, policy);
  try {
    await checkOutboundTarget(url, policy);
  } catch (error) {
    if (error instanceof OutboundRefused)
      throw new TargetRefused(`url points at a private or reserved address: ${error.message}`);
    throw error;
  }
  return url;
}
