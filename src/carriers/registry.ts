import type { CarrierAdapter } from "./carrier.js";
import type { CarrierCode, ServiceDefinition, ServiceListing } from "./catalogue.js";
import { dhlEcommerce } from "./dhl-ecommerce/index.js";
import { dhlExpress } from "./dhl-express/index.js";
import { fedex } from "./fedex/index.js";
import { ups } from "./ups/index.js";
import { usps } from "./usps/index.js";

/** Every carrier Porter can connect; a new carrier is one more folder and one more line here. */
export const CARRIERS: readonly CarrierAdapter[] = [usps, ups, fedex, dhlEcommerce, dhlExpress];

const byCode = new Map<string, CarrierAdapter>(CARRIERS.map((c) => [c.code, c]));
/** A service together with the listing a client named it by. */
export interface ListedService {
  service: ServiceDefinition;
  listing: ServiceListing;
}

const listedById = new Map<number, ListedService>(
  CARRIERS.flatMap((c) =>
    c.services.flatMap((service) =>
      [service, ...service.otherListings].map((listing) => [listing.serviceId, { service, listing }] as const),
    ),
  ),
);

export function findCarrier(code: string): CarrierAdapter | undefined {
  return byCode.get(code);
}

/** The service listed under `serviceId`: its own id or any other id eHub lists it under. */
export function findService(serviceId: number): ServiceDefinition | undefined {
  return listedById.get(serviceId)?.service;
}

export function findListedService(serviceId: number): ListedService | undefined {
  return listedById.get(serviceId);
}

export const ALL_SERVICES: readonly ServiceDefinition[] = CARRIERS.flatMap((c) => c.services);

/** Every (id, code, name) of every service, in id order, as `GET /services` lists them. */
export const ALL_LISTED_SERVICES: readonly ListedService[] = [...listedById.values()].sort(
  (a, b) => a.listing.serviceId - b.listing.serviceId,
);

export const CARRIER_CODES_CONNECTED_BY_DEFAULT: readonly CarrierCode[] = CARRIERS.map((c) => c.code);

/** What a shipment named by a listing is sold as, and the warnings that say so. */
export interface SoldService extends ListedService {
  warnings: string[];
}

/**
 * The service a shipment under `listed` buys: the listed one, unless the listing names a retired
 * product (sold as the service it is listed under) or the service hands parcels like these to
 * another of the carrier's services (`parcelsSoldAs`). Either way the shipment keeps the id and
 * code of what it bought, and the warning says what happened.
 */
export function soldService(
  listed: ListedService,
  parcels: readonly { packageType: string; weightOz: number }[],
): SoldService {
  const { service, listing } = listed;
  if (listing.soldInstead) return { service, listing: service, warnings: [listing.soldInstead] };
  const rule = service.parcelsSoldAs;
  const successor = rule && findListedService(rule.serviceId);
  const handedOver =
    parcels.length > 0 &&
    parcels.every((p) => rule?.packageTypes.includes(p.packageType) && p.weightOz <= rule.maxWeightOz);
  if (rule && successor && handedOver) {
    return { service: successor.service, listing: successor.service, warnings: [rule.warning] };
  }
  return { service, listing, warnings: [] };
}
