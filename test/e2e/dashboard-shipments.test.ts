import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAccount, TestApp } from "../helpers/app.js";
import { type Dashboard, fillAddress, openDashboard } from "../helpers/dashboard-browser.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, shipmentToBuy, TORONTO_RESIDENCE } from "../helpers/shipments.js";

const UPS_GROUND = 666;
/** The server draws a ZPL label in seconds of CPU on a busy machine, loading its renderer first. */
const DRAWING_MS = 90_000;
/**
 * The shipment pages in Chromium: buying a two-parcel label and an international one with its
 * customs declaration through the form (rated first, the API's refusal shown beside it), a ZPL
 * label previewed as an image and printed, an EPL2 one previewed; axe-core finds nothing and the
 * policy refuses nothing.
 */
describe("the dashboard's shipment pages in a browser", { timeout: DRAWING_MS }, () => {
  let dashboard: Dashboard;
  let t: TestApp;
  let merchant: TestAccount;
  let page: Page;
  let zplShipment: { id: number; trackingNumber: string };
  let eplShipment: { id: number; trackingNumber: string };

  beforeAll(async () => {
    dashboard = await openDashboard();
    ({ t, merchant, page } = dashboard);
    // The browser's own print dialog cannot be driven: the page's print() only counts its calls.
    await page.addInitScript({
      content:
        "window.print = () => { document.documentElement.dataset.printed = String(Number(document.documentElement.dataset.printed ?? 0) + 1); };",
    });
    const buy = async (labelFormat: string) => {
      const bought = await t.app.inject({
        method: "POST",
        url: "/api/v2/shipments/ship",
        headers: merchant.auth,
        payload: { shipment: shipmentToBuy({ service_id: UPS_GROUND, label_format: labelFormat }) },
      });
      expect(bought.statusCode, bought.body).toBe(201);
      const { shipment } = bought.json();
      return { id: shipment.id as number, trackingNumber: shipment.tracking_number as string };
    };
    zplShipment = await buy("zpl");
    eplShipment = await buy("epl2");
    await dashboard.signIn();
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  async function openForm() {
    await page.getByRole("link", { name: "Buy a label" }).click();
    await page.getByRole("heading", { name: "Buy a label" }).waitFor();
  }
  async function rateAndChoose(service: RegExp) {
    await page.getByRole("button", { name: "Get rates" }).click();
    await page.getByRole("radio", { name: service }).check();
  }
  async function boughtShipment() {
    await page.getByRole("heading", { name: /^Shipment \w+$/ }).waitFor();
    const id = Number(new URL(page.url()).hash.split("/").at(-1));
    const parcels = await t.services.db
      .selectFrom("parcels")
      .innerJoin("shipments", "shipments.id", "parcels.shipment_id")
      .select(["shipments.account_id", "parcels.weight", "parcels.parcel_items"])
      .where("shipments.id", "=", id)
      .orderBy("parcels.position")
      .execute();
    return { id, parcels };
  }

  it("buys a two-parcel UPS label in ZPL from the form", async () => {
    await openForm();
    await fillAddress(page, "Ship from", LOS_ANGELES_WAREHOUSE);
    await fillAddress(page, "Ship to", SALT_LAKE_RESIDENCE);
    await page.getByRole("button", { name: "Add a parcel" }).click();
    await page.getByRole("group", { name: "Parcel 2" }).getByLabel("Weight (oz)").fill("40");
    await page.getByLabel("Label format").selectOption("zpl");
    expect(await page.getByRole("group", { name: "Customs declaration" }).count()).toBe(0);
    await rateAndChoose(/^UPS .*Ground —/);
    await page.getByRole("button", { name: "Buy label" }).click();
    const { parcels } = await boughtShipment();
    expect(parcels.map((p) => [p.account_id, p.weight])).toEqual([
      [merchant.accountId, 16],
      [merchant.accountId, 40],
    ]);
    await page
      .getByRole("img", { name: /^Label for / })
      .first()
      .waitFor();
  });

  it("asks for customs abroad, shows the API's refusal beside the form, then buys with the declaration", async () => {
    await openForm();
    await fillAddress(page, "Ship from", LOS_ANGELES_WAREHOUSE);
    await fillAddress(page, "Ship to", TORONTO_RESIDENCE);
    const customs = page.getByRole("group", { name: "Customs declaration" });
    await customs.waitFor();
    const item = customs.getByRole("group", { name: "Item 1" });
    await item.getByLabel("Description").fill("Cotton T-shirt");
    await item.getByLabel("Quantity").fill("2");
    await item.getByLabel("Value each (USD)").fill("12.50");
    await item.getByLabel("Weight each (oz)").fill("8");
    await item.getByLabel("HS tariff code").fill("6109.10");
    await item.getByLabel("Origin country code").fill("PE");
    await customs.getByLabel("EEL or PFC").fill("");
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    await rateAndChoose(/^USPS Priority Mail International —/);
    await page.getByRole("button", { name: "Buy label" }).click();
    const refusal = page.getByRole("group", { name: "Rates" }).getByRole("alert");
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain("customs_data.eel_pfc");
    await customs.getByLabel("EEL or PFC").fill("NOEEI 30.37(a)");
    await page.getByRole("button", { name: "Buy label" }).click();
    const { parcels } = await boughtShipment();
    expect(parcels).toHaveLength(1);
    expect(JSON.parse(parcels[0]?.parcel_items ?? "[]")).toMatchObject([
      {
        description: "Cotton T-shirt",
        quantity: 2,
        weight: 8,
        country_of_origin: "PE",
        customs_data: {
          content_type: "merchandise",
          hs_tariff_code: "6109.10",
          eel_pfc: "NOEEI 30.37(a)",
          value: 12.5,
        },
      },
    ]);
  });

  /** The shipment's page once its label's image has arrived and decoded. */
  async function previewed(shipment: { id: number; trackingNumber: string }) {
    await page.goto(`${dashboard.base}/dashboard/#/shipments/${shipment.id}`);
    await page.getByRole("heading", { name: `Shipment ${shipment.trackingNumber}` }).waitFor();
    const image = page.getByRole("img", { name: `Label for ${shipment.trackingNumber}` });
    await image.waitFor();
    // A broken image has no natural width.
    await expect
      .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), {
        timeout: DRAWING_MS,
      })
      .toBeGreaterThan(0);
    return image;
  }

  it("previews a ZPL label as an image and prints it", async () => {
    const image = await previewed(zplShipment);
    expect(await image.getAttribute("src")).toBe(
      `/api/v2/shipments/${zplShipment.id}/label_preview?parcel_id=${await parcelIdOf(zplShipment.id)}`,
    );
    await page.getByRole("button", { name: `Print the label for ${zplShipment.trackingNumber}` }).click();
    expect(await page.evaluate("document.documentElement.dataset.printed")).toBe("1");
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    expect(dashboard.refused).toEqual([]);
  });

  it("previews an EPL2 label as an image", async () => {
    await previewed(eplShipment);
    expect(await page.getByText("could not be drawn").count()).toBe(0);
    expect(dashboard.refused).toEqual([]);
  });

  async function parcelIdOf(shipmentId: number) {
    const parcel = await t.services.db
      .selectFrom("parcels")
      .select("id")
      .where("shipment_id", "=", shipmentId)
      .executeTakeFirstOrThrow();
    return parcel.id;
  }
});
