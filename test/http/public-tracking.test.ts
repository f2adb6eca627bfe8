import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { shipmentToBuy } from "../helpers/shipments.js";

describe("the public tracking page: /track/{token}, no key needed", () => {
  let t: TestApp;
  let merchant: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services, { name: "Acme <Outdoor> & Co" });
    other = await createTestAccount(t.services, { name: "Other Merchant Inc" });
    for (const account of [merchant, other]) {
      await fundMeter(t.services, account);
      await connectSandboxCarriers(t.services, account.accountId);
    }
  });
  afterAll(() => t.close());

  const buy = async (account: TestAccount, overrides: Record<string, unknown> = {}) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: account.auth,
      payload: { shipment: shipmentToBuy({ account_reference: "secret-ref-991", ...overrides }) },
    });
    expect(response.statusCode).toBe(201);
    return response.json().shipment as { id: number; public_tracking_url: string; tracking_number: string };
  };
  const advance = (account: TestAccount, id: number) =>
    t.app.inject({ method: "POST", url: `/api/v2/sandbox/shipments/${id}/advance`, headers: account.auth });
  const open = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: new URL(url).pathname, headers });

  it("gives each shipment an unguessable public_tracking_url, also when read back", async () => {
    const first = await buy(merchant);
    const second = await buy(merchant);
    expect(first.public_tracking_url).toMatch(/^https?:\/\/[^/]+\/track\/[A-Za-z0-9_-]{22}$/);
    expect(second.public_tracking_url).not.toBe(first.public_tracking_url);
    const read = await t.app.inject({ method: "GET", url: `/api/v2/shipments/${first.id}`, headers: merchant.auth });
    expect(read.json().shipment.public_tracking_url).toBe(first.public_tracking_url);
  });

  it("serves an accessible HTML page without a key: carrier, service, status, delivery estimate, timeline", async () => {
    const shipment = await buy(merchant);
    expect((await advance(merchant, shipment.id)).statusCode).toBeLessThan(300);
    const page = await open(shipment.public_tracking_url, { accept: "text/html" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html; charset=utf-8/);
    expect(page.headers["content-security-policy"]).toBe(
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers["cache-control"]).toBe("public, max-age=60");
    expect(page.headers.vary).toMatch(/Accept/);
    const html = page.body;
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(html).toContain("<h1>Tracking</h1>");
    expect(html).toContain("<h2>Timeline</h2>");
    expect(html).toContain("<dt>Carrier</dt><dd>USPS</dd>");
    expect(html).toContain("<dt>Service</dt><dd>USPS Ground Advantage</dd>");
    expect(html).toContain(`<dd>${shipment.tracking_number}</dd>`);
    expect(html).toMatch(/<dt>Estimated delivery<\/dt><dd>\d{4}-\d{2}-\d{2}<\/dd>/);
    expect(html).toMatch(/<ol>\n<li><time datetime="[^"]+">/);
    // The account's name, escaped; no script, no style, nothing of the account beyond its name.
    expect(html).toContain("Shipped by Acme &lt;Outdoor&gt; &amp; Co");
    expect(html).not.toMatch(/<script|<style|style=/i);
    for (const privateText of ["secret-ref-991", "Los Angeles", "220 S State St", "3105550100", "Other Merchant"]) {
      expect(html).not.toContain(privateText);
    }
  });

  it("answers the timeline as JSON to Accept: application/json", async () => {
    const shipment = await buy(merchant);
    await advance(merchant, shipment.id);
    const answer = await open(shipment.public_tracking_url, { accept: "application/json" });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    const body = answer.json();
    expect(body).toMatchObject({
      account: { name: "Acme <Outdoor> & Co" },
      carrier: "USPS",
      service: "USPS Ground Advantage",
      tracking_number: shipment.tracking_number,
      status: expect.any(String),
      estimated_delivery_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(body.tracking_events.length).toBeGreaterThan(0);
    expect(Object.keys(body.tracking_events[0]).sort()).toEqual(
      ["city", "country", "description", "event_date", "postal_code", "state", "status"].sort(),
    );
    expect(Object.keys(body).sort()).toEqual(
      [
        "account",
        "carrier",
        "delivery_date",
        "estimated_delivery_date",
        "service",
        "status",
        "tracking_events",
        "tracking_number",
      ].sort(),
    );
  });

  it("shows each shipment with its own account only", async () => {
    const mine = await buy(merchant);
    const theirs = await buy(other);
    const mineJson = (await open(mine.public_tracking_url, { accept: "application/json" })).json();
    const theirsJson = (await open(theirs.public_tracking_url, { accept: "application/json" })).json();
    expect(mineJson.account.name).toBe("Acme <Outdoor> & Co");
    expect(mineJson.tracking_number).toBe(mine.tracking_number);
    expect(theirsJson.account.name).toBe("Other Merchant Inc");
    expect(theirsJson.tracking_number).toBe(theirs.tracking_number);
  });

  it("answers an unknown or malformed token with 404 in the error body, HTML or JSON asked", async () => {
    for (const token of ["AAAAAAAAAAAAAAAAAAAAAA", "nope", "..%2F..%2Fetc", "x".repeat(100)]) {
      for (const accept of ["text/html", "application/json"]) {
        const response = await t.app.inject({ method: "GET", url: `/track/${token}`, headers: { accept } });
        expect(response.statusCode, token).toBe(404);
        expect(response.json()).toEqual({
          status: "error",
          error_code: "tracking_page.not_found",
          error_message: "No tracking page has this address.",
        });
      }
    }
  });
});
