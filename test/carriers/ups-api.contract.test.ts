import { upsApi } from "../../src/carriers/ups/api/index.js";
import { LOS_ANGELES_WAREHOUSE, SALT_LAKE_RESIDENCE } from "../helpers/shipments.js";
import { UpsStandIn } from "../stand-ins/ups/ups-stand-in.js";
import { describeRealAdapterContract } from "./real-adapter-contract.js";

const APP = { clientId: "contract-app", clientSecret: "contract-secret", shipperNumber: "A1B2C3" };

describeRealAdapterContract({
  name: "UPS",
  factory: upsApi,
  async startStandIn() {
    const standIn = await new UpsStandIn(APP).start();
    return {
      baseUrl: standIn.baseUrl,
      failRating: () => standIn.fail("500", { operation: "rating", times: 50 }),
      clearFaults: () => standIn.clearFaults(),
      stop: () => standIn.stop(),
    };
  },
  credentials: { client_id: APP.clientId, client_secret: APP.clientSecret, shipper_number: APP.shipperNumber },
  refusedCredentials: { client_id: APP.clientId, client_secret: "wrong", shipper_number: APP.shipperNumber },
  from: LOS_ANGELES_WAREHOUSE,
  to: SALT_LAKE_RESIDENCE,
  parcels: [
    { lengthIn: 10, widthIn: 8, heightIn: 4, weightOz: 24, packageType: "parcel" },
    { lengthIn: 12, widthIn: 10, heightIn: 6, weightOz: 56, packageType: "parcel", insuredCents: 25_000 },
  ],
  // Ground, 2nd Day Air, Next Day Air.
  serviceIds: [666, 675, 672],
  voids: true,
});
