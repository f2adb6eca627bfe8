/** Addresses and parcels that rate and ship cleanly; tests override what they are about. */
export const SALT_LAKE_RESIDENCE = {
  first_name: "Ann",
  last_name: "Lee",
  address1: "220 S State St",
  city: "Salt Lake City",
  state: "UT",
  country: "US",
  postal_code: "84111",
  phone: "8015550100",
};

export const LOS_ANGELES_WAREHOUSE = {
  company: "Acme Fulfillment",
  address1: "1 Main St",
  city: "Los Angeles",
  state: "CA",
  country: "US",
  postal_code: "90035",
  phone: "3105550100",
};

export const TORONTO_RESIDENCE = {
  first_name: "Jo",
  address1: "1 Queen St W",
  city: "Toronto",
  state: "ON",
  country: "CA",
  postal_code: "M5H 2N2",
  phone: "4165550100",
};

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

export const SMALL_BOX = { length: 10, width: 8, height: 4, weight: 24 };

export function rateShipment(overrides: Record<string, unknown> = {}) {
  return {
    shipment: {
      to_location: SALT_LAKE_RESIDENCE,
      from_location: LOS_ANGELES_WAREHOUSE,
      parcels: [SMALL_BOX],
      ...overrides,
    },
  };
}

/** A USPS Ground Advantage shipment to buy (`POST /shipments/ship`'s `shipment`). */
export function shipmentToBuy(overrides: Record<string, unknown> = {}) {
  return {
    to_location: SALT_LAKE_RESIDENCE,
    from_location: LOS_ANGELES_WAREHOUSE,
    parcels: [SMALL_BOX],
    service_id: 1172,
    ...overrides,
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
