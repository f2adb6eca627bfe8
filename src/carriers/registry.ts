import type { CarrierAdapter } from "./carrier.js";
import type { CarrierCode, ServiceDefinition } from "./catalogue.js";
import { dhlEcommerce } from "./dhl-ecommerce/index.js";
import { dhlExpress } from "./dhl-express/index.js";
import { fedex } from "./fedex/index.js";
import { ups } from "./ups/index.js";
import { usps } from "./usps/index.js";

/** Every carrier Porter can connect; a new carrier is one more folder and one more line here. */
export const CARRIERS: readonly CarrierAdapter[] = [usps, ups, fedex, dhlEcommerce, dhlExpress];

const byCode = new Map<string, CarrierAdapter>(CARRIERS.map((c) => [c.code, c]));
const serviceById = new Map<number, ServiceDefinition>(
  CARRIERS.flatMap((c) => c.services.map((s) => [s.serviceId, s] as const)),
);

export function findCarrier(code: string): CarrierAdapter | undefined {
  return byCode.get(code);
}

export function findService(serviceId: number): ServiceDefinition | undefined {
  return serviceById.get(serviceId);
}

export const ALL_SERVICES: readonly ServiceDefinition[] = [...serviceById.values()];

export const CARRIER_CODES_CONNECTED_BY_DEFAULT: readonly CarrierCode[] = CARRIERS.map((c) => c.code);
