import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelPreviewPng } from "../../src/labels/images/label-preview.js";
import { sharp } from "../../src/labels/sharp.js";
import { addTestUser, buildTestApp, createTestTenants, type TestApp, type TestTenants } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { SMALL_BOX, shipmentToBuy } from "../helpers/shipments.js";
import { scanImage } from "../unit/labels/label-tools.js";

const UPS_GROUND = 666;
/** Drawing a ZPL label takes seconds of CPU on a busy machine, loading the renderer more. */
const DRAWING_MS = 90_000;

/**
 * GET /shipments/{id}/label_preview: a parcel's label as a PNG, ZPL and EPL2 drawn as the printer
 * would (Porter's and a carrier's), rasters re-encoded; PDF refused; only the caller's own
 * shipments, and only with the shipping permission.
 */
describe("the label preview", { timeout: DRAWING_MS }, () => {
  let t: TestApp;
  let tenants: TestTenants;
  const bought: Record<string, { id: number; trackingNumber: string; parcelIds: number[] }> = {};

  async function buy(format: string, parcels = [SMALL_BOX]) {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: tenants.merchant.auth,
      payload: { shipment: shipmentToBuy({ service_id: UPS_GROUND, label_format: format, parcels }) },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { shipment } = response.json();
    return {
      id: shipment.id as number,
      trackingNumber: shipment.parcels[0].tracking_number as string,
      parcelIds: shipment.parcels.map((p: { id: number }) => p.id),
    };
  }

  const preview = (id: number, headers: Record<string, string> = tenants.merchant.auth, query = "") =>
    t.app.inject({ method: "GET", url: `/api/v2/shipments/${id}/label_preview${query}`, headers });

  beforeAll(async () => {
    t = await buildTestApp();
    tenants = await createTestTenants(t.services);
    await connectSandboxCarriers(t.services, tenants.merchant.accountId);
    bought.zpl = await buy("zpl", [SMALL_BOX, { ...SMALL_BOX, weight: 40 }]);
    bought.gif = await buy("gif");
    bought.pdf = await buy("pdf");
    bought.epl2 = await buy("epl2");
  });
  afterAll(() => t.close());

  it.each(["zpl", "epl2"])(
    "draws a %s label as a 4×6 PNG at the printer's 8 dots a millimetre, its barcode readable",
    async (labelFormat) => {
      const answer = await preview(bought[labelFormat]?.id ?? 0);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers["content-type"]).toBe("image/png");
      const { width, height, format } = await sharp(answer.rawPayload).metadata();
      expect({ width, height, format }).toEqual({ width: 813, height: 1220, format: "png" });
      expect(await scanImage(answer.rawPayload)).toContainEqual({
        symbology: "Code 128",
        text: bought[labelFormat]?.trackingNumber,
      });
    },
  );

  it("draws the parcel asked for with parcel_id, and 404s a parcel of another shipment", async () => {
    const [, second] = bought.zpl?.parcelIds ?? [];
    const answer = await preview(bought.zpl?.id ?? 0, undefined, `?parcel_id=${second}`);
    expect(answer.statusCode).toBe(200);
    const tracking = await t.services.db
      .selectFrom("parcels")
      .select("tracking_number")
      .where("id", "=", second ?? 0)
      .executeTakeFirstOrThrow();
    expect((await scanImage(answer.rawPayload)).map((s) => s.text)).toContain(tracking.tracking_number);
    const foreign = await preview(bought.zpl?.id ?? 0, undefined, `?parcel_id=${bought.gif?.parcelIds[0]}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error_code).toBe("parcel.not_found");
  });

  it("draws ZPL as a carrier writes it, not only Porter's own, and fails on what is not ZPL", async () => {
    const carrierZpl = [
      "^XA^CI28^PW812^LL1218^LH0,0",
      "^FO20,20^GB772,300,4^FS",
      "^FO40,40^A0N,40,40^FDSHIP TO: JO SMITH^FS",
      "^FO40,100^A0N,30,30^FD1 QUEEN ST W, TORONTO ON M5H 2N2^FS",
      "^BY3,3,160^FO60,400^BCN,160,Y,N,N^FD1Z999AA10123456784^FS",
      "^PQ1^XZ",
    ].join("\n");
    const png = await labelPreviewPng({
      bytes: Buffer.from(carrierZpl, "latin1"),
      format: "zpl",
      widthIn: 4,
      heightIn: 6,
      dpi: 203,
    });
    expect(await scanImage(png)).toContainEqual({ symbology: "Code 128", text: "1Z999AA10123456784" });
    const unreadable = { bytes: Buffer.from("not a label"), format: "zpl", widthIn: 4, heightIn: 6, dpi: 203 } as const;
    await expect(labelPreviewPng(unreadable)).rejects.toThrow(/could not be drawn/);
  });

  it("re-encodes an image label as PNG", async () => {
    const answer = await preview(bought.gif?.id ?? 0);
    expect(answer.statusCode).toBe(200);
    expect((await sharp(answer.rawPayload).metadata()).format).toBe("png");
    expect(await scanImage(answer.rawPayload)).toContainEqual({
      symbology: "Code 128",
      text: bought.gif?.trackingNumber,
    });
  });

  it("refuses PDF labels and an EPL2 file it cannot read with 422 label_preview.unavailable", async () => {
    const pdf = await preview(bought.pdf?.id ?? 0);
    expect(pdf.statusCode).toBe(422);
    expect(pdf.json().error_code).toBe("label_preview.unavailable");
    // Stored files are written once: the label's row is pointed at a damaged file instead.
    await t.services.files.put("damaged.epl", Buffer.from('N\nA10,10,0,2,1,1,N,"unterminated\nP1\n'));
    await t.services.db
      .updateTable("labels")
      .set({ file_name: "damaged.epl" })
      .where("parcel_id", "=", bought.epl2?.parcelIds[0] ?? 0)
      .execute();
    const broken = await preview(bought.epl2?.id ?? 0);
    expect(broken.statusCode, broken.body).toBe(422);
    expect(broken.json().error_code).toBe("label_preview.unavailable");
  });

  it("answers 404 for another account's shipment, a child's, and the other mode's", async () => {
    const id = bought.zpl?.id ?? 0;
    for (const headers of [
      tenants.other.auth,
      tenants.child.auth,
      { authorization: `Bearer ${tenants.merchant.keys.production}` },
    ]) {
      const answer = await preview(id, headers);
      expect(answer.statusCode).toBe(404);
      expect(answer.json().error_code).toBe("shipment.not_found");
    }
  });

  it("needs a key (401) and the shipping permission (403)", async () => {
    const anonymous = await preview(bought.zpl?.id ?? 0, {});
    expect(anonymous.statusCode).toBe(401);
    const payer = await addTestUser(t.services, tenants.merchant.accountId, ["API"]);
    await t.services.db.updateTable("users").set({ roles: "Billing" }).where("id", "=", payer.userId).execute();
    const refused = await preview(bought.zpl?.id ?? 0, payer.auth);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error_code).toBe("errors.forbidden");
  });
});
