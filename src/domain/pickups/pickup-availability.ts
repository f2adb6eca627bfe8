import { CarrierError, type PickupAvailability, type PickupCapability } from "../../carriers/carrier.js";
import { findCarrier } from "../../carriers/registry.js";
import type { AddressInput, StandardizedAddressFields } from "../addresses/standardize-address.js";
import { validateAddress } from "../addresses/validate-address.js";
import { sellingCarrierOf } from "../carriers/carrier-connections.js";
import { DomainError } from "../errors.js";
import type { DomainServices } from "../services.js";

/** Pickups are USPS's (reference §6.11). */
export const PICKUP_CARRIER_CODE = "usps";

export function pickupCapability(): PickupCapability {
  const pickups = findCarrier(PICKUP_CARRIER_CODE)?.pickups;
  if (!pickups) throw new Error("the pickup carrier takes no pickups");
  return pickups;
}

/**
 * Books or cancels with the connection that sold the shipment's labels (a real USPS account's
 * pickups are USPS's own); the carrier's refusal is answered in its words.
 */
export async function withSellersPickups<T>(
  services: DomainServices,
  shipment: { id: number; carrier_code: string; carrier_account_id: number | null },
  call: (pickups: PickupCapability) => Promise<T>,
): Promise<T> {
  const pickups = (await sellingCarrierOf(services, shipment)).pickups ?? pickupCapability();
  try {
    return await call(pickups);
  } catch (error) {
    if (error instanceof CarrierError) throw new DomainError("carrier.rejected", error.message);
    throw error;
  }
}

export interface CheckedPickup extends PickupAvailability {
  /** The address as USPS standardizes it. */
  location: StandardizedAddressFields;
}

/**
 * Whether USPS comes to this address on that day: a valid US address, Monday to Saturday outside
 * federal holidays, not in the past, same day until 02:00 Central. When it does not, `reason` says
 * why and `pickupDate` is the next day it would.
 */
export function checkPickup(location: AddressInput, pickupDate: string, now: Date): CheckedPickup {
  const checked = validateAddress(location);
  const day = pickupCapability().availability(pickupDate, now);
  if (checked.address.country !== "US") {
    return { ...day, available: false, reason: "USPS picks up at US addresses only", location: checked.address };
  }
  if (!checked.isValid) {
    return {
      ...day,
      available: false,
      reason: `USPS cannot pick up at this address: ${checked.reasons.join("; ")}`,
      location: checked.address,
    };
  }
  return { ...day, location: checked.address };
}
