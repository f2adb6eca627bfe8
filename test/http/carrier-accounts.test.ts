import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { rateShipment, SALT_LAKE_RESIDENCE } from "../helpers/shipments.js";

describe("carrier accounts", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    other = await createTestAccount(t.services);
  });
  afterAll(() => t.close());

  const connect = (carrier_account: object, auth = merchant.auth, url = "/api/v2/carrier_accounts") =>
    t.app.inject({ method: "POST", url, headers: auth, payload: { carrier_account } });
  const list = (auth = merchant.auth, url = "/api/v2/carrier_accounts") =>
    t.app.inject({ method: "GET", url, headers: auth });

  it("connects a carrier with credentials that are encrypted at rest and never returned", async () => {
    const response = await connect({
      carrier_code: "fed_ex",
      credentials: { account_number: "510087143", api_secret: "s3cr3t-value" },
      enabled_service_ids: [393, 392],
      description: "Main FedEx account",
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().carrier_account).toMatchObject({
      carrier_code: "fed_ex",
      mode: "test",
      enabled_service_ids: [393, 392],
      has_credentials: true,
      description: "Main FedEx account",
    });
    expect(response.body).not.toContain("s3cr3t-value");
    const stored = await t.services.db.selectFrom("carrier_accounts").selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain("s3cr3t-value");
    expect(JSON.stringify(stored)).not.toContain("510087143");
    const listed = await list();
    expect(listed.body).not.toContain("s3cr3t-value");
    expect(listed.json().carrier_accounts).toHaveLength(1);
  });

  it("limits rating to the enabled services", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/rates",
      headers: merchant.auth,
      payload: rateShipment({ to_location: { ...SALT_LAKE_RESIDENCE, company: "Utah Widgets" } }),
    });
    expect(
      response
        .json()
        .service_rates.map((r: { service_id: number }) => r.service_id)
        .sort(),
    ).toEqual([392, 393]);
  });

  it("refuses unknown carriers and services, a second connection, and the other mode", async () => {
    expect((await connect({ carrier_code: "pony_express" })).statusCode).toBe(400);
    const foreign = await connect({ carrier_code: "ups", enabled_service_ids: [1172] });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error_code).toBe("carrier_account.unknown_service");
    const twice = await connect({ carrier_code: "fed_ex" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error_code).toBe("carrier_account.already_connected");
    const mode = await connect({ carrier_code: "ups", mode: "production" });
    expect(mode.statusCode).toBe(422);
    expect(mode.json().error_code).toBe("carrier_account.mode_mismatch");
  });

  it("keeps accounts and modes apart", async () => {
    expect((await list(other.auth)).json().carrier_accounts).toEqual([]);
    expect((await list({ authorization: `Bearer ${merchant.keys.production}` })).json().carrier_accounts).toEqual([]);
    const id = (await list()).json().carrier_accounts[0].id;
    const stolen = await t.app.inject({ method: "DELETE", url: `/api/v2/carrier_accounts/${id}`, headers: other.auth });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().error_code).toBe("carrier_account.not_found");
  });

  it("disconnects, after which the carrier can be connected again", async () => {
    const id = (await list()).json().carrier_accounts[0].id;
    const gone = await t.app.inject({
      method: "DELETE",
      url: `/api/v2/carrier_accounts/${id}`,
      headers: merchant.auth,
    });
    expect(gone.statusCode).toBe(204);
    expect((await list()).json().carrier_accounts).toEqual([]);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/v2/carrier_accounts/${id}`, headers: merchant.auth }))
        .statusCode,
    ).toBe(404);
    expect((await connect({ carrier_code: "fed_ex" })).statusCode).toBe(201);
  });

  it("lets a parent manage its child's connections through the child form", async () => {
    const child = await createTestAccount(t.services, { parentId: merchant.accountId });
    const url = `/api/v2/customers/${child.accountId}/carrier_accounts`;
    expect((await connect({ carrier_code: "usps" }, merchant.auth, url)).statusCode).toBe(201);
    expect(
      (await list(child.auth)).json().carrier_accounts.map((c: { carrier_code: string }) => c.carrier_code),
    ).toEqual(["usps"]);
    expect((await list(other.auth, url)).statusCode).toBe(404);
  });
});
