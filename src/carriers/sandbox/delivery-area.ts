/**
 * ⚠ Synthetic delivery-area list: UPS and FedEx publish theirs as ZIP lists that change twice a
 * year; the sandbox marks whole remote ZIP3 areas instead (Alaska, Hawaii, Puerto Rico and the
 * Virgin Islands, and the Pacific territories), so the surcharge can be seen and tested.
 */
const DELIVERY_AREA_ZIP3 = new Set([
  "006",
  "007",
  "008",
  "009",
  "967",
  "968",
  "969",
  "995",
  "996",
  "997",
  "998",
  "999",
]);

export function isDeliveryAreaZip(postalCode: string): boolean {
  return DELIVERY_AREA_ZIP3.has(postalCode.slice(0, 3));
}
