import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import pino from "pino";
import qs from "qs";
import type { AppServices } from "../app-services.js";
import { accessLogWriter } from "./access-log.js";
import { registerDocsUi } from "./docs-ui.js";
import { lazyCompilers } from "./lazy-compilers.js";
import { LogDestination } from "./log-destination.js";
import { documentRoute } from "./openapi/reference.js";
import { registerAccountRoutes, registerAccountScopedRoutes } from "./plugins/account-scope.js";
import { newKeyHolderCache, registerAuth } from "./plugins/auth.js";
import { registerAuthorization } from "./plugins/authorization.js";
import { registerBodyParsers } from "./plugins/body-parsers.js";
import { registerErrorHandling } from "./plugins/errors.js";
import { finiteNumbersAjvPlugin, registerFiniteNumbers } from "./plugins/finite-numbers.js";
import { answerClientError, answerFrameworkError } from "./plugins/framework-errors.js";
import { registerIdempotency } from "./plugins/idempotency.js";
import { KeyConcurrencyLimit } from "./plugins/key-concurrency.js";
import { registerObservability } from "./plugins/observability.js";
import { HttpLogger } from "./request-logger.js";
import { batchRoutes } from "./routes/batches/batches.routes.js";
import { carrierAccountRoutes } from "./routes/carrier-accounts/carrier-accounts.routes.js";
import { customerRoutes } from "./routes/customers/customers.routes.js";
import { dashboardAppRoutes } from "./routes/dashboard/dashboard-app.routes.js";
import { dashboardSessionRoutes } from "./routes/dashboard/session.routes.js";
import { eventRoutes } from "./routes/events/events.routes.js";
import { fileRoutes } from "./routes/files/files.routes.js";
import { healthRoutes } from "./routes/health/health.routes.js";
import { meterRoutes } from "./routes/meter/meter.routes.js";
import { orderShipmentRoutes } from "./routes/order-stores/order-shipments.routes.js";
import { orderStoreRoutes } from "./routes/order-stores/order-stores.routes.js";
import { orderRoutes } from "./routes/order-stores/orders.routes.js";
import { storeWebhookRoutes } from "./routes/order-stores/store-webhooks.routes.js";
import { paymentMethodRoutes } from "./routes/payment-methods/payment-methods.routes.js";
import { pickupRoutes } from "./routes/pickups/pickups.routes.js";
import { publicTrackingRoutes } from "./routes/public-tracking/public-tracking.routes.js";
import { trackingPageRoutes } from "./routes/public-tracking/tracking-page.routes.js";
import { rateRoutes } from "./routes/rates/rates.routes.js";
import { reportRoutes } from "./routes/reports/reports.routes.js";
import { sandboxRoutes } from "./routes/sandbox/sandbox.routes.js";
import { ErrorBodySchema } from "./routes/schemas.js";
import { serviceRoutes } from "./routes/services/services.routes.js";
import { shipmentRoutes } from "./routes/shipments/shipments.routes.js";
import { shippingRoutes } from "./routes/shipping/shipping.routes.js";
import { statusRoutes } from "./routes/status/status.routes.js";
import { subscriptionRoutes } from "./routes/subscriptions/subscriptions.routes.js";
import { pingRoutes } from "./routes/test/ping.routes.js";
import { trackingEventRoutes } from "./routes/tracking-events/tracking-events.routes.js";
import { userRoutes } from "./routes/users/users.routes.js";
import { User } from "./routes/users/users.schemas.js";
import { AddressOut } from "./routes/wire/address.js";
import { Customer } from "./routes/wire/customer.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Writes out the log lines still buffered; for what is logged after the server closed. */
    flushLogs(): void;
    /** Compiles every route schema not yet used (they compile on first use); tests prove they all do. */
    compileSchemas(): void;
  }
}

