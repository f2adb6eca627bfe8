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
