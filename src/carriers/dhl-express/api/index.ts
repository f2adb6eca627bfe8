import { type RealCarrierFactory, realCarrierOver } from "../../real-carrier.js";
import { dhlExpressApiCarrier } from "./dhl-express-api-carrier.js";
import {
  DHL_EXPRESS_PRODUCTION_BASE_URL,
  DHL_EXPRESS_TEST_BASE_URL,
  dhlExpressHttpClient,
  MYDHL_API_VERSION,
} from "./dhl-express-client.js";
import { type DhlExpressCredentials, dhlExpressCredentials } from "./dhl-express-credentials.js";

/** Where connecting proves the key and secret: a cheap authenticated question about one place. */
const VERIFY_PLACE = { type: "delivery", countryCode: "US", postalCode: "10001", cityName: "New York" };

/** MyDHL API: HTTP basic auth with the API key and secret, shipments billed to the account number. */
export const dhlExpressApi: RealCarrierFactory<DhlExpressCredentials> = {
  carrierCode: "dhl_express",
  testBaseUrl: DHL_EXPRESS_TEST_BASE_URL,
  productionBaseUrl: DHL_EXPRESS_PRODUCTION_BASE_URL,
  credentials: dhlExpressCredentials,
  open(credentials, context) {
    const client = dhlExpressHttpClient(context, credentials);
    return realCarrierOver(client, dhlExpressApiCarrier(client, credentials, context.clock), async () => {
      await client.json({
        method: "GET",
        path: "/address-validate",
        purpose: "address",
        query: VERIFY_PLACE,
        headers: { "x-version": MYDHL_API_VERSION },
      });
    });
  },
};
