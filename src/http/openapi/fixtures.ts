/**
 * Addresses and parcels that rate and ship cleanly in the sandbox: the examples of the OpenAPI
 * document and the tests' own fixtures (test/helpers/shipments.ts), so the document shows requests
 * the tests prove work.
 */
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

export const SMALL_BOX = { length: 10, width: 8, height: 4, weight: 24 };

/** USPS Ground Advantage, eHub's id. */
export const GROUND_ADVANTAGE_ID = 1172;

/** A USPS Ground Advantage shipment to buy (`POST /shipments/ship`'s `shipment`). */
export function shipmentToBuy(overrides: Record<string, unknown> = {}) {
  return {
    to_location: SALT_LAKE_RESIDENCE,
    from_location: LOS_ANGELES_WAREHOUSE,
    parcels: [SMALL_BOX],
    service_id: GROUND_ADVANTAGE_ID,
    ...overrides,
  };
}

/** Payment methods the sandbox gateway accepts (standard test numbers; a valid ABA routing number). */
export const BILLING = {
  first_name: "Ada",
  last_name: "Lovelace",
  address1: "1 Analytical Way",
  city: "Austin",
  state: "TX",
  country: "US",
  postal_code: "78701",
};

export const VISA = {
  type: "cc",
  name: "Ada Lovelace",
  account_number: "4242 4242 4242 4242",
  expiry: "1230",
  verification_code: "123",
  billing_location: BILLING,
};
export const BANK = {
  type: "ach",
  name: "Ada Lovelace",
  bank_name: "National Test Bank",
  bank_account_type: "checking",
  account_holder_type: "business",
  routing_number: "021000021",
  account_number: "000123456789",
};

/** A rate question (`POST /rates`'s body). */
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
