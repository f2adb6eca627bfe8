import { dhlExpressApi } from "./dhl-express/api/index.js";
import { fedexApi } from "./fedex/api/index.js";
import type { RealCarrierFactory } from "./real-carrier.js";
import { upsApi } from "./ups/api/index.js";
import { uspsApi } from "./usps/api/index.js";

/** The carriers Porter reaches through their own APIs; the others are sandbox carriers only. */
const REAL_CARRIERS: readonly RealCarrierFactory<unknown>[] = [uspsApi, upsApi, fedexApi, dhlExpressApi];

export function realCarrierFactory(carrierCode: string): RealCarrierFactory<unknown> | undefined {
  return REAL_CARRIERS.find((factory) => factory.carrierCode === carrierCode);
}
