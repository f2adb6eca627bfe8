import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from "fastify";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { batchRoutes } from "../../../src/http/routes/batches/batches.routes.js";
import type { carrierAccountRoutes } from "../../../src/http/routes/carrier-accounts/carrier-accounts.routes.js";
import type { customerRoutes } from "../../../src/http/routes/customers/customers.routes.js";
import { CreateCustomerBody, ListCustomersQuery } from "../../../src/http/routes/customers/customers.schemas.js";
import type { eventRoutes } from "../../../src/http/routes/events/events.routes.js";
import type { fileRoutes } from "../../../src/http/routes/files/files.routes.js";
import type { meterRoutes } from "../../../src/http/routes/meter/meter.routes.js";
import type { orderShipmentRoutes } from "../../../src/http/routes/order-stores/order-shipments.routes.js";
import type { orderStoreRoutes } from "../../../src/http/routes/order-stores/order-stores.routes.js";
import type { orderRoutes } from "../../../src/http/routes/order-stores/orders.routes.js";
import type { storeWebhookRoutes } from "../../../src/http/routes/order-stores/store-webhooks.routes.js";
import type { paymentMethodRoutes } from "../../../src/http/routes/payment-methods/payment-methods.routes.js";
import type { pickupRoutes } from "../../../src/http/routes/pickups/pickups.routes.js";
import type { rateRoutes } from "../../../src/http/routes/rates/rates.routes.js";
import type { reportRoutes } from "../../../src/http/routes/reports/reports.routes.js";
import type { sandboxRoutes } from "../../../src/http/routes/sandbox/sandbox.routes.js";
import { IdParam } from "../../../src/http/routes/schemas.js";
import type { serviceRoutes } from "../../../src/http/routes/services/services.routes.js";
import type { shipmentRoutes } from "../../../src/http/routes/shipments/shipments.routes.js";
import type { shippingRoutes } from "../../../src/http/routes/shipping/shipping.routes.js";
import type { subscriptionRoutes } from "../../../src/http/routes/subscriptions/subscriptions.routes.js";
import type { trackingEventRoutes } from "../../../src/http/routes/tracking-events/tracking-events.routes.js";
import type { userRoutes } from "../../../src/http/routes/users/users.routes.js";

/**
 * These checks are made by the type checker (`npm run typecheck`); at run time the probe route
 * below only shows that the schemas it reads are the ones that validate the request.
 */

/** The type provider of the instance a route module is handed. */
type ProviderOf<Routes extends (app: never, options: never) => unknown> =
  Parameters<Routes>[0] extends FastifyInstance<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    FastifyBaseLogger,
    infer Provider
  >
    ? Provider
    : never;

/** The instance the customer routes get; every route module gets the same kind. */
type RouteApp = Parameters<typeof customerRoutes>[0];

/** A handler written as the route modules write theirs, against route schemas of the project. */
async function probeRoutes(app: RouteApp): Promise<void> {
  app.post(
    "/probe/:id",
    { schema: { params: IdParam, querystring: ListCustomersQuery, body: CreateCustomerBody } },
    async (request) => {
      expectTypeOf(request.params.id).toEqualTypeOf<number>();
      expectTypeOf(request.query.ids).toEqualTypeOf<string | undefined>();
      expectTypeOf(request.body.customer.user.email).toEqualTypeOf<string>();
      // @ts-expect-error the schema has no such field, so a handler reading it does not compile
      expectTypeOf(request.body.customer.nickname).toBeUnknown();
      return { id: request.params.id, ids: request.query.ids, name: request.body.customer.name };
    },
  );
}

describe("typed routes", () => {
  it("hand every route module an instance whose requests are typed by the route's schemas", () => {
    expectTypeOf<ProviderOf<typeof batchRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof carrierAccountRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof customerRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof eventRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof fileRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof meterRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof orderShipmentRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof orderStoreRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof orderRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof storeWebhookRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof paymentMethodRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof pickupRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof rateRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof reportRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof sandboxRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof serviceRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof shipmentRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof shippingRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof subscriptionRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof trackingEventRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
    expectTypeOf<ProviderOf<typeof userRoutes>>().toEqualTypeOf<TypeBoxTypeProvider>();
  });

  it("read a request as its schemas validated it", async () => {
    const app = Fastify();
    await app.register(probeRoutes);
    const answer = await app.inject({
      method: "POST",
      url: "/probe/7?ids=1,2",
      payload: { customer: { name: "Child", user: { email: "child@example.com" } } },
    });
    await app.close();
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ id: 7, ids: "1,2", name: "Child" });
  });
});
