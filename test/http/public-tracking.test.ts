import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addTestUser,
  buildTestApp,
  createTestAccount,
  fundMeter,
  type TestAccount,
  type TestApp,
} from "../helpers/app.js";
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
  const advance = (account: TestAccount, id: number, to?: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/v2/sandbox/shipments/${id}/advance`,
      headers: account.auth,
      ...(to ? { payload: { to } } : {}),
    });
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
    expect(page.headers.vary).toBe("Accept, Accept-Language");
    expect(page.headers["content-language"]).toBe("en");
    const html = page.body;
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(html).toContain("<h1>Tracking</h1>");
    expect(html).toContain("<h2>Timeline</h2>");
    expect(html).toContain("<dt>Carrier</dt><dd>USPS</dd>");
    expect(html).toContain("<dt>Service</dt><dd>USPS Ground Advantage</dd>");
    expect(html).toContain(`<dd>${shipment.tracking_number}</dd>`);
    expect(html).toMatch(
      /<dt>Estimated delivery<\/dt><dd><time datetime="\d{4}-\d{2}-\d{2}">[A-Z][a-z]+ \d{1,2}, \d{4}<\/time><\/dd>/,
    );
    // Each event's moment in words, in UTC and saying so; the exact value stays in datetime.
    expect(html).toMatch(
      /<ol>\n<li><time datetime="[^"]+">[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC<\/time> — /,
    );
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

  describe("the account's logo, set through PUT /account/tracking_page", () => {
    const LOGO = "https://cdn.acme.example/brand/logo.png";
    const setLogo = (auth: Record<string, string>, logo_url: unknown, prefix = "/api/v2") =>
      t.app.inject({
        method: "PUT",
        url: `${prefix}/account/tracking_page`,
        headers: auth,
        payload: { tracking_page: { logo_url } },
      });

    it("shows the logo on the account's pages, allows images from its origin alone, and not on others' pages", async () => {
      const set = await setLogo(merchant.auth, LOGO);
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual({ tracking_page: { logo_url: LOGO } });
      const read = await t.app.inject({ method: "GET", url: "/api/v2/account/tracking_page", headers: merchant.auth });
      expect(read.json()).toEqual({ tracking_page: { logo_url: LOGO } });

      const mine = await buy(merchant);
      const page = await open(mine.public_tracking_url);
      expect(page.body).toContain(`<img src="${LOGO}" alt="Acme &lt;Outdoor&gt; &amp; Co">`);
      expect(page.headers["content-security-policy"]).toBe(
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; img-src https://cdn.acme.example",
      );
      const json = (await open(mine.public_tracking_url, { accept: "application/json" })).json();
      expect(json.account).toEqual({ name: "Acme <Outdoor> & Co", logo_url: LOGO });

      const theirs = await buy(other);
      const theirPage = await open(theirs.public_tracking_url);
      expect(theirPage.body).not.toContain("<img");
      expect(theirPage.body).not.toContain("cdn.acme.example");

      expect((await setLogo(merchant.auth, null)).json()).toEqual({ tracking_page: { logo_url: null } });
      expect((await open(mine.public_tracking_url)).body).not.toContain("<img");
    });

    it("takes https URLs only", async () => {
      for (const bad of [
        "http://cdn.acme.example/logo.png",
        "javascript:alert(1)",
        'https://x.example/"><script>',
        42,
      ]) {
        const response = await setLogo(merchant.auth, bad);
        expect(response.statusCode, String(bad)).toBe(400);
        expect(response.json()).toMatchObject({ status: "error", error_code: "request.invalid" });
      }
    });

    it("needs the administration permission: an API-only user hears 403", async () => {
      const shipper = await addTestUser(t.services, merchant.accountId, ["API"]);
      const response = await setLogo(shipper.auth, LOGO);
      expect(response.statusCode).toBe(403);
      expect(response.json().error_code).toBe("errors.forbidden");
    });

    it("needs a key", async () => {
      expect((await setLogo({}, LOGO)).statusCode).toBe(401);
    });
  });

  describe("in the reader's language", () => {
    const facts = {
      en: ["Tracking", "Carrier", "Estimated delivery", "Timeline", "Shipped by"],
      es: ["Seguimiento", "Transportista", "Entrega estimada", "Historial", "Enviado por"],
      fr: ["Suivi", "Transporteur", "Livraison prévue", "Historique", "Expédié par"],
      de: ["Sendungsverfolgung", "Versanddienstleister", "Voraussichtliche Zustellung", "Verlauf", "Versendet von"],
    };
    /** Each language's word for a shipment in transit. */
    const inTransit = { en: "In transit", es: "En tránsito", fr: "En transit", de: "Unterwegs" };
    let shipment: Awaited<ReturnType<typeof buy>>;
    beforeAll(async () => {
      t.clock.set(new Date("2026-11-02T15:00:00Z"));
      shipment = await buy(merchant);
      expect((await advance(merchant, shipment.id, "in_transit")).statusCode).toBe(200);
    });

    for (const [language, [title, carrier, estimated, timeline, shippedBy]] of Object.entries(facts)) {
      it(`writes the page in ${language} to Accept-Language: ${language}, with its words, statuses and dates`, async () => {
        const page = await open(shipment.public_tracking_url, { "accept-language": `${language};q=0.9, ja` });
        expect(page.statusCode).toBe(200);
        expect(page.headers["content-language"]).toBe(language);
        expect(page.headers.vary).toBe("Accept, Accept-Language");
        expect(page.body).toMatch(new RegExp(`^<!DOCTYPE html>\n<html lang="${language}">`));
        expect(page.body).toContain(`<h1>${title}</h1>`);
        expect(page.body).toContain(`<h2>${timeline}</h2>`);
        expect(page.body).toContain(`<dt>${carrier}</dt><dd>USPS</dd>`);
        expect(page.body).toContain(`<dt>${estimated}</dt><dd><time datetime="2026-11-`);
        expect(page.body).toContain(`${shippedBy} Acme &lt;Outdoor&gt; &amp; Co`);
        expect(page.body).toContain(`<dd>${inTransit[language as keyof typeof inTransit]}</dd>`);
        const dates = new Intl.DateTimeFormat(language, { month: "long", timeZone: "UTC" });
        expect(page.body).toContain(dates.format(new Date("2026-11-15T00:00:00Z")));
        expect(page.body).toContain(" UTC</time>");
      });
    }

    it("takes ?lang= over Accept-Language, and falls back to English for a language it does not have", async () => {
      const path = new URL(shipment.public_tracking_url).pathname;
      const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: "GET", url, headers });
      expect((await get(`${path}?lang=fr`, { "accept-language": "de" })).headers["content-language"]).toBe("fr");
      expect((await get(`${path}?lang=de-CH`, {})).headers["content-language"]).toBe("de");
      expect((await get(`${path}?lang=ja`, { "accept-language": "es" })).headers["content-language"]).toBe("es");
      expect((await get(path, { "accept-language": "ja, zh;q=0.5" })).body).toMatch(/<html lang="en">/);
    });

    it("keeps the JSON form free of words: the same answer in every language", async () => {
      const english = await open(shipment.public_tracking_url, { accept: "application/json", "accept-language": "en" });
      const german = await open(shipment.public_tracking_url, { accept: "application/json", "accept-language": "de" });
      expect(german.body).toBe(english.body);
      expect(german.headers.etag).toBe(english.headers.etag);
      expect(german.json().status).toBe("in_transit");
    });

    it("gives each language and form its own ETag, and answers 304 to a cache that holds the same one", async () => {
      const tags = new Set<string>();
      const asked: Record<string, string>[] = [
        { "accept-language": "en" },
        { "accept-language": "fr" },
        { accept: "application/json" },
      ];
      for (const headers of asked) {
        const first = await open(shipment.public_tracking_url, headers);
        const tag = String(first.headers.etag);
        expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
        tags.add(tag);
        const again = await open(shipment.public_tracking_url, { ...headers, "if-none-match": `W/${tag}` });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe("");
        expect(again.headers.etag).toBe(tag);
        expect(again.headers["cache-control"]).toBe("public, max-age=60");
        expect(again.headers.vary).toBe("Accept, Accept-Language");
        const stale = await open(shipment.public_tracking_url, { ...headers, "if-none-match": '"other"' });
        expect(stale.statusCode).toBe(200);
      }
      expect(tags.size).toBe(3);
      expect((await open(shipment.public_tracking_url, { "if-none-match": "*" })).statusCode).toBe(304);
      // The tag follows the shipment: a new event is a new page.
      const before = (await open(shipment.public_tracking_url)).headers.etag;
      await advance(merchant, shipment.id);
      expect((await open(shipment.public_tracking_url, { "if-none-match": String(before) })).statusCode).toBe(200);
    });
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
