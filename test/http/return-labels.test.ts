import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTestUser, buildTestApp, createTestTenants, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import {
  LOS_ANGELES_WAREHOUSE,
  SALT_LAKE_RESIDENCE,
  SMALL_BOX,
  shipmentToBuy,
  T_SHIRT,
  TORONTO_RESIDENCE,
} from "../helpers/shipments.js";

const USPS_MEDIA_MAIL = 688;
const UPS_GROUND = 666;
const DHL_EXPRESS_WORLDWIDE = 300;
const DHL_ECOMMERCE_GROUND = 1043;

interface Shipment {
  id: number;
  status: string;
  to_location: Record<string, unknown>;
  from_location: Record<string, unknown>;
  is_return: boolean;
  return_type: string | null;
  outbound_shipment_id: number | null;
  shipping_service: { rate: number; service: string };
  payment: { amount: number } | null;
  parcels: { tracking_number: string; postage_label: { base64_image?: string } }[];
}

describe("return labels: the outbound's addresses swapped, paid at purchase or at the first scan", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    ({ merchant, other } = await createTestTenants(t.services));
    for (const account of [merchant, other]) await connectSandboxCarriers(t.services, account.accountId);
    t.clock.set("2026-01-15T15:00:00.000Z");
  });
  afterAll(() => t.close());

  const call = (auth: TestAccount["auth"], method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v2${url}`, headers: auth, ...(payload ? { payload } : {}) });
  const ship = (body: object, auth = merchant.auth) => call(auth, "POST", "/shipments/ship", { shipment: body });
  const bought = async (body: object) => {
    const response = await ship(body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { shipment: Shipment; return_shipment?: Shipment; payment: unknown };
  };
  const balance = async () => (await call(merchant.auth, "GET", "/meter")).json().meter.balance as number;
  const ledgerOf = (shipmentId: number) =>
    t.services.db.selectFrom("meter_entries").selectAll().where("shipment_id", "=", shipmentId).execute();
  const paymentEvents = async (auth = merchant.auth) =>
    (
      (await call(auth, "GET", "/events?stream=payment_status")).json().events as { payload: Record<string, unknown> }[]
    ).map((e) => e.payload);
  const cents = (dollars: number) => Math.round(dollars * 100);

  it("buys a print return: from the customer to the merchant, a return label, charged at purchase", async () => {
    const before = await balance();
    const { shipment, return_shipment } = await bought(
      shipmentToBuy({ is_return: true, label_format: "zpl", inline_image: true }),
    );
    expect(shipment).toMatchObject({ is_return: true, return_type: "print", outbound_shipment_id: null });
    expect(return_shipment).toBeUndefined();
    expect(shipment.from_location).toMatchObject({ address1: SALT_LAKE_RESIDENCE.address1, postal_code: "84111" });
    expect(shipment.to_location).toMatchObject({ company: LOS_ANGELES_WAREHOUSE.company, postal_code: "90035" });
    const zpl = Buffer.from(shipment.parcels[0]?.postage_label.base64_image ?? "", "base64").toString();
    expect(zpl).toContain("GROUND ADVANTAGE RETURN");
    expect(shipment.payment?.amount).toBe(shipment.shipping_service.rate);
    expect(cents(await balance())).toBe(cents(before) - cents(shipment.shipping_service.rate));
  });

  it("answers an outbound shipment as not a return", async () => {
    const { shipment } = await bought(shipmentToBuy());
    expect(shipment).toMatchObject({ is_return: false, return_type: null, outbound_shipment_id: null });
  });

  it("sends a return to the outbound's return_location when it has one", async () => {
    const returns = { ...LOS_ANGELES_WAREHOUSE, company: "Acme Returns Dock", address1: "9 Dock Rd" };
    const { shipment } = await bought(shipmentToBuy({ is_return: true, return_location: returns }));
    expect(shipment.to_location).toMatchObject({ company: "Acme Returns Dock", address1: "9 Dock Rd" });
  });

  it("charges a scan-based return at the carrier's first scan only, once, with a payment_status event and a report row", async () => {
    const before = await balance();
    const eventsBefore = (await paymentEvents()).length;
    const { shipment } = await bought(
      shipmentToBuy({ is_return: true, return_type: "scan_based", service_id: UPS_GROUND }),
    );
    expect(shipment).toMatchObject({ is_return: true, return_type: "scan_based", payment: { amount: 0 } });
    expect(shipment.shipping_service.rate).toBeGreaterThan(0);
    expect(await balance()).toBe(before);
    expect(await ledgerOf(shipment.id)).toEqual([]);

    const advanced = await call(merchant.auth, "POST", `/sandbox/shipments/${shipment.id}/advance`, {
      to: "in_transit",
    });
    expect(advanced.statusCode, advanced.body).toBe(200);
    const price = cents(shipment.shipping_service.rate);
    expect(cents(await balance())).toBe(cents(before) - price);
    const entries = await ledgerOf(shipment.id);
    expect(entries.map((e) => [e.kind, e.amount_cents])).toEqual([["label_purchase", -price]]);
    const read = (await call(merchant.auth, "GET", `/shipments/${shipment.id}`)).json().shipment as Shipment;
    expect(read.payment?.amount).toBe(shipment.shipping_service.rate);
    const events = (await paymentEvents()).slice(eventsBefore);
    expect(events).toEqual([
      expect.objectContaining({
        type: "meter",
        status: "charged",
        amount: shipment.shipping_service.rate,
        shipment_id: shipment.id,
        meter_entry_id: entries[0]?.id,
      }),
    ]);
    const report = (await call(merchant.auth, "GET", "/reports/meter_transaction?service_code=ups_ground")).json()
      .meter_transactions as { amount: number; transaction_type: string; tracking_numbers: string[] }[];
    expect(report).toContainEqual(
      expect.objectContaining({
        transaction_type: "debit",
        amount: shipment.shipping_service.rate,
        tracking_numbers: [shipment.parcels[0]?.tracking_number],
      }),
    );

    // Later scans charge nothing more.
    expect(
      (await call(merchant.auth, "POST", `/sandbox/shipments/${shipment.id}/advance`, { to: "delivered" })).statusCode,
    ).toBe(200);
    expect(await ledgerOf(shipment.id)).toHaveLength(1);
    expect((await paymentEvents()).slice(eventsBefore)).toHaveLength(1);
    expect(cents(await balance())).toBe(cents(before) - price);
  });

  it("never charges a scan-based return voided before its first scan", async () => {
    const before = await balance();
    const { shipment } = await bought(shipmentToBuy({ is_return: true, return_type: "scan_based" }));
    const cancelled = await call(merchant.auth, "PUT", `/shipments/${shipment.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await ledgerOf(shipment.id)).reduce((sum, e) => sum + e.amount_cents, 0)).toBe(0);
    expect(await balance()).toBe(before);
  });

  it("buys an outbound and its return together with with_return; payment covers both", async () => {
    const before = await balance();
    const response = await bought(shipmentToBuy({ with_return: true }));
    const { shipment, return_shipment } = response;
    expect(shipment).toMatchObject({ is_return: false, return_type: null });
    expect(return_shipment).toMatchObject({ is_return: true, return_type: "print", outbound_shipment_id: shipment.id });
    expect(return_shipment?.from_location).toMatchObject({ postal_code: "84111" });
    expect(return_shipment?.to_location).toMatchObject({ postal_code: "90035" });
    const total = cents(shipment.shipping_service.rate) + cents(return_shipment?.shipping_service.rate ?? 0);
    expect(cents(await balance())).toBe(cents(before) - total);
    const read = await call(merchant.auth, "GET", `/shipments/${return_shipment?.id}`);
    expect(read.json().shipment).toMatchObject({ is_return: true, outbound_shipment_id: shipment.id });
  });

  it("voids the outbound when its return cannot be bought, so nothing stays charged", async () => {
    const before = await balance();
    // The return's recipient is the merchant: the sandbox fails UPS for it, not for the outbound.
    const merchantAddress = { ...LOS_ANGELES_WAREHOUSE, address2: "sandbox-fault:ups" };
    const response = await ship(
      shipmentToBuy({ with_return: true, service_id: UPS_GROUND, from_location: merchantAddress }),
    );
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error_code).toBe("carrier.rejected");
    const outboundId = Number(/outbound shipment (\d+) was voided/.exec(response.json().error_message)?.[1]);
    const outbound = (await call(merchant.auth, "GET", `/shipments/${outboundId}`)).json().shipment as Shipment;
    expect(outbound.status).toBe("cancel_pending");
    // The outbound's refund is on the meter, held until the refund job posts it, as any cancel's.
    const meter = (await call(merchant.auth, "GET", "/meter")).json().meter;
    expect(cents(meter.balance) + cents(meter.pending_refunds)).toBe(cents(before));
  });

  it("with_return and return_type scan_based buys a pay-on-use return beside the outbound", async () => {
    const { return_shipment } = await bought(shipmentToBuy({ with_return: true, return_type: "scan_based" }));
    expect(return_shipment).toMatchObject({ return_type: "scan_based", payment: { amount: 0 } });
  });

  it("buys a DHL Express return from abroad as a print label", async () => {
    const { shipment } = await bought(
      shipmentToBuy({
        is_return: true,
        service_id: DHL_EXPRESS_WORLDWIDE,
        to_location: TORONTO_RESIDENCE,
        parcels: [{ ...SMALL_BOX, parcel_items: [T_SHIRT] }],
      }),
    );
    expect(shipment.from_location).toMatchObject({ country: "CA" });
    expect(shipment.to_location).toMatchObject({ country: "US" });
    // The sandbox carries it back: its journey runs from Toronto to Los Angeles.
    const advanced = await call(merchant.auth, "POST", `/sandbox/shipments/${shipment.id}/advance`, {
      to: "delivered",
    });
    expect(advanced.statusCode, advanced.body).toBe(200);
  });

  it.each([
    [
      "DHL Express has no scan-based return",
      {
        service_id: DHL_EXPRESS_WORLDWIDE,
        to_location: TORONTO_RESIDENCE,
        return_type: "scan_based",
        parcels: [{ ...SMALL_BOX, parcel_items: [T_SHIRT] }],
      },
      /scan_based/,
    ],
    [
      "USPS sells returns on three mail classes only",
      { service_id: USPS_MEDIA_MAIL },
      /Ground Advantage|usps_ground_advantage/,
    ],
    ["DHL eCommerce sells none through Porter", { service_id: DHL_ECOMMERCE_GROUND }, /no return labels/],
  ])("refuses with 422 shipment.return_unavailable: %s", async (_, overrides, message) => {
    const before = await balance();
    const response = await ship(shipmentToBuy({ is_return: true, ...overrides }));
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error_code).toBe("shipment.return_unavailable");
    expect(response.json().error_message).toMatch(message);
    expect(await balance()).toBe(before);
  });

  it("refuses a with_return whose return the carrier does not sell before buying either", async () => {
    const count = async () =>
      Number(
        (
          await t.services.db
            .selectFrom("shipments")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("account_id", "=", merchant.accountId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const shipments = await count();
    const response = await ship(shipmentToBuy({ with_return: true, service_id: USPS_MEDIA_MAIL }));
    expect(response.statusCode).toBe(422);
    expect(response.json().error_code).toBe("shipment.return_unavailable");
    expect(response.json().error_message).toContain("shipment.with_return");
    expect(await count()).toBe(shipments);
  });

  it.each([
    ["an unknown return_type", { is_return: true, return_type: "mail_back" }, /return_type/],
    ["a return_type without a return", { return_type: "print" }, /return_type applies only/],
    ["is_return and with_return together", { is_return: true, with_return: true }, /exclude each other/],
    ["is_return that is not a boolean", { is_return: "maybe" }, /is_return/],
  ])("answers 400 request.invalid for %s", async (_, overrides, message) => {
    const response = await ship(shipmentToBuy(overrides));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error_code).toBe("request.invalid");
    expect(response.json().error_message).toMatch(message);
  });

  it("ship_multiple buys returns with is_return and refuses with_return", async () => {
    const multiple = (shipments: object[]) => call(merchant.auth, "POST", "/shipments/ship_multiple", { shipments });
    const ok = await multiple([shipmentToBuy({ is_return: true }), shipmentToBuy()]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().shipments.map((s: Shipment) => s.is_return)).toEqual([true, false]);
    const refused = await multiple([shipmentToBuy({ with_return: true })]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error_message).toContain("shipments[0].with_return");
  });

  it("keeps a return to its account: another cannot read or void it", async () => {
    const { shipment } = await bought(shipmentToBuy({ is_return: true, return_type: "scan_based" }));
    expect((await call(other.auth, "GET", `/shipments/${shipment.id}`)).statusCode).toBe(404);
    expect((await call(other.auth, "PUT", `/shipments/${shipment.id}/cancel`)).statusCode).toBe(404);
    expect((await call(other.auth, "POST", `/sandbox/shipments/${shipment.id}/advance`)).statusCode).toBe(404);
    expect((await call(merchant.auth, "GET", `/shipments/${shipment.id}`)).json().shipment.status).toBe("shipped");
  });

  it("needs the shipping permission to buy a return", async () => {
    const billing = await addTestUser(t.services, merchant.accountId, ["API"]);
    await t.services.db.updateTable("users").set({ roles: "Billing" }).where("id", "=", billing.userId).execute();
    const response = await ship(shipmentToBuy({ is_return: true }), billing.auth);
    expect(response.statusCode).toBe(403);
    const pair = await ship(shipmentToBuy({ with_return: true }), billing.auth);
    expect(pair.statusCode).toBe(403);
  });
});
