import type { FastifyReply, FastifyRequest } from "fastify";

/** The dashboard's session cookie; its value is the session's secret (stored only hashed). */
export const SESSION_COOKIE = "porter_session";

/** The session cookie's value from the `Cookie` header, if it carries one. */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === SESSION_COOKIE) {
      const value = pair.slice(at + 1).trim();
      // Session secrets are base64url; anything else is no session of ours.
      return /^[\w-]{1,128}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/**
 * `HttpOnly` (no script reads it), `Secure` (https only; browsers treat localhost as secure),
 * `SameSite=Strict` (no other site's page sends it), for the whole origin: the dashboard calls
 * `/api/v2` with it.
 */
export function setSessionCookie(reply: FastifyReply, secret: string, maxAgeSeconds: number): void {
  reply.header(
    "set-cookie",
    `${SESSION_COOKIE}=${secret}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; Secure; SameSite=Strict`,
  );
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.header("set-cookie", `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict`);
}
