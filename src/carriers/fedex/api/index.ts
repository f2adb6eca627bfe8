import { type RealCarrierFactory, realCarrierOver } from "../../real-carrier.js";
import { fedexApiCarrier } from "./fedex-api-carrier.js";
import { FEDEX_PRODUCTION_BASE_URL, FEDEX_TEST_BASE_URL, fedexHttpClient } from "./fedex-client.js";
import { type FedexCredentials, fedexCredentials } from "./fedex-credentials.js";

/** FedEx REST APIs: the project's OAuth API key and secret key, and the account number to ship under. */
export const fedexApi: RealCarrierFactory<FedexCredentials> = {
  carrierCode: "fed_ex",
  testBaseUrl: FEDEX_TEST_BASE_URL,
  productionBaseUrl: FEDEX_PRODUCTION_BASE_URL,
  credentials: fedexCredentials,
  open(credentials, context) {
    const client = fedexHttpClient(context, credentials);
    return realCarrierOver(client, fedexApiCarrier(client, credentials));
  },
};
