import { type Static, Type } from "typebox";

const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const SubscriptionType = Type.Union([Type.Literal("shipment_tracking"), Type.Literal("payment_status")]);
/** eHub's prose spells them in capitals too. */
const AuthType = Type.String({ pattern: "^(hmac|HMAC|http_basic|HTTP_BASIC)$" });

const writableFields = {
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  payload_format: Type.Literal("json"),
  auth_type: AuthType,
  hmac_shared_secret: Type.String({
    pattern: "^[\\x21-\\x7e]{16,256}$",
    description: "16 to 256 printable ASCII characters; `whsec_` + base64 is read as Standard Webhooks reads it",
  }),
  http_username: Type.String({ minLength: 1, maxLength: 200, pattern: "^[^:]*$" }),
  http_password: Type.String({ maxLength: 200 }),
};

export const CreateSubscriptionBody = Type.Object({
  subscription_type: SubscriptionType,
  status: Type.Optional(Type.Literal("active")),
  url: writableFields.url,
  payload_format: Type.Optional(writableFields.payload_format),
  auth_type: Type.Optional(writableFields.auth_type),
  hmac_shared_secret: Type.Optional(writableFields.hmac_shared_secret),
  http_username: Type.Optional(writableFields.http_username),
  http_password: Type.Optional(writableFields.http_password),
});

export const UpdateSubscriptionBody = Type.Object({
  subscription_type: Type.Optional(SubscriptionType),
  status: Type.Optional(Type.Union([Type.Literal("active"), Type.Literal("error_disabled")])),
  url: Type.Optional(writableFields.url),
  payload_format: Type.Optional(writableFields.payload_format),
  auth_type: Type.Optional(writableFields.auth_type),
  hmac_shared_secret: Type.Optional(writableFields.hmac_shared_secret),
  http_username: Type.Optional(writableFields.http_username),
  http_password: Type.Optional(writableFields.http_password),
  rewind_to_date: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
});
export type UpdateSubscriptionBody = Static<typeof UpdateSubscriptionBody>;

export const ListSubscriptionsQuery = Type.Object({
  subscription_type: Type.Optional(SubscriptionType),
  status: Type.Optional(
    Type.Union([Type.Literal("active"), Type.Literal("error_disabled"), Type.Literal("all")], {
      description: "`all` (or no status) lists every status",
    }),
  ),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const Subscription = Type.Object(
  {
    id: Type.Integer(),
    subscription_type: SubscriptionType,
    status: Type.Union([Type.Literal("active"), Type.Literal("error_disabled")]),
    url: Type.String(),
    payload_format: Type.Literal("json"),
    auth_type: Type.Union([Type.Literal("hmac"), Type.Literal("http_basic")]),
    hmac_shared_secret: nullable(
      Type.String({ description: "In full only in the answer of the request that set it; masked after" }),
    ),
    last_pushed_at: nullable(Type.String()),
    last_pushed_id: nullable(Type.Integer()),
    error_count: Type.Integer(),
    last_response_code: nullable(Type.Integer()),
    last_response_message: nullable(Type.String()),
  },
  { $id: "Subscription" },
);

export const Delivery = Type.Object(
  {
    id: Type.Integer(),
    subscription_id: Type.Integer(),
    request_id: Type.String({ description: "The `webhook-id` header: the same for every attempt of one message" }),
    trigger: Type.Union([Type.Literal("stream"), Type.Literal("manual_retry")]),
    status: Type.Union([Type.Literal("pending"), Type.Literal("succeeded"), Type.Literal("failed")]),
    event_count: Type.Integer(),
    first_event_id: Type.Integer(),
    last_event_id: Type.Integer(),
    response_code: nullable(Type.Integer()),
    response_excerpt: nullable(Type.String()),
    error_message: nullable(Type.String()),
    latency_ms: nullable(Type.Integer()),
    created_at: Type.String(),
    completed_at: nullable(Type.String()),
  },
  { $id: "WebhookDelivery" },
);

export const DeliveryParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  delivery_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});
