import { type RealCarrierFactory, realCarrierOver } from "../../real-carrier.js";
import { upsApiCarrier } from "./ups-api-carrier.js";
import { UPS_PRODUCTION_BASE_URL, UPS_TEST_BASE_URL, upsHttpClient } from "./ups-client.js";
import { type UpsCredentials, upsCredentials } from "./ups-credentials.js";

/** UPS APIs: OAuth client credentials plus the six-character shipper (account) number. */
export const upsApi: RealCarrierFactory<UpsCredentials> = {
  carrierCode: "ups",
  testBaseUrl: UPS_TEST_BASE_URL,
  productionBaseUrl: UPS_PRODUCTION_BASE_URL,
  credentials: upsCredentials,
  open(credentials, context) {
    const client = upsHttpClient(context, credentials);
    return realCarrierOver(client, upsApiCarrier(client, credentials));
  },
};
