import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_KEYS, VALIDATED_ADDRESS_KEYS } from "../../src/http/routes/wire/address.js";
import {
  ACCOUNTING_CONTACT_KEYS,
  CUSTOMER_KEYS,
  CUSTOMER_USER_KEYS,
  TEMPLATE_DATA_KEYS,
  TEMPLATE_PAYMENT_KEYS,
} from "../../src/http/routes/wire/customer.js";
import { CUSTOMS_DATA_KEYS } from "../../src/http/routes/wire/customs-data.js";
import { PARCEL_ITEM_KEYS } from "../../src/http/routes/wire/parcel-item.js";
import {
  PARCEL_KEYS,
  POSTAGE_LABEL_KEYS,
  SHIPMENT_KEYS,
  SHIPMENT_PAYMENT_KEYS,
} from "../../src/http/routes/wire/shipment-keys.js";
import { buildTestApp, createTestAccount, type TestAccount, type TestApp } from "../helpers/app.js";
import { connectSandboxCarriers } from "../helpers/carriers.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE, SMALL_BOX, shipmentToBuy } from "../helpers/shipments.js";

type Json = Record<string, unknown>;

/** Porter's own keys after the documented ones (the reference's lists come first, in order). */
const EXTRAS = {
  shipment: [
    "shipping_cost_details",
    "tracking_info",
    "ship_date",
    "public_tracking_url",
    "is_return",
    "return_type",
    "outbound_shipment_id",
  ],
  parcel: ["name"],
  postageLabel: ["file_format"],
  parcelItem: ["description"],
  customer: ["created_at"],
};

/** Every item field the reference documents, with a value, to see that each one comes back. */
const FULL_ITEM = {
  id: 1877,
  item_id: "823",
  name: "Wrist Band",
  accounting_number: "AC-17",
  variant_name: "Blue / L",
  variant_id: 44,
  variant_option1: "Blue",
  variant_option2: "L",
  variant_option3: "Cotton",
  image_src: "https://shop.example/band.png",
  external_id: "ext-9",
  sku: "WB-BLUE-L",
  weight: 3,
  length: 4,
  width: 3,
  height: 1,
  quantity: 2,
  price: 3.5,
  cost: 7,
  country_of_origin: "US",
  customs_data: { content_type: "merchandise", hs_tariff_code: "6117.80", eel_pfc: "NOEEI 30.37(a)", value: 3.5 },
};

