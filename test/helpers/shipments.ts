/** Addresses and parcels that rate and ship cleanly; tests override what they are about. */
import { expect } from "vitest";
import { shipmentToBuy, TORONTO_RESIDENCE } from "../../src/http/openapi/fixtures.js";
import type { TestApp } from "./app.js";

export {
  LOS_ANGELES_WAREHOUSE,
  rateShipment,
  SALT_LAKE_RESIDENCE,
  SMALL_BOX,
  shipmentToBuy,
  TORONTO_RESIDENCE,
} from "../../src/http/openapi/fixtures.js";

/** A recipient in each country the contract tests ship to with customs items. */
export const ABROAD_RECIPIENTS = {
  CA: TORONTO_RESIDENCE,
  GB: {
    first_name: "Sam",
    address1: "10 Downing St",
    city: "London",
    state: "",
    country: "GB",
    postal_code: "SW1A 2AA",
    phone: "442079250918",
  },
  MX: {
    first_name: "Ana",
    address1: "Av. Juarez 10",
    city: "Ciudad de Mexico",
    state: "CMX",
    country: "MX",
    postal_code: "06050",
    phone: "525555550100",
  },
  DE: {
    first_name: "Jan",
    address1: "Unter den Linden 1",
    city: "Berlin",
    state: "",
    country: "DE",
    postal_code: "10117",
    phone: "4930555010",
  },
  AU: {
    first_name: "Kim",
    address1: "1 George St",
    city: "Sydney",
    state: "NSW",
    country: "AU",
    postal_code: "2000",
    phone: "61255550100",
  },
};

/** An item declared for customs as an adapter is handed it, of `country`'s making (null: unknown). */
export function declaredItem(description: string, country: string | null) {
  return {
    description,
    quantity: 2,
    weightOz: 12,
    valueCents: 4550,
    countryOfOrigin: country,
    hsTariffCode: "6117.10",
    contentType: "merchandise",
  };
}

/** An item of a parcel bound abroad, as `parcel_items` take it. */
export const T_SHIRT = {
  name: "T-shirt",
  description: "Cotton T-shirt",
  quantity: 2,
  weight: 8,
  price: 12.5,
  country_of_origin: "PE",
  customs_data: { content_type: "merchandise", hs_tariff_code: "6109.10", eel_pfc: "NOEEI 30.37(a)", value: 12.5 },
};

/** The same item as a carrier adapter is handed it (`CarrierItem`): weights in ounces, values in cents. */
export const T_SHIRT_ITEM = {
  description: "Cotton T-shirt",
  quantity: 2,
  weightOz: 16,
  valueCents: 2500,
  countryOfOrigin: "PE",
  hsTariffCode: "6109.10",
  contentType: "merchandise",
};

/** Buys a sandbox label with `auth`'s key (the test fails unless it is bought) and answers the shipment. */
export async function buyLabel(t: TestApp, auth: Record<string, string>, overrides: Record<string, unknown> = {}) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/v2/shipments/ship",
    headers: auth,
    payload: { shipment: shipmentToBuy(overrides) },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().shipment;
}
