import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX } from "../helpers/shipments.js";
import { scanImage, scanPdf } from "../unit/labels/label-tools.js";

describe("a bought label scans: its barcode decodes to the parcel's tracking number", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await fundMeter(t.services, merchant);
    await connectSandboxCarriers(t.services, merchant.accountId);
  });
  afterAll(async () => {
    await t.close();
  });

  async function buy(serviceId: number, format: string) {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: { authorization: `Bearer ${merchant.keys.production}` },
      payload: {
        shipment: {
          to_location: SALT_LAKE_RESIDENCE,
          from_location: LOS_ANGELES_WAREHOUSE,
          parcels: [SMALL_BOX],
          service_id: serviceId,
          label_format: format,
          label_size: "4x6",
        },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const parcel = response.json().shipment.parcels[0];
    const file = await t.app.inject({ method: "GET", url: new URL(parcel.postage_label.image_url).pathname });
    expect(file.statusCode).toBe(200);
    return { trackingNumber: parcel.tracking_number as string, bytes: file.rawPayload };
  }

  it("UPS Ground PNG: the Code 128 is the 1Z number", async () => {
    const { trackingNumber, bytes } = await buy(666, "png");
    expect(await scanImage(bytes)).toContainEqual({ symbology: "Code 128", text: trackingNumber });
  });

  it("USPS Ground Advantage PDF: the IMpb is 420 + ZIP + the tracking number", async () => {
    const { trackingNumber, bytes } = await buy(1172, "pdf");
    expect(await scanPdf(bytes)).toContainEqual({
      symbology: "GS1-128",
      text: `420${SALT_LAKE_RESIDENCE.postal_code}\x1d${trackingNumber}`,
    });
  });
});