describe("every documented key, on every endpoint that answers with the object", () => {
  let t: TestApp;
  let merchant: TestAccount;
  const shipments: Record<string, Json> = {};

  const request = (method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: merchant.auth, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await buildTestApp();
    merchant = await createTestAccount(t.services);
    await connectSandboxCarriers(t.services, merchant.accountId);
    const toShip = shipmentToBuy({
      parcels: [{ ...SMALL_BOX, parcel_items: [FULL_ITEM, { name: "Sticker", quantity: 1 }] }],
    });
    const shipped = await request("POST", "/api/v2/shipments/ship", { shipment: toShip });
    expect(shipped.statusCode, shipped.body).toBe(201);
    shipments.ship = shipped.json().shipment;
    const multiple = await request("POST", "/api/v2/shipments/ship_multiple", { shipments: [toShip] });
    expect(multiple.statusCode, multiple.body).toBe(201);
    shipments.ship_multiple = multiple.json().shipments[0];
    const id = (shipments.ship as Json).id;
    shipments.retrieve = (await request("GET", `/api/v2/shipments/${id}`)).json().shipment;
    shipments.list = (await request("GET", "/api/v2/shipments")).json().shipments[0];
    const cancelled = await request("PUT", `/api/v2/shipments/${id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    shipments.cancel = cancelled.json().shipment;
  });
  afterAll(() => t.close());

  const eachShipment = () => Object.entries(shipments);
  const parcelsOf = (shipment: Json) => shipment.parcels as Json[];
  const itemsOf = (shipment: Json) => parcelsOf(shipment).flatMap((parcel) => parcel.parcel_items as Json[]);

  it("shipment: the Shipment-out keys, with the nested payment, from ship, ship_multiple, retrieve, list and cancel", () => {
    expect(Object.keys(shipments)).toEqual(["ship", "ship_multiple", "retrieve", "list", "cancel"]);
    for (const [endpoint, shipment] of eachShipment()) {
      expect(Object.keys(shipment), endpoint).toEqual([...SHIPMENT_KEYS, ...EXTRAS.shipment]);
      expect(Object.keys(shipment.payment as Json), endpoint).toEqual([...SHIPMENT_PAYMENT_KEYS]);
      expect(shipment).toMatchObject({ external_id: null, pickup_id: null });
    }
  });

  it("address: Addr-out for to, from and return locations; the return address is the sender's when none was sent", () => {
    for (const [endpoint, shipment] of eachShipment()) {
      for (const side of ["to_location", "from_location", "return_location"]) {
        expect(Object.keys(shipment[side] as Json), `${endpoint} ${side}`).toEqual([...ADDRESS_KEYS]);
      }
      expect(shipment.return_location, endpoint).toEqual(shipment.from_location);
      expect(shipment.to_location, endpoint).toMatchObject({
        ...SALT_LAKE_RESIDENCE,
        external_id: null,
        company: null,
        nick_name: null,
        address2: null,
        address3: null,
        email: null,
      });
    }
  });

  it("parcel and postage_label: every key, with null where Porter has no value", () => {
    for (const [endpoint, shipment] of eachShipment()) {
      for (const parcel of parcelsOf(shipment)) {
        expect(Object.keys(parcel), endpoint).toEqual([...PARCEL_KEYS, ...EXTRAS.parcel]);
        expect(parcel, endpoint).toMatchObject({
          external_shipment_id: null,
          description: null,
          customs_data: null,
          rate_calc_type: "standard",
        });
        expect(Object.keys(parcel.postage_label as Json), endpoint).toEqual([
          ...POSTAGE_LABEL_KEYS,
          ...EXTRAS.postageLabel,
        ]);
        expect((parcel.postage_label as Json).base64_image, endpoint).toBeNull();
      }
    }
  });

  it("parcel item and customs_data: every key; what was sent comes back, what was not is null", () => {
    for (const [endpoint, shipment] of eachShipment()) {
      const [full, bare] = itemsOf(shipment) as [Json, Json];
      for (const item of [full, bare]) {
        expect(Object.keys(item), endpoint).toEqual([...PARCEL_ITEM_KEYS, ...EXTRAS.parcelItem]);
      }
      expect(full, endpoint).toEqual({
        ...FULL_ITEM,
        customs_data: { no_delivery: null, ...FULL_ITEM.customs_data },
        description: null,
      });
      expect(Object.keys(full.customs_data as Json), endpoint).toEqual([...CUSTOMS_DATA_KEYS]);
      expect(bare, endpoint).toMatchObject({ name: "Sticker", sku: null, variant_id: null, customs_data: null });
    }
  });

  it("customs_data of a parcel: every key when one was sent", async () => {
    const shipped = await request("POST", "/api/v2/shipments/ship", {
      shipment: shipmentToBuy({ parcels: [{ ...SMALL_BOX, customs_data: { content_type: "gift", value: 12.5 } }] }),
    });
    expect(shipped.statusCode, shipped.body).toBe(201);
    const [parcel] = parcelsOf(shipped.json().shipment);
    expect(parcel?.customs_data).toEqual({
      content_type: "gift",
      no_delivery: null,
      hs_tariff_code: null,
      value: 12.5,
      eel_pfc: null,
    });
  });

  it("keeps a return address sent with a nick name, with every key", async () => {
    const returnTo = { ...LOS_ANGELES_WAREHOUSE, company: "Acme Returns", nick_name: "Returns desk" };
    const shipped = await request("POST", "/api/v2/shipments/ship", {
      shipment: shipmentToBuy({ return_location: returnTo, inline_image: true }),
    });
    expect(shipped.statusCode, shipped.body).toBe(201);
    const body = shipped.json().shipment;
    expect(Object.keys(body.return_location)).toEqual([...ADDRESS_KEYS]);
    expect(body.return_location).toMatchObject(returnTo);
    expect(body.parcels[0].postage_label.base64_image).toEqual(expect.any(String));
  });

  it("customer: every key, with template_data's accounting_contact and payment, from create, list and get", async () => {
    const created = await request("POST", "/api/v2/customers", {
      customer: { name: "Keys Outlet", user: { email: "keys@outlet.example" } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const fromCreate = created.json().customer as Json;
    const fromList = ((await request("GET", "/api/v2/customers")).json().customers as Json[])[0] as Json;
    const fromGet = (await request("GET", `/api/v2/customers/${fromCreate.id}`)).json() as Json;
    for (const [endpoint, customer] of Object.entries({ create: fromCreate, list: fromList, get: fromGet })) {
      expect(Object.keys(customer), endpoint).toEqual([...CUSTOMER_KEYS, ...EXTRAS.customer]);
      expect(Object.keys(customer.user as Json), endpoint).toEqual([...CUSTOMER_USER_KEYS]);
      const template = customer.template_data as Json;
      expect(Object.keys(template), endpoint).toEqual([...TEMPLATE_DATA_KEYS]);
      expect(Object.keys(template.accounting_contact as Json), endpoint).toEqual([...ACCOUNTING_CONTACT_KEYS]);
      expect(template.payment, endpoint).toEqual(Object.fromEntries(TEMPLATE_PAYMENT_KEYS.map((key) => [key, null])));
    }
  });

  it.each([
    ["a US address", "address1=220+s+state+street&city=salt+lake&state=ut&postal_code=84111&country=US"],
    ["a territory", "address1=1+calle+luna&city=san+juan&state=PR&postal_code=00901&country=PR"],
    ["an address abroad", "address1=1+Queen+St+W&city=Toronto&state=ON&postal_code=M5H+2N2&country=CA"],
  ])("validate_address.address: every key plus residential, for %s", async (_name, query) => {
    const response = await request("GET", `/api/v2/shipping/validate_address?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const { address } = response.json().validate_address;
    expect(Object.keys(address)).toEqual([...VALIDATED_ADDRESS_KEYS]);
    expect(address).toMatchObject({ nick_name: null, phone: null, email: null, residential: expect.any(Boolean) });
  });
});

describe("the documented key lists", () => {
  it("name the keys clients read", () => {
    expect(ADDRESS_KEYS).toEqual(expect.arrayContaining(["external_id", "last_name", "nick_name", "address3"]));
    expect(PARCEL_KEYS).toEqual(
      expect.arrayContaining(["external_shipment_id", "description", "meter_cost_details", "rate_calc_type"]),
    );
    expect(PARCEL_ITEM_KEYS).toEqual(expect.arrayContaining(["variant_option3", "image_src", "country_of_origin"]));
    expect(SHIPMENT_KEYS).toContain("payment");
    expect(TEMPLATE_DATA_KEYS).toEqual(expect.arrayContaining(["accounting_contact", "payment"]));
  });
});
