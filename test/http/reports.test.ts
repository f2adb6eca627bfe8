import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendMeterEntry } from "../../src/domain/meter/meter.repository.js";
import {
  addTestUser,
  buildTestApp,
  createTestTenants,
  liveAuth,
  type TestAccount,
  type TestApp,
} from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { buyLabel } from "../helpers/shipments.js";

describe("the meter transaction report", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let child: TestAccount;
  let uspsTracking: string;
  let upsTracking: string;

  const get = (auth: TestAccount["auth"], url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: `/api/v2${url}`, headers: { ...auth, ...headers } });
  const report = async (auth: TestAccount["auth"], query = "") => {
    const response = await get(auth, `/reports/meter_transaction${query}`);
    expect(response.statusCode).toBe(200);
    return response.json().meter_transactions as Record<string, unknown>[];
  };
  const buy = async (account: TestAccount, overrides: Record<string, unknown> = {}) =>
    (await buyLabel(t, account.auth, overrides)).parcels[0].tracking_number as string;
  const ledger = (account: TestAccount, amountCents: number, kind: "refill" | "refund", status = "posted") => {
    const stamp = t.clock.now().toISOString();
    return appendMeterEntry(t.services.db, {
      account_id: account.accountId,
      mode: "test",
      kind,
      amount_cents: amountCents,
      shipment_id: null,
      description: `${kind} for the report`,
      status: status as "posted",
      available_at: stamp,
      created_at: stamp,
    });
  };

  beforeAll(async () => {
    t = await buildTestApp();
    ({ merchant, other, child } = await createTestTenants(t.services));
    for (const account of [merchant, other, child]) await connectSandboxCarriers(t.services, account.accountId);
    t.clock.set("2026-01-15T15:00:00.000Z");
    await ledger(merchant, 2550, "refill");
    await ledger(merchant, 9900, "refill", "rejected");
    t.clock.set("2026-01-16T15:00:00.000Z");
    uspsTracking = await buy(merchant);
    t.clock.set("2026-01-17T15:00:00.000Z");
    upsTracking = await buy(merchant, { service_id: 666 });
    await buy(child);
  });
  afterAll(() => t.close());

  it("answers every key of eHub's row, oldest first, without declined refills", async () => {
    const response = await get(merchant.auth, "/reports/meter_transaction");
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-total-count"]).toBeUndefined();
    expect(response.json()).toEqual({
      meter_transactions: [
        {
          customer_name: expect.any(String),
          customer_id: merchant.accountId,
          transaction_date_time: "2026-01-15T15:00:00.000Z",
          transaction_type: "credit",
          amount: 25.5,
          tracking_numbers: [],
        },
        {
          customer_name: expect.any(String),
          customer_id: merchant.accountId,
          transaction_date_time: "2026-01-16T15:00:00.000Z",
          transaction_type: "debit",
          amount: expect.any(Number),
          tracking_numbers: [uspsTracking],
        },
        {
          customer_name: expect.any(String),
          customer_id: merchant.accountId,
          transaction_date_time: "2026-01-17T15:00:00.000Z",
          transaction_type: "debit",
          amount: expect.any(Number),
          tracking_numbers: [upsTracking],
        },
      ],
    });
  });

  it("filters by carrier, service, shipment status and time", async () => {
    const tracking = (rows: Record<string, unknown>[]) => rows.map((r) => r.tracking_numbers);
    expect(tracking(await report(merchant.auth, "?carrier_code=usps"))).toEqual([[uspsTracking]]);
    expect(tracking(await report(merchant.auth, "?service_code=ups_ground"))).toEqual([[upsTracking]]);
    expect(tracking(await report(merchant.auth, "?status=shipped"))).toEqual([[uspsTracking], [upsTracking]]);
    expect(await report(merchant.auth, "?status=delivered")).toEqual([]);
    expect(await report(merchant.auth, "?status=all")).toHaveLength(3);
    expect(tracking(await report(merchant.auth, "?from_time=2026-01-16&to_time=2026-01-16T23:59:59Z"))).toEqual([
      [uspsTracking],
    ]);
    expect(tracking(await report(merchant.auth, "?from_time=16-01-2026"))).toEqual([[uspsTracking], [upsTracking]]);
  });

  it("pages with page and per_page, and a Link to the next page while there is one", async () => {
    const response = await get(merchant.auth, "/reports/meter_transaction?per_page=1&page=2&carrier_code=");
    expect(response.statusCode).toBe(200);
    expect(response.json().meter_transactions.map((r: { tracking_numbers: string[] }) => r.tracking_numbers)).toEqual([
      [uspsTracking],
    ]);
    expect(response.headers.link).toContain('rel="next"');
    expect(response.headers.link).toContain('rel="prev"');
    expect(response.headers.link).toContain("page=3");
    const last = await get(merchant.auth, "/reports/meter_transaction?per_page=1&page=3");
    expect(last.json().meter_transactions).toHaveLength(1);
    expect(last.headers.link).not.toContain('rel="next"');
    expect(last.headers.link).toContain('rel="first"');
  });

  it("adds the children's rows with include_children, each row naming its customer", async () => {
    expect((await report(merchant.auth)).map((r) => r.customer_id)).not.toContain(child.accountId);
    for (const flag of ["true", "1"]) {
      const rows = await report(merchant.auth, `?include_children=${flag}`);
      expect(rows.map((r) => r.customer_id)).toEqual([
        merchant.accountId,
        merchant.accountId,
        merchant.accountId,
        child.accountId,
      ]);
    }
    expect(await report(merchant.auth, "?include_children=false")).toHaveLength(3);
    const [childRow] = await report(child.auth);
    expect(childRow).toMatchObject({ customer_id: child.accountId, transaction_type: "debit" });
  });

  it("shows a stranger, a child asking for children, and a production key nothing of the merchant's", async () => {
    expect(await report(other.auth, "?include_children=true")).toEqual([]);
    expect((await report(child.auth, "?include_children=true")).map((r) => r.customer_id)).toEqual([child.accountId]);
    expect(await report(liveAuth(merchant), "?include_children=true")).toEqual([]);
  });

  it("refuses a date it cannot read (400)", async () => {
    const response = await get(merchant.auth, "/reports/meter_transaction?from_time=yesterday");
    expect(response.statusCode).toBe(400);
    expect(response.json().error_code).toBe("request.invalid");
  });

  it("streams the whole report as CSV with Accept: text/csv", async () => {
    const response = await get(merchant.auth, "/reports/meter_transaction?include_children=true&per_page=1", {
      accept: "text/csv",
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="meter_transactions.csv"');
    const lines = response.body.split("\r\n");
    expect(lines[0]).toBe("customer_name,customer_id,transaction_date_time,transaction_type,amount,tracking_numbers");
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(new RegExp(`^[^,]+,${merchant.accountId},2026-01-15T15:00:00.000Z,credit,25.5,$`));
    expect(lines[2]).toMatch(new RegExp(`,debit,[0-9.]+,${uspsTracking}$`));
    expect(lines[4]).toMatch(new RegExp(`^[^,]+,${child.accountId},`));
    expect(lines[5]).toBe("");
    // A browser's link cannot send the header: format=csv asks for the same file.
    const linked = await get(merchant.auth, "/reports/meter_transaction?include_children=true&format=csv");
    expect(linked.headers["content-disposition"]).toBe('attachment; filename="meter_transactions.csv"');
    expect(linked.body).toBe(response.body);
  });

  it("keeps a customer name a spreadsheet would run as a formula as text", async () => {
    await t.services.db
      .updateTable("accounts")
      .set({ name: '=HYPERLINK("x", "Acme, Inc")' })
      .where("id", "=", merchant.accountId)
      .execute();
    const response = await get(merchant.auth, "/reports/meter_transaction?carrier_code=usps", { accept: "text/csv" });
    expect(response.body.split("\r\n")[1]).toMatch(/^"'=HYPERLINK\(""x"", ""Acme, Inc""\)",/);
  });

  it.each([
    [" =1+2", `"' =1+2"`],
    ["\n=1+2", `"'\n=1+2"`],
    ["＝1+2", `"'＝1+2"`],
    ["；=1+2", `"'；=1+2"`],
    [";=1+2", `"';=1+2"`],
    ["|calc", `"'|calc"`],
  ])("neutralises a customer name starting %j as the CSV-injection guidance says", async (name, written) => {
    await t.services.db.updateTable("accounts").set({ name }).where("id", "=", merchant.accountId).execute();
    const response = await get(merchant.auth, "/reports/meter_transaction?carrier_code=usps", { accept: "text/csv" });
    const body = response.body.slice(response.body.indexOf("\r\n") + 2);
    expect(body.startsWith(`${written},${merchant.accountId},`)).toBe(true);
  });
});

