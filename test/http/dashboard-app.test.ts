import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/app.js";

/** The dashboard's page and bundle at /dashboard (built by the suite's global set-up, as by `npm start`). */
describe("the dashboard's files", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it("serves the page without a key, under a strict Content-Security-Policy and without inline script", async () => {
    for (const url of ["/dashboard", "/dashboard/"]) {
      const page = await t.app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(page.headers["content-security-policy"]).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(page.headers["x-content-type-options"]).toBe("nosniff");
      expect(page.headers["referrer-policy"]).toBe("no-referrer");
      // Every script has a source on this origin; nothing is fetched from elsewhere.
      const scripts = [...page.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attributes of scripts) expect(attributes).toMatch(/src="\/dashboard\/assets\/[\w-]+\.js"/);
      expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
  });

  it("serves the bundle's assets for a year (their names change with their content), and nothing else", async () => {
    const page = await t.app.inject({ url: "/dashboard" });
    const script = /src="(\/dashboard\/assets\/[\w-]+\.js)"/.exec(page.body)?.[1] as string;
    const asset = await t.app.inject({ url: script });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.body).not.toMatch(/https?:\/\/fonts\./);

    for (const url of [
      "/dashboard/assets/missing.js",
      "/dashboard/assets/readme.txt",
      "/dashboard/assets/..%2F..%2Fpackage.json",
      "/dashboard/assets/.hidden.js",
    ]) {
      const refused = await t.app.inject({ url });
      expect(refused.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode, url).toBeLessThan(500);
      expect(refused.json().status).toBe("error");
    }
  });
});
