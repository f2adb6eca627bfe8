import {
  type CustomsData,
  type CustomsParcel,
  type CustomsRequirement,
  customsRequirement,
  usdToCents,
  validateCustoms,
} from "../customs/customs-rules.js";
import { DomainError } from "../errors.js";
import type { CustomsDataInput, NewShipment } from "./new-shipment.js";

function customsDataOf(data: CustomsDataInput | null | undefined): CustomsData | null {
  if (!data) return null;
  return {
    contentType: data.content_type ?? null,
    noDelivery: data.no_delivery ?? null,
    hsTariffCode: data.hs_tariff_code ?? null,
    eelPfc: data.eel_pfc ?? null,
    valueCents: data.value == null ? null : usdToCents(data.value),
  };
}

/** The parcels as customs sees them; an item without customs_data takes its parcel's. */
export function customsParcelsOf(shipment: NewShipment): CustomsParcel[] {
  return shipment.parcels.map((parcel) => ({
    items: parcel.items.map((item) => ({
      name: item.name ?? null,
      description: item.description ?? null,
      quantity: item.quantity ?? 1,
      weightOz: item.weight ?? null,
      priceCents: item.price == null ? null : usdToCents(item.price),
      countryOfOrigin: item.country_of_origin ?? null,
      customsData: customsDataOf(item.customs_data ?? parcel.customsData),
    })),
  }));
}

export function customsRequirementOf(shipment: NewShipment): CustomsRequirement {
  const place = (a: NewShipment["to"]) => ({
    country: a.country,
    state: a.state,
    postalCode: a.postal_code,
    city: a.city,
  });
  return customsRequirement(place(shipment.from), place(shipment.to));
}

/**
 * International, territory and military shipments carry a customs declaration;
 * the first problem is reported with its wire path.
 */
export function checkCustoms(shipment: NewShipment, path: string): CustomsRequirement {
  const requirement = customsRequirementOf(shipment);
  if (requirement === "none") return requirement;
  const [problem] = validateCustoms(requirement, customsParcelsOf(shipment));
  if (problem) throw new DomainError("customs.invalid", `${path}.${problem.path}: ${problem.message}`);
  return requirement;
}