describe("the shipment adjustment report, empty", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    ({ merchant } = await createTestTenants(t.services));
  });
  afterAll(() => t.close());

  it("answers an empty list, and a CSV of its header", async () => {
    const json = await t.app.inject({ url: "/api/v2/reports/shipment_adjustments", headers: merchant.auth });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual({ shipment_adjustments: [] });
    expect(json.headers.link).not.toContain('rel="next"');
    const csv = await t.app.inject({
      url: "/api/v2/reports/shipment_adjustments?include_children=true",
      headers: { ...merchant.auth, accept: "text/csv" },
    });
    expect(csv.body).toMatch(/^adjustment_id,adjustment_created_at,external_id,.*,meter_adj\r\n$/);
  });
});

describe("spend by carrier and week", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;
  let child: TestAccount;

  const spend = async (auth: TestAccount["auth"], query = "") => {
    const response = await t.app.inject({ url: `/api/v2/reports/meter_transaction/spend${query}`, headers: auth });
    expect(response.statusCode).toBe(200);
    return response.json().spend as { week: string; carrier_code: string; amount: number }[];
  };
  const buy = async (account: TestAccount, at: string, overrides: Record<string, unknown> = {}) => {
    t.clock.set(at);
    const shipment = await buyLabel(t, account.auth, overrides);
    return { id: shipment.id as number, cents: Math.round(shipment.payment.amount * 100) };
  };
  const costs: Record<string, number> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    ({ merchant, other, child } = await createTestTenants(t.services));
    for (const account of [merchant, other, child]) await connectSandboxCarriers(t.services, account.accountId);
    // A Sunday's last second and the next Monday's first fall in two weeks.
    const sunday = await buy(merchant, "2026-01-18T23:59:59.000Z");
    const monday = await buy(merchant, "2026-01-19T00:00:00.000Z");
    const ups = await buy(merchant, "2026-01-20T10:00:00.000Z", { service_id: 666 });
    const childLabel = await buy(child, "2026-01-20T11:00:00.000Z");
    await buy(other, "2026-01-20T12:00:00.000Z");
    // A refund of the Monday label, and a refill (no carrier): neither is a label bought.
    for (const [kind, cents, shipmentId] of [
      ["refund", monday.cents, monday.id],
      ["refill", 5000, null],
    ] as const) {
      const stamp = "2026-01-21T09:00:00.000Z";
      await appendMeterEntry(t.services.db, {
        account_id: merchant.accountId,
        mode: "test",
        kind,
        amount_cents: cents,
        shipment_id: shipmentId,
        description: `${kind} for the chart`,
        status: "posted",
        available_at: stamp,
        created_at: stamp,
      });
    }
    Object.assign(costs, { sunday: sunday.cents, ups: ups.cents, child: childLabel.cents });
  });
  afterAll(() => t.close());

  it("sums each carrier's labels, less refunds, into UTC weeks that start on Monday", async () => {
    expect(await spend(merchant.auth)).toEqual([
      { week: "2026-01-12", carrier_code: "usps", amount: costs.sunday! / 100 },
      { week: "2026-01-19", carrier_code: "ups", amount: costs.ups! / 100 },
      // The Monday label and its refund cancel out; the week still has its row.
      { week: "2026-01-19", carrier_code: "usps", amount: 0 },
    ]);
  });

  it("reads only the time window asked for", async () => {
    expect(await spend(merchant.auth, "?from_time=2026-01-19&to_time=2026-01-20T23:59:59Z")).toEqual([
      { week: "2026-01-19", carrier_code: "ups", amount: costs.ups! / 100 },
      { week: "2026-01-19", carrier_code: "usps", amount: expect.any(Number) },
    ]);
    expect(await spend(merchant.auth, "?to_time=2026-01-18")).toEqual([]);
  });

  it("adds the children's labels with include_children, and shows nobody else's", async () => {
    const withChildren = await spend(merchant.auth, "?include_children=true");
    expect(withChildren.find((row) => row.week === "2026-01-19" && row.carrier_code === "usps")?.amount).toBe(
      costs.child! / 100,
    );
    expect(await spend(child.auth, "?include_children=true")).toEqual([
      { week: "2026-01-19", carrier_code: "usps", amount: costs.child! / 100 },
    ]);
    expect((await spend(other.auth)).map((row) => row.week)).toEqual(["2026-01-19"]);
    expect(await spend(liveAuth(merchant), "?include_children=true")).toEqual([]);
  });

  it("answers 403 to a user without the shipping permission, and 400 to a date it cannot read", async () => {
    // A key whose user has only Billing now (the role was changed since the key was made).
    const billing = await addTestUser(t.services, merchant.accountId, ["API"]);
    await t.services.db.updateTable("users").set({ roles: "Billing" }).where("id", "=", billing.userId).execute();
    const refused = await t.app.inject({ url: "/api/v2/reports/meter_transaction/spend", headers: billing.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error_code).toBe("errors.forbidden");
    const bad = await t.app.inject({
      url: "/api/v2/reports/meter_transaction/spend?from_time=yesterday",
      headers: merchant.auth,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error_code).toBe("request.invalid");
  });
});
