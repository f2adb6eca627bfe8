import { fedexApi } from "../../src/carriers/fedex/api/index.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../helpers/shipments.js";
import { FedexStandIn } from "../stand-ins/fedex/fedex-stand-in.js";
import { describeRealAdapterContract } from "./real-adapter-contract.js";

const PROJECT = { clientId: "contract-key", clientSecret: "contract-secret", accountNumber: "740561073" };

describeRealAdapterContract({
  name: "FedEx",
  factory: fedexApi,
  async startStandIn() {
    const standIn = await new FedexStandIn(PROJECT).start();
    return {
      baseUrl: standIn.baseUrl,
      failRating: () => standIn.fail("500", { operation: "rate", times: 50 }),
      clearFaults: () => standIn.clearFaults(),
      stop: () => standIn.stop(),
    };
  },
  credentials: {
    client_id: PROJECT.clientId,
    client_secret: PROJECT.clientSecret,
    account_number: PROJECT.accountNumber,
  },
  refusedCredentials: { client_id: PROJECT.clientId, client_secret: "wrong", account_number: PROJECT.accountNumber },
  from: LOS_ANGELES_WAREHOUSE,
  to: SALT_LAKE_RESIDENCE,
  parcels: [{ lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel", insuredCents: 25_000 }],
  // Home Delivery (the residence's Ground service), 2Day, Priority Overnight.
  serviceIds: [402, 393, 398],
  voids: true,
});
