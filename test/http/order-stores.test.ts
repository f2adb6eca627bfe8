import { describe, expect, it } from "vitest";
import { apiCaller, liveAuth, type TestAccount, tenantsApp } from "../helpers/app.js";

const STORE_KEYS = ["created_at", "external_id", "id", "name", "service_type", "updated_at"];
const SHOPIFY = { shop_domain: "porter-demo.myshopify.com", access_token: "shpat_0123456789abcdef0123456789abcdef" };

describe("order stores", () => {
  const s = tenantsApp();

  const call = apiCaller(() => s.t);
  const createStore = (auth: TestAccount["auth"], store: object, prefix = "") =>
    call(auth, "POST", `${prefix}/order_stores`, { order_store: store });

  it("creates a custom store (201, every documented key) and lists it", async () => {
    s.t.clock.set(new Date("2026-03-02T15:00:00.000Z"));
    const created = await createStore(s.merchant.auth, { name: "Web shop", service_type: "custom" });
    expect(created.statusCode).toBe(201);
    const store = created.json().order_store;
    expect(Object.keys(store).sort()).toEqual(STORE_KEYS);
    expect(store).toMatchObject({
      name: "Web shop",
      service_type: "custom",
      external_id: null,
      created_at: "2026-03-02T15:00:00.000Z",
      updated_at: "2026-03-02T15:00:00.000Z",
    });
    const list = (await call(s.merchant.auth, "GET", "/order_stores")).json().order_stores;
    expect(list.map((s: { id: number }) => s.id)).toContain(store.id);
    expect((await call(s.merchant.auth, "GET", `/order_stores/${store.id}`)).json().order_store).toEqual(store);
  });

  it("seals a platform store's credentials and never returns them", async () => {
    const created = await createStore(s.merchant.auth, {
      name: "Shopify",
      service_type: "shopify",
      credentials: SHOPIFY,
    });
    expect(created.statusCode).toBe(201);
    const store = created.json().order_store;
    expect(JSON.stringify(store)).not.toContain("shpat_");
    const row = await s.t.services.db
      .selectFrom("order_stores")
      .selectAll()
      .where("id", "=", store.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain("shpat_");
    expect(JSON.parse(s.t.services.secrets.open(row.credentials_sealed))).toEqual(SHOPIFY);
  });

  it("refuses a platform store without its credentials (422)", async () => {
    const missing = await createStore(s.merchant.auth, {
      name: "Woo",
      service_type: "woocommerce",
      credentials: { site_url: "https://shop.example.com", consumer_key: "ck_1" },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ status: "error", error_code: "order_store.credentials_missing" });
    expect(missing.json().error_message).toContain("consumer_secret");
    const badType = await createStore(s.merchant.auth, { name: "X", service_type: "magento" });
    expect(badType.statusCode).toBe(400);
  });

  it("renames, replaces credentials and deletes a store", async () => {
    const store = (
      await createStore(s.merchant.auth, { name: "Old", service_type: "shopify", credentials: SHOPIFY })
    ).json().order_store;
    s.t.clock.advance(60_000);
    const renamed = await call(s.merchant.auth, "PUT", `/order_stores/${store.id}`, {
      order_store: { name: "New", credentials: { ...SHOPIFY, access_token: "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" } },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().order_store).toMatchObject({ name: "New", service_type: "shopify" });
    expect(renamed.json().order_store.updated_at).not.toBe(store.updated_at);
    const row = await s.t.services.db
      .selectFrom("order_stores")
      .select("credentials_sealed")
      .where("id", "=", store.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(s.t.services.secrets.open(row.credentials_sealed)).access_token).toBe(
      "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",
    );
    const incomplete = await call(s.merchant.auth, "PUT", `/order_stores/${store.id}`, {
      order_store: { credentials: { shop_domain: "x.myshopify.com" } },
    });
    expect(incomplete.json().error_code).toBe("order_store.credentials_missing");

    expect((await call(s.merchant.auth, "DELETE", `/order_stores/${store.id}`)).statusCode).toBe(204);
    const gone = await call(s.merchant.auth, "GET", `/order_stores/${store.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ status: "error", error_code: "order_store.not_found" });
    expect((await call(s.merchant.auth, "DELETE", `/order_stores/${store.id}`)).statusCode).toBe(404);
  });

  it("keeps stores inside their account and mode, and serves a child through the child form", async () => {
    const store = (await createStore(s.merchant.auth, { name: "Mine", service_type: "custom" })).json().order_store;
    for (const method of ["GET", "DELETE"] as const) {
      const foreign = await call(s.other.auth, method, `/order_stores/${store.id}`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error_code).toBe("order_store.not_found");
    }
    const foreignPut = await call(s.other.auth, "PUT", `/order_stores/${store.id}`, {
      order_store: { name: "Stolen" },
    });
    expect(foreignPut.statusCode).toBe(404);
    expect((await call(s.other.auth, "GET", "/order_stores")).json().order_stores).toEqual([]);
    expect((await call(liveAuth(s.merchant), "GET", `/order_stores/${store.id}`)).statusCode).toBe(404);
    expect((await call(liveAuth(s.merchant), "GET", "/order_stores")).json().order_stores).toEqual([]);

    const prefix = `/customers/${s.child.accountId}`;
    const forChild = await createStore(s.merchant.auth, { name: "Child shop", service_type: "custom" }, prefix);
    expect(forChild.statusCode).toBe(201);
    const childStore = forChild.json().order_store;
    expect((await call(s.child.auth, "GET", "/order_stores")).json().order_stores).toEqual([childStore]);
    expect((await call(s.merchant.auth, "GET", `${prefix}/order_stores/${childStore.id}`)).statusCode).toBe(200);
    expect((await call(s.merchant.auth, "GET", `/order_stores/${childStore.id}`)).statusCode).toBe(404);
    const notMine = await call(s.merchant.auth, "GET", `/customers/${s.other.accountId}/order_stores`);
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().error_code).toBe("customer.not_found");
  });
});
