import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { getMeter, type MeterView } from "../../../domain/meter/get-meter.js";
import { refillMeter } from "../../../domain/meter/refill-meter.js";
import { invalidRefillSettings, setRefillSettings } from "../../../domain/meter/refill-settings.js";
import { MAX_INTEGER } from "../../plugins/finite-numbers.js";
import { centsOfMoney, MoneyIn, NullableMoneyIn, REFILL_SETTING, settingCents } from "../money-input.js";
import { dollars } from "../rates/rates.presenter.js";
import { errorResponses } from "../schemas.js";

const Money = (description: string) => Type.Number({ description: `${description}, in dollars (from integer cents)` });

const MeterOut = Type.Object(
  {
    currency: Type.Literal("USD"),
    balance: Money("What labels may be bought with: every posted ledger entry"),
    pending_refunds: Money("Refunds still held by the carrier (USPS: 30 days)"),
    pending_refund_count: Type.Integer(),
    refill_trigger_balance: Type.Union([Money("Automatic refill starts below this balance"), Type.Null()]),
    refill_amount: Type.Union([Money("What an automatic refill charges the default method"), Type.Null()]),
  },
  { $id: "Meter" },
);

// Both settings are read together; one alone is left to the domain's check, which says the pair
// is needed (422 meter.invalid_settings) instead of a bare "is required".
const MeterSettingsBody = Type.Object({
  meter: Type.Object({
    refill_trigger_balance: Type.Optional(
      NullableMoneyIn({
        ...REFILL_SETTING,
        description: "Dollars; null (with refill_amount null) turns automatic refill off. Sent with refill_amount.",
      }),
    ),
    refill_amount: Type.Optional(
      NullableMoneyIn({
        ...REFILL_SETTING,
        description: "Dollars, 1.00 to 10,000.00. Sent with refill_trigger_balance.",
      }),
    ),
  }),
});

const REFILL_AMOUNT = { minimum: 1, maximum: 10_000 };

const RefillBody = Type.Object({
  amount: MoneyIn({ ...REFILL_AMOUNT, description: "Dollars, whole cents: a number or a decimal string" }),
  payment_method_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_INTEGER, description: "Charged instead of the default method" }),
  ),
});

const RefillOut = Type.Object({
  id: Type.Integer(),
  payment_transaction_id: Type.Integer(),
  amount: Type.Number(),
  payment_method_id: Type.Integer(),
  gateway_reference: Type.String(),
  description: Type.String(),
  created_at: Type.String(),
});

const dollarsOrNull = (cents: number | null) => (cents === null ? null : dollars(cents));

function presentMeter({ totals, settings }: MeterView) {
  return {
    currency: "USD" as const,
    balance: dollars(totals.balanceCents),
    pending_refunds: dollars(totals.pendingRefundCents),
    pending_refund_count: totals.pendingRefundCount,
    refill_trigger_balance: dollarsOrNull(settings.triggerCents),
    refill_amount: dollarsOrNull(settings.amountCents),
  };
}

/** The postage meter (beyond eHub): the balance labels are paid from, and refills. */
export const meterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(MeterOut);

  app.get(
    "/meter",
    {
      config: { permission: "shipping" },
      schema: {
        tags: ["Meter"],
        summary: "The postage balance and pending refunds (beyond eHub)",
        response: { 200: Type.Object({ meter: Type.Ref("Meter") }), ...errorResponses(401) },
      },
    },
    async (request) => ({ meter: presentMeter(await getMeter(app.services, request.scope)) }),
  );

  app.put(
    "/meter",
    {
      config: { permission: "billing" },
      schema: {
        tags: ["Meter"],
        summary: "Set automatic refill: the trigger balance and the amount charged (beyond eHub)",
        body: MeterSettingsBody,
        response: { 200: Type.Object({ meter: Type.Ref("Meter") }), ...errorResponses(400, 401, 409, 422) },
      },
    },
    async (request) => {
      const { meter } = request.body;
      // An empty settings object is a mistake, not a request to turn automatic refill off.
      if (meter.refill_trigger_balance === undefined && meter.refill_amount === undefined) {
        throw invalidRefillSettings();
      }
      await setRefillSettings(app.services, request.scope, {
        triggerCents: settingCents("refill_trigger_balance", meter.refill_trigger_balance),
        amountCents: settingCents("refill_amount", meter.refill_amount),
      });
      return { meter: presentMeter(await getMeter(app.services, request.scope)) };
    },
  );

  app.post(
    "/meter/refill",
    {
      config: { permission: "billing" },
      schema: {
        tags: ["Meter"],
        summary: "Charge a payment method and add the amount to the balance (beyond eHub)",
        body: RefillBody,
        response: {
          201: Type.Object({ refill: RefillOut, meter: Type.Ref("Meter") }),
          ...errorResponses(400, 401, 402, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const entry = await refillMeter(app.services, request.scope, {
        amountCents: centsOfMoney("amount", body.amount, REFILL_AMOUNT),
        paymentMethodId: body.payment_method_id,
      });
      return reply.code(201).send({
        // A refill entry is always written with the charge that paid it (see chargeRefill).
        refill: {
          id: entry.id,
          payment_transaction_id: entry.payment_transaction_id!,
          amount: dollars(entry.amount_cents),
          payment_method_id: entry.payment_method_id!,
          gateway_reference: entry.gateway_reference!,
          description: entry.description,
          created_at: entry.created_at,
        },
        meter: presentMeter(await getMeter(app.services, request.scope)),
      });
    },
  );
};
