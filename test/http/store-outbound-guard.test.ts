import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncOrderStore } from "../../src/domain/orders/sync-order-store.js";
import { apiCaller, buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";

/** A site on this machine that answers every request with `answer` and counts what reached it. */
class LocalSite {
  readonly server: http.Server;
  requests = 0;

  constructor(answer: (response: http.ServerResponse) => void) {
    this.server = http.createServer((_request, response) => {
      this.requests += 1;
      answer(response);
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return (this.server.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const SECRET_BODY = "internal-admin-token-4242";

/** The loopback address in every form a URL parser turns into it, and other private or reserved targets. */
const refusedSiteUrls = (port: number) => [
  `http://127.0.0.1:${port}`,
  `http://localhost:${port}`,
  `http://localhost.:${port}`,
  `http://[::ffff:127.0.0.1]:${port}`,
  `http://[::127.0.0.1]:${port}`,
  `http://[::1]:${port}`,
  `http://2130706433:${port}`,
  `http://0177.0.0.1:${port}`,
  `http://0x7f.1:${port}`,
  `http://0.0.0.0:${port}`,
  "http://10.0.0.1",
  "http://192.168.1.20",
  "http://169.254.169.254/latest/meta-data",
  "http://[fd00::1]",
  "http://[fe80::1]",
];

function wooStore(siteUrl: string) {
  return {
    order_store: {
      name: "Woo",
      service_type: "woocommerce",
      credentials: { site_url: siteUrl, consumer_key: "ck_1", consumer_secret: "cs_1" },
    },
  };
}

describe("WooCommerce site addresses pass the outbound guard", () => {
  const site = new LocalSite((response) => response.writeHead(500).end(SECRET_BODY));
  let port: number;
  let t: TestApp;
  let merchant: TestAccount;
  let child: TestAccount;
  const call = apiCaller(() => t);

  beforeAll(async () => {
    port = await site.start();
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    child = await createTestAccount(t.services, { parentId: merchant.accountId });
  });
  afterAll(async () => {
    await t.close();
    await site.stop();
  });

  it("refuses a store pointing at this machine or a private network, for any key", async () => {
    for (const url of refusedSiteUrls(port)) {
      for (const who of [merchant, child]) {
        const created = await call(who.auth, "POST", "/order_stores", wooStore(url));
        expect(created.statusCode, `${url}: ${created.body}`).toBe(422);
        expect(created.json().error_code).toBe("order_store.credentials_invalid");
      }
    }
    const public_ = await call(merchant.auth, "POST", "/order_stores", wooStore("https://8.8.8.8/shop"));
    expect(public_.statusCode, public_.body).toBe(201);
    const changed = await call(merchant.auth, "PUT", `/order_stores/${public_.json().order_store.id}`, {
      order_store: wooStore(`http://2130706433:${port}`).order_store,
    });
    expect(changed.statusCode, changed.body).toBe(422);
    expect(site.requests).toBe(0);
  });

  it("checks the address again when the sync connects, and sends nothing to a private one", async () => {
    const created = await call(merchant.auth, "POST", "/order_stores", wooStore("https://8.8.8.8/shop"));
    expect(created.statusCode, created.body).toBe(201);
    const storeId = created.json().order_store.id;
    // The address changed under the store (as a DNS answer can): the connection is refused all the same.
    for (const url of [`http://127.0.0.1:${port}`, `https://[::127.0.0.1]:${port}`, `http://localhost.:${port}`]) {
      const credentials = { site_url: url, consumer_key: "ck_1", consumer_secret: "cs_1" };
      await t.services.db
        .updateTable("order_stores")
        .set({ credentials_sealed: t.services.secrets.seal(JSON.stringify(credentials)) })
        .where("id", "=", storeId)
        .execute();
      const synced = await syncOrderStore(t.services, { storeId });
      expect(synced?.sync_status, url).toBe("failed");
      expect(synced?.sync_error, url).toMatch(/refused/);
    }
    expect(site.requests).toBe(0);
  });
});

describe("what an allowed site answers reaches the caller only as a status", () => {
  const target = new LocalSite((response) => response.writeHead(200).end("{}"));
  let targetPort: number;
  const redirecting = new LocalSite((response) =>
    response.writeHead(302, { location: `http://127.0.0.1:${targetPort}/wp-json/wc/v3/orders` }).end(SECRET_BODY),
  );
  const failing = new LocalSite((response) => response.writeHead(500).end(SECRET_BODY));
  const notJson = new LocalSite((response) => response.writeHead(200).end(SECRET_BODY));
  const refusing = new LocalSite((response) =>
    response.writeHead(401).end(JSON.stringify({ code: SECRET_BODY, message: SECRET_BODY })),
  );
  let t: TestApp;
  let merchant: TestAccount;
  const call = apiCaller(() => t);

  beforeAll(async () => {
    targetPort = await target.start();
    t = await buildTestApp({ config: { outboundAllowPrivateTargets: ["127.0.0.0/8"] } });
    merchant = await createTestAccount(t.services);
  });
  afterAll(async () => {
    await t.close();
    for (const site of [target, redirecting, failing, notJson, refusing]) await site.stop();
  });

  it.each([
    ["a redirect, not followed", redirecting, /302/],
    ["a server error", failing, /500/],
    ["an answer not JSON", notJson, /not JSON/],
    ["a refusal in WooCommerce's words", refusing, /401/],
  ])("%s", async (_name, site, expected) => {
    const port = await site.start();
    const created = await call(merchant.auth, "POST", "/order_stores", wooStore(`http://127.0.0.1:${port}`));
    expect(created.statusCode, created.body).toBe(201);
    const storeId = created.json().order_store.id;
    await syncOrderStore(t.services, { storeId });
    const shown = await call(merchant.auth, "GET", `/order_stores/${storeId}/sync`);
    expect(shown.statusCode).toBe(200);
    const sync = shown.json().sync;
    expect(sync.status).toBe("failed");
    expect(sync.error).toMatch(expected);
    expect(shown.body).not.toContain(SECRET_BODY);
    expect(site.requests).toBeGreaterThan(0);
    expect(target.requests).toBe(0);
  });
});
