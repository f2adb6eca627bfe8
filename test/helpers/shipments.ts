/** Addresses and parcels that rate and ship cleanly; tests override what they are about. */
export {
  LOS_ANGELES_WAREHOUSE,
  rateShipment,
  SALT_LAKE_RESIDENCE,
  SMALL_BOX,
  shipmentToBuy,
  TORONTO_RESIDENCE,
} from "../../src/http/openapi/fixtures.js";

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
