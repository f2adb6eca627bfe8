import { dhlExpressApi } from "../../src/carriers/dhl-express/api/index.js";
import { LOS_ANGELES_WAREHOUSE, T_SHIRT_ITEM, TORONTO_RESIDENCE } from "../helpers/shipments.js";
import { DhlExpressStandIn } from "../stand-ins/dhl-express/dhl-express-stand-in.js";
import { describeRealAdapterContract } from "./real-adapter-contract.js";

const ACCOUNT = { apiKey: "contract-key", apiSecret: "contract-secret", accountNumber: "123456789" };

describeRealAdapterContract({
  name: "DHL Express",
  factory: dhlExpressApi,
  async startStandIn() {
    const standIn = await new DhlExpressStandIn(ACCOUNT).start();
    return {
      baseUrl: standIn.baseUrl,
      failRating: () => standIn.fail("500", { operation: "rates", times: 50 }),
      clearFaults: () => standIn.clearFaults(),
      stop: () => standIn.stop(),
    };
  },
  credentials: { api_key: ACCOUNT.apiKey, api_secret: ACCOUNT.apiSecret, account_number: ACCOUNT.accountNumber },
  refusedCredentials: { api_key: ACCOUNT.apiKey, api_secret: "wrong", account_number: ACCOUNT.accountNumber },
  from: LOS_ANGELES_WAREHOUSE,
  to: TORONTO_RESIDENCE,
  parcels: [{ lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel", insuredCents: 25_000 }],
  // DHL Express declares goods to customs: the parcel's items are its export declaration.
  contents: [
    {
      reference: null,
      items: [T_SHIRT_ITEM],
    },
  ],
  // Express Worldwide, Express 12:00, Express 9:00.
  serviceIds: [300, 294, 295],
  voids: false,
});
