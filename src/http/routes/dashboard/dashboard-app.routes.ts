import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { Type } from "typebox";
import { DomainError } from "../../../domain/errors.js";

/** Where `npm run build` puts the dashboard's bundle (dashboard/vite.config.ts); the same from src/ and dist/. */
export const DASHBOARD_BUNDLE = fileURLToPath(new URL("../../../../dashboard/dist/", import.meta.url));

/**
 * Nothing but this origin's own files: no inline script or style, no other site's fonts or
 * scripts, no framing of the dashboard. Label files (`/files/…`) are this origin's too.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

const secured = (reply: FastifyReply) =>
  reply
    .header("content-security-policy", DASHBOARD_CSP)
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer");

const notFound = () => new DomainError("route.not_found", "No route has this path.");

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/**
 * A file of the bundle; 404 for a name it lacks, 503 when there is no bundle at all. Any other
 * failure to read (permissions, the disk) goes on as the fault it is, logged with the request.
 */
async function bundleFile(name: string): Promise<Buffer> {
  try {
    return await fs.readFile(path.join(DASHBOARD_BUNDLE, name));
  } catch (error) {
    if (!missing(error)) throw error;
  }
  const built = await fs.access(path.join(DASHBOARD_BUNDLE, "index.html")).then(
    () => true,
    (error: unknown) => {
      if (missing(error)) return false;
      throw error;
    },
  );
  if (built) throw notFound();
  throw new DomainError("errors.unavailable", "The dashboard is not built: run `npm run build`.", 60);
}

/**
 * The dashboard's page and its bundle, at /dashboard, without a key: what it shows comes from the
 * API, with the session cookie (docs/dashboard.md). Pages are in the URL's fragment, so the page
 * is one document.
 */
export const dashboardAppRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get("/dashboard", { schema: { hide: true } }, async (_request, reply) =>
    secured(reply)
      .header("content-type", "text/html; charset=utf-8")
      .header("cache-control", "no-cache")
      .send(await bundleFile("index.html")),
  );
  app.get(
    "/dashboard/assets/:file",
    { schema: { hide: true, params: Type.Object({ file: Type.String({ pattern: "^[\\w.-]{1,100}$" }) }) } },
    async (request, reply) => {
      const { file } = request.params;
      const type = TYPES[path.extname(file)];
      if (!type || file.startsWith(".")) throw notFound();
      // Names carry a hash of their content: a new build makes new names.
      return secured(reply)
        .header("content-type", type)
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(await bundleFile(path.join("assets", file)));
    },
  );
};
