import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookDispatcher } from "../../src/app.js";
import type { WebhookDispatcher } from "../../src/events/webhook-dispatcher.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX } from "../helpers/shipments.js";
import { WebhookReceiver } from "../helpers/webhook-receiver.js";

/** What an integrator does: subscribe a receiver, buy a label, advance it, and watch the events arrive. */
describe("a sandbox shipment's tracking reaches a subscribed receiver", () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let dispatcher: WebhookDispatcher;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp({ config: { outboundAllowPrivateTargets: true } });
    dispatcher = createWebhookDispatcher(t.services);
    receiver = new WebhookReceiver();
    await receiver.listen();
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
  });
  afterAll(async () => {
    await dispatcher.stop();
    await receiver.close();
    await t.close();
  });

  it("delivers each event of the journey once, in order, signed, as eHub's payload", async () => {
    const subscribed = await t.app.inject({
      method: "POST",
      url: "/api/v2/subscriptions",
      headers: merchant.auth,
      payload: { subscription_type: "shipment_tracking", url: receiver.url, auth_type: "hmac" },
    });
    expect(subscribed.statusCode, subscribed.body).toBe(201);
    const secret = subscribed.json().hmac_shared_secret as string;
    const bought = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: merchant.auth,
      payload: {
        shipment: {
          service_id: 1172,
          label_format: "zpl",
          label_size: "4x6",
          to_location: SALT_LAKE_RESIDENCE,
          from_location: LOS_ANGELES_WAREHOUSE,
          parcels: [SMALL_BOX],
        },
      },
    });
    const shipment = bought.json().shipment;
    const advanced = await t.app.inject({
      method: "POST",
      url: `/api/v2/sandbox/shipments/${shipment.id}/advance`,
      headers: merchant.auth,
      payload: { to: "delivered" },
    });
    expect(advanced.statusCode, advanced.body).toBe(200);
    const shown = advanced.json().shipment.parcels[0].tracking_info.tracking_events as { tracking_event_id: number }[];

    await dispatcher.drain();
    const items = receiver.received.flatMap((message) => {
      expect(new Webhook(secret).verify(message.body, message.headers as Record<string, string>)).toEqual(message.json);
      expect(message.json).toMatchObject({ subscription_type: "shipment_tracking", status: "active" });
      return message.json.payload;
    });
    expect(items.map((item) => item.tracking_event_id)).toEqual(shown.map((e) => e.tracking_event_id).reverse());
    expect(items[0]).toMatchObject({
      shipment_id: shipment.id,
      parcel_id: shipment.parcels[0].id,
      tracking_number: shipment.tracking_number,
      code: "GX",
    });
    expect(items.at(-1)).toMatchObject({ code: "01", city: "SALT LAKE CITY", state: "UT", country: "US" });
  });
});
