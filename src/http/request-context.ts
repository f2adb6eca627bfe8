import type { AppServices } from "../app-services.js";
import type { KeyHolder } from "../domain/accounts/accounts.repository.js";
import type { AccountScope } from "../domain/services.js";

declare module "fastify" {
  interface FastifyInstance {
    services: AppServices;
  }
  interface FastifyRequest {
    /** The key holder who sent the request (set by the auth plugin on /api/v2 routes). */
    caller: KeyHolder;
    /** The account and mode the request acts in: the caller's own, or its child's. */
    scope: AccountScope;
  }
}
