import type { ListedService } from "../../../carriers/registry.js";

/** eHub's Service object: one per id eHub lists, several ids for one service. */
export function presentService({ service, listing }: ListedService) {
  return {
    service_id: listing.serviceId,
    service: listing.listedName,
    service_code: listing.serviceCode,
    carrier_code: service.carrierCode,
    category: service.category,
    package_types: service.packageTypes.map(({ type, name, listedName }) => ({ type, name: listedName ?? name })),
    sort_order: service.sortOrder,
  };
}
