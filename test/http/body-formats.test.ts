import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { shipmentToBuy } from "../helpers/shipments.js";

/** One request body, written the three ways the spec accepts. */
function bodies(n: number) {
  const json = JSON.stringify({
    customer: { name: `Format ${n}`, phone: "5550001111", user: { email: `f${n}@formats.test`, first_name: "Flo" } },
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<customer>
  <name>Format ${n}</name>
  <phone>5550001111</phone>
  <user><email>f${n}@formats.test</email><first_name>Flo</first_name></user>
</customer>`;
  const form = `customer[name]=Format+${n}&customer[phone]=5550001111&customer[user][email]=f${n}%40formats.test&customer[user][first_name]=Flo`;
  return [
    ["application/json", json],
    ["application/xml", xml],
    ["application/x-www-form-urlencoded", form],
  ] as const;
}

describe("request body formats", () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp({ config: { bodyLimitBytes: 4096 } });
    account = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, account.accountId);
  });
  afterAll(() => t.close());

  const post = (contentType: string, payload: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/v2/customers",
      headers: { ...account.auth, "content-type": contentType },
      payload,
    });

  it("JSON, XML and form bodies produce the same customer", async () => {
    const results = [];
    for (const [index, [type, payload]] of bodies(1).entries()) {
      const response = await post(type, payload.replaceAll("f1", `f1-${index}`));
      expect(response.statusCode, `${type}: ${response.body}`).toBe(201);
      const { id, created_at, user, template_data, ...rest } = response.json().customer;
      results.push({ ...rest, user: { first_name: user.first_name, email: user.email.replace(`-${index}`, "") } });
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });

  it('reads XML arrays from type="array" and repeated elements, and nil as null', async () => {
    const { parseXmlBody } = await import("../../src/http/plugins/body-parsers.js");
    expect(
      parseXmlBody(
        '<shipment><parcels type="array"><parcel><weight>10</weight></parcel></parcels><tags>a</tags><tags>b</tags><note nil="true"/></shipment>',
      ),
    ).toEqual({ shipment: { parcels: [{ weight: "10" }], tags: ["a", "b"], note: null } });
    expect(parseXmlBody("<request><url>https://x.test</url></request>")).toEqual({ url: "https://x.test" });
  });

  it("reads Rails-style form brackets into nested objects and arrays", async () => {
    const { parseFormBody } = await import("../../src/http/plugins/body-parsers.js");
    expect(parseFormBody("shipment[parcels][0][weight]=10&shipment[parcels][1][weight]=12&ids[]=1&ids[]=2")).toEqual({
      shipment: { parcels: [{ weight: "10" }, { weight: "12" }] },
      ids: ["1", "2"],
    });
  });

  it.each([
    ["JSON that does not parse", "application/json", '{"customer": '],
    ["XML that is not well-formed", "application/xml", "<customer><name>x</customer>"],
    ["XML under a JSON content type", "application/json", "<customer><name>x</name></customer>"],
    ["JSON under an XML content type", "application/xml", '{"customer":{}}'],
    ["JSON under a form content type", "application/x-www-form-urlencoded", '{"customer":{}}'],
    ["an unsupported content type", "text/csv", "name,email"],
  ])("refuses %s with 400 request.malformed_body", async (_name, type, payload) => {
    const response = await post(type, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: "error", error_code: "request.malformed_body" });
  });

  it("refuses nesting deeper than the form parser allows with 400 request.too_deep", async () => {
    const response = await post("application/x-www-form-urlencoded", `${"a".concat("[b]".repeat(40))}=1`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: "error", error_code: "request.too_deep" });
  });

  it("refuses an oversized body with 413 request.too_large", async () => {
    const response = await post("application/json", JSON.stringify({ customer: { name: "x".repeat(5000) } }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ status: "error", error_code: "request.too_large" });
  });

  it("refuses an XML body with a DOCTYPE (no declared entities), and still reads the built-in ones", async () => {
    for (const payload of [
      '<!DOCTYPE customer [<!ENTITY n "Expanded">]><customer><name>&n;</name><user><email>dtd@formats.test</email></user></customer>',
      '<!DOCTYPE customer [<!ENTITY x SYSTEM "file:///etc/passwd">]><customer><name>&x;</name></customer>',
    ]) {
      const response = await post("application/xml", payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: "error", error_code: "request.malformed_body" });
    }
    const plain = await post(
      "application/xml",
      "<customer><name>Smith &amp; Sons &lt;West&gt;</name><user><email>amp@formats.test</email></user></customer>",
    );
    expect(plain.statusCode).toBe(201);
    expect(plain.json().customer.name).toBe("Smith & Sons <West>");
  });

  const CONTENT_TYPES = ["application/json", "application/xml", "application/x-www-form-urlencoded"];

  it.each(CONTENT_TYPES)("takes an empty %s body as no body", async (type) => {
    // A route that needs a body says which one is missing, not that an empty text is malformed.
    for (const payload of ["", "  \n"]) {
      const response = await post(type, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: "error", error_code: "request.invalid" });
    }
    const ping = await t.app.inject({
      method: "GET",
      url: "/api/v2/test/ping",
      headers: { ...account.auth, "content-type": type },
      payload: "",
    });
    expect(ping.statusCode, ping.body).toBe(200);
  });

  it.each(CONTENT_TYPES)("cancels a shipment on a PUT with an empty %s body (axios sends one)", async (type) => {
    const shipped = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: account.auth,
      payload: { shipment: shipmentToBuy() },
    });
    expect(shipped.statusCode, shipped.body).toBe(201);
    const cancelled = await t.app.inject({
      method: "PUT",
      url: `/api/v2/shipments/${shipped.json().shipment.id}/cancel`,
      headers: { ...account.auth, "content-type": type },
      payload: "",
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().shipment.status).toBe("cancel_pending");
  });

  it("refuses a body of an unsupported type (text/plain) with 400 request.malformed_body naming the types", async () => {
    const [, json] = bodies(9)[0];
    for (const type of ["text/plain", "text/plain; charset=utf-8", "application/octet-stream"]) {
      const response = await post(type, json);
      expect(response.statusCode, type).toBe(400);
      expect(response.json().error_code, type).toBe("request.malformed_body");
      expect(response.json().error_message, type).toContain("application/json");
    }
  });

  it("validates an XML body against the schema like a JSON one", async () => {
    const response = await post("application/xml", "<customer><name>No user</name></customer>");
    expect(response.statusCode).toBe(400);
    expect(response.json().error_message).toBe("customer.user is required.");
  });
});
