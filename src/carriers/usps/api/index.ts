import { type RealCarrierFactory, realCarrierOver } from "../../real-carrier.js";
import { uspsApiCarrier } from "./usps-api-carrier.js";
import { USPS_PRODUCTION_BASE_URL, USPS_TEST_BASE_URL, uspsHttpClient } from "./usps-client.js";
import { type UspsCredentials, uspsCredentials } from "./usps-credentials.js";

/** USPS APIs v3: OAuth client credentials plus the payer's CRID, MID and EPS or permit account. */
export const uspsApi: RealCarrierFactory<UspsCredentials> = {
  carrierCode: "usps",
  testBaseUrl: USPS_TEST_BASE_URL,
  productionBaseUrl: USPS_PRODUCTION_BASE_URL,
  credentials: uspsCredentials,
  open(credentials, context) {
    const client = uspsHttpClient(context, credentials);
    return realCarrierOver(client, uspsApiCarrier(client, credentials, context.clock));
  },
};