export interface BuildServerOptions {
  /** pino options, or false for no logs (tests). */
  logger?: boolean | { level: string };
  /** Extra routes a caller (tests, the benchmark) mounts inside the authenticated API scope. */
  extraApiRoutes?: (api: FastifyInstance) => Promise<void>;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const QUERY_LIMITS = { arrayLimit: 1000, depth: 5, parameterLimit: 2000 };

/** Builds the whole HTTP application without listening, so tests and the CLI share it. */
export async function buildServer(services: AppServices, options: BuildServerOptions = {}): Promise<FastifyInstance> {
  // Log lines are buffered and written in batches (and at least every second): a write per
  // request would cost more than the request itself. Writes stay on this thread; handing them
  // to libuv's thread pool costs more CPU than it saves on a small machine.
  const logStream = options.logger === false ? undefined : new LogDestination(1);
  const compilers = lazyCompilers();
  const app = Fastify({
    schemaController: { compilersFactory: compilers.compilersFactory },
    loggerInstance: (logStream && new HttpLogger(pino({ level: services.config.logLevel }, logStream))) as
      | FastifyBaseLogger
      | undefined,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: services.config.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: (req: IncomingMessage) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // qs reads `tracking_number[]=…`, repeated keys and nested brackets alike.
    routerOptions: {
      ignoreTrailingSlash: true,
      querystringParser: (query: string) => (query === "" ? {} : qs.parse(query, QUERY_LIMITS)),
    },
    ajv: {
      // Union types: money is a number or a decimal string (src/http/routes/money-input.ts).
      customOptions: { coerceTypes: "array", removeAdditional: true, useDefaults: true, allowUnionTypes: true },
      plugins: [finiteNumbersAjvPlugin],
    },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  app.decorate("services", services);
  app.decorate("flushLogs", () => logStream?.flush());
  app.decorate("compileSchemas", compilers.compileAll);
  if (logStream) {
    // Quiet servers still show their lines within a second.
    const flusher = setInterval(() => logStream.flush(), 1000).unref();
    app.addHook("onClose", async () => {
      clearInterval(flusher);
      logStream.flushSync();
    });
  }
  app.decorate("keyHolders", newKeyHolderCache());

  registerErrorHandling(app);
  registerFiniteNumbers(app);
  registerBodyParsers(app);
  const observe = registerObservability(
    app,
    logStream && pino.levels.values[services.config.logLevel]! <= pino.levels.values.info!
      ? accessLogWriter(logStream)
      : undefined,
  );
  const keyLimit = new KeyConcurrencyLimit(services.config.keyConcurrencyLimit);
  keyLimit.register(app);
  // Everything done once a request has been answered, in one hook: Fastify's machinery costs every
  // request something per hook (0.3–0.5 µs on a bare server).
  app.addHook("onResponse", (request, reply, done) => {
    keyLimit.release(request, reply);
    observe(request, reply);
    done();
  });
  for (const schema of [ErrorBodySchema, AddressOut, Customer, User]) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Porter API",
        version: "2.0.0",
        description:
          "Shipping and order fulfillment API, wire-compatible with eHub api/v2. Authenticate with `Authorization: Bearer <API key>`.",
      },
      components: {
        securitySchemes: {
          apiKey: { type: "http", scheme: "bearer" },
          // The dashboard's session (docs/dashboard.md); its changes also need `X-CSRF-Token`.
          dashboardSession: { type: "apiKey", in: "cookie", name: "porter_session" },
        },
      },
      security: [{ apiKey: [] }],
    },
    // What the document adds to the route schemas (descriptions, examples, statuses), never what validates.
    transform: documentRoute as never,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === "string" ? json.$id : `def-${i}`),
    },
  });
  await registerDocsUi(app);
  app.get("/api/v2/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes);
  await app.register(fileRoutes);
  await app.register(publicTrackingRoutes);
  await app.register(storeWebhookRoutes);
  await app.register(dashboardSessionRoutes);
  await app.register(dashboardAppRoutes);

  await app.register(async (api) => {
    registerAuth(api, keyLimit.admit);
    registerAuthorization(api);
    registerIdempotency(api);
    await registerAccountRoutes(api, pingRoutes);
    await registerAccountRoutes(api, customerRoutes);
    await registerAccountRoutes(api, userRoutes);
    await registerAccountRoutes(api, trackingPageRoutes);
    await registerAccountRoutes(api, serviceRoutes);
    await registerAccountRoutes(api, statusRoutes);
    await registerAccountRoutes(api, pickupRoutes);
    await registerAccountRoutes(api, paymentMethodRoutes);
    await registerAccountRoutes(api, meterRoutes);
    await registerAccountRoutes(api, reportRoutes);
    await registerAccountScopedRoutes(api, rateRoutes);
    await registerAccountScopedRoutes(api, shippingRoutes);
    await registerAccountScopedRoutes(api, carrierAccountRoutes);
    await registerAccountScopedRoutes(api, shipmentRoutes);
    await registerAccountScopedRoutes(api, batchRoutes);
    await registerAccountScopedRoutes(api, subscriptionRoutes);
    await registerAccountScopedRoutes(api, eventRoutes);
    await registerAccountScopedRoutes(api, trackingEventRoutes);
    await registerAccountScopedRoutes(api, sandboxRoutes);
    await registerAccountScopedRoutes(api, orderStoreRoutes);
    await registerAccountScopedRoutes(api, orderRoutes);
    await registerAccountScopedRoutes(api, orderShipmentRoutes);
    if (options.extraApiRoutes) await options.extraApiRoutes(api);
  });

  return app;
}
