import { createHash } from "node:crypto";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { findPublicTracking } from "../../../domain/tracking/public-tracking.js";
import { errorBody } from "../../errors.js";
import { chooseMessages } from "./messages/index.js";
import { publicTrackingHtml, publicTrackingView } from "./public-tracking.presenter.js";

/**
 * Nothing but the document itself: no script, style, frame or form may load or run, and no image
 * but the account's logo, from its own origin only.
 */
function contentSecurityPolicy(logoUrl: string | null): string {
  const images = logoUrl ? `; img-src ${new URL(logoUrl).origin}` : "";
  return `default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'${images}`;
}

/** Whether the caller asked for JSON rather than the page (`Accept: application/json`). */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const json = accept.indexOf("application/json");
  const html = accept.indexOf("text/html");
  return json >= 0 && (html < 0 || json < html);
}

/** A strong validator of one answer: each language and each form has its own. */
function entityTag(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Whether `If-None-Match` names `tag` (a weak comparison, as RFC 9110 asks for GET). */
function stillFresh(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((listed) => {
    const candidate = listed.trim();
    return candidate === "*" || candidate.replace(/^W\//, "") === tag;
  });
}

/**
 * A shipment's public tracking page, `/track/{token}`: no key, the unguessable token is the
 * capability (like a label's file URL). The page for people, in their language (`Accept-Language`,
 * or `?lang=`); the same facts as JSON for code. Cached briefly by anyone: tracking moves in
 * minutes, and a shared link is opened many times; `Vary` keeps each form and language apart, and
 * the ETag lets a cache revalidate without the page being sent again.
 */
export const publicTrackingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/track/:token",
    {
      schema: {
        hide: true,
        params: Type.Object({ token: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object({ lang: Type.Optional(Type.String({ maxLength: 35 })) }),
      },
    },
    async (request, reply) => {
      const found = await findPublicTracking(app.services, request.params.token);
      reply
        .header("vary", "Accept, Accept-Language")
        .header("x-content-type-options", "nosniff")
        .header("referrer-policy", "no-referrer");
      if (!found) {
        return reply
          .code(404)
          .header("cache-control", "no-store")
          .send(errorBody("tracking_page.not_found", "No tracking page has this address."));
      }
      const view = publicTrackingView(found);
      reply.header("cache-control", "public, max-age=60");
      let body: string;
      if (wantsJson(request.headers.accept)) {
        body = JSON.stringify(view);
        reply.header("content-type", "application/json; charset=utf-8");
      } else {
        const words = chooseMessages({ lang: request.query.lang, acceptLanguage: request.headers["accept-language"] });
        body = publicTrackingHtml(view, words);
        reply
          .header("content-type", "text/html; charset=utf-8")
          .header("content-language", words.language)
          .header("content-security-policy", contentSecurityPolicy(view.account.logo_url));
      }
      const tag = entityTag(body);
      reply.header("etag", tag);
      if (stillFresh(request.headers["if-none-match"], tag)) return reply.code(304).send();
      return reply.send(body);
    },
  );
};
