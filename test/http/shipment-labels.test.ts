/**
 * Labels bought through the API read like the carriers' own: street lines no longer than the
 * carriers take, the destination country by its name, the font embedded in PDFs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createTestAccount, fundMeter, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX, TORONTO_RESIDENCE } from "../helpers/shipments.js";
import { readPdf } from "../unit/labels/label-tools.js";

const GROUND_ADVANTAGE = 1172;
const PRIORITY_INTERNATIONAL = 691;
const LINE_35 = "12345 North Cucamonga Boulevard W 9";
const LINE_36 = `${LINE_35}9`;

function shipment(overrides: Record<string, unknown> = {}) {
  return {
    to_location: SALT_LAKE_RESIDENCE,
    from_location: LOS_ANGELES_WAREHOUSE,
    parcels: [SMALL_BOX],
    service_id: GROUND_ADVANTAGE,
    label_format: "pdf",
    label_size: "4x6",
    ...overrides,
  };
}

describe("label text through the API", () => {
  let t: TestApp;
  let merchant: TestAccount;

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await fundMeter(t.services, merchant);
    await connectSandboxCarriers(t.services, merchant.accountId);
  });
  afterAll(() => t.close());

  const ship = (body: object) =>
    t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship",
      headers: merchant.auth,
      payload: { shipment: body },
    });
  const labelOf = async (response: {
    json(): { shipment: { parcels: Array<{ postage_label: { image_url: string } }> } };
  }) => {
    const url = response.json().shipment.parcels[0]?.postage_label.image_url as string;
    const file = await t.app.inject({ method: "GET", url: new URL(url).pathname });
    return file.rawPayload;
  };

  it("buys a label whose street line is exactly 35 characters, printed whole", async () => {
    expect(LINE_35).toHaveLength(35);
    const response = await ship(shipment({ to_location: { ...SALT_LAKE_RESIDENCE, address1: LINE_35 } }));
    expect(response.statusCode, response.body).toBe(201);
    expect(readPdf(await labelOf(response)).text).toContain(LINE_35.toUpperCase());
  });

  it.each([
    ["to_location", "address1"],
    ["to_location", "address2"],
    ["from_location", "address3"],
    ["return_location", "address1"],
  ])("refuses a %s.%s of 36 characters with 422, naming the field, before anything is bought", async (field, line) => {
    const base = field === "from_location" ? LOS_ANGELES_WAREHOUSE : SALT_LAKE_RESIDENCE;
    const response = await ship(shipment({ [field]: { ...base, [line]: LINE_36 } }));
    expect(response.statusCode, response.body).toBe(422);
    const body = response.json();
    expect(body.status).toBe("error");
    expect(body.error_code).toBe("shipment.address_line_too_long");
    expect(body.error_message).toContain(`shipment.${field}.${line} is 36 characters`);
    expect(body.error_message).toContain("at most 35");
    const bought = await t.services.db.selectFrom("shipments").select("id").execute();
    expect(bought).toHaveLength(1);
  });

  it("names the shipment of a ship_multiple request whose street line is too long", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v2/shipments/ship_multiple",
      headers: merchant.auth,
      payload: { shipments: [shipment(), shipment({ to_location: { ...SALT_LAKE_RESIDENCE, address1: LINE_36 } })] },
    });
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().error_message).toContain("address1 is 36 characters");
  });

  it("prints CANADA, not CA, on a USPS label to Toronto, in an embedded font", async () => {
    const response = await ship(
      shipment({
        to_location: TORONTO_RESIDENCE,
        service_id: PRIORITY_INTERNATIONAL,
        parcels: [
          {
            ...SMALL_BOX,
            parcel_items: [
              {
                name: "Wool sweater",
                description: "Knitted wool sweater",
                quantity: 2,
                weight: 8,
                price: 20,
                country_of_origin: "US",
                customs_data: { content_type: "merchandise", hs_tariff_code: "6110.11", eel_pfc: "NOEEI 30.37(a)" },
              },
            ],
          },
        ],
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const pdf = readPdf(await labelOf(response));
    expect(pdf.text).toContain("CANADA");
    expect(pdf.text.split("\n")).not.toContain("CA");
    expect(pdf.fonts.every((font) => font.embedded)).toBe(true);
  });
});
