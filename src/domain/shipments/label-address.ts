import type { LabelAddress } from "../../labels/label.js";
import type { ShipmentAddress } from "./new-shipment.js";

/** A shipment's address as labels and manifests print it: the person's name on one line. */
export function labelAddress(address: ShipmentAddress): LabelAddress {
  const name = [address.first_name, address.last_name].filter(Boolean).join(" ") || null;
  return {
    name,
    company: address.company ?? null,
    address1: address.address1,
    address2: address.address2 ?? null,
    address3: address.address3 ?? null,
    city: address.city,
    state: address.state,
    postalCode: address.postal_code,
    country: address.country,
    phone: address.phone ?? null,
  };
}
