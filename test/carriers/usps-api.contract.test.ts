import { uspsApi } from "../../src/carriers/usps/api/index.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../helpers/shipments.js";
import { UspsStandIn } from "../stand-ins/usps/usps-stand-in.js";
import { describeRealAdapterContract } from "./real-adapter-contract.js";

const APP = { clientId: "contract-app", clientSecret: "contract-secret" };

describeRealAdapterContract({
  name: "USPS",
  factory: uspsApi,
  async startStandIn() {
    const standIn = await new UspsStandIn(APP).start();
    return {
      baseUrl: standIn.baseUrl,
      failRating: () => standIn.fail("500", { operation: "prices", times: 50 }),
      clearFaults: () => standIn.clearFaults(),
      stop: () => standIn.stop(),
    };
  },
  credentials: {
    client_id: APP.clientId,
    client_secret: APP.clientSecret,
    crid: "56982563",
    mid: "903476223",
    eps_account: "1000405525",
  },
  refusedCredentials: { client_id: APP.clientId, client_secret: "wrong" },
  from: LOS_ANGELES_WAREHOUSE,
  to: SALT_LAKE_RESIDENCE,
  parcels: [{ lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" }],
  // Ground Advantage, Priority Mail, Priority Mail Express.
  serviceIds: [1172, 684, 685],
  voids: true,
});
