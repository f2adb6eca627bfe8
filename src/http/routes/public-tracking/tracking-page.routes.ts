import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { setTrackingPageLogo, trackingPageSettings } from "../../../domain/tracking/public-tracking.js";
import { errorResponses } from "../schemas.js";

/** An https URL only: the page's Content-Security-Policy allows images from the logo's origin alone. */
const LogoUrl = Type.Union([Type.String({ maxLength: 500, pattern: "^https://[^\\s\"'<>]+$" }), Type.Null()]);
const TrackingPageOut = Type.Object({ tracking_page: Type.Object({ logo_url: LogoUrl }) });

/** The account's public tracking page settings: its logo (Primary or Owner users). */
export const trackingPageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/account/tracking_page",
    {
      config: { permission: "administration" },
      schema: {
        tags: ["Tracking"],
        summary: "The logo the account's public tracking pages show (Primary or Owner)",
        response: { 200: TrackingPageOut, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const settings = await trackingPageSettings(app.services, request.caller.accountId);
      return { tracking_page: { logo_url: settings.logoUrl } };
    },
  );

  app.put(
    "/account/tracking_page",
    {
      config: { permission: "administration" },
      schema: {
        tags: ["Tracking"],
        summary: "Set (or, with null, remove) the logo of the account's public tracking pages (Primary or Owner)",
        body: Type.Object({ tracking_page: Type.Object({ logo_url: LogoUrl }) }),
        response: { 200: TrackingPageOut, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { logoUrl } = await setTrackingPageLogo(
        app.services,
        request.caller.accountId,
        request.body.tracking_page.logo_url,
      );
      return { tracking_page: { logo_url: logoUrl } };
    },
  );
};
