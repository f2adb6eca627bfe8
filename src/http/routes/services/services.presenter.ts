import type { ServiceDefinition } from "../../../carriers/catalogue.js";

/** eHub's Service object (reference §5.16). */
export function presentService(service: ServiceDefinition) {
  return {
    service_id: service.serviceId,
    service: service.name,
    service_code: service.serviceCode,
    carrier_code: service.carrierCode,
    category: service.category,
    package_types: service.packageTypes.map(({ type, name }) => ({ type, name })),
    sort_order: service.sortOrder,
  };
}
