import type { CarrierAdapter, PickupAvailability, PickupCapability } from "../../carriers/carrier.js";
import { findCarrier } from "../../carriers/registry.js";
import type { AddressInput, StandardizedAddressFields } from "../addresses/standardize-address.js";
import { validateAddress } from "../addresses/validate-address.js";
import { carrierOf, connectedCarrierAccounts, sellingCarrierOf } from "../carriers/carrier-connections.js";
import { DomainError } from "../errors.js";
import type { AccountScope, DomainServices } from "../services.js";

/** The carrier asked when none is named: eHub's pickups are USPS's. */
export const DEFAULT_PICKUP_CARRIER = "usps";

/** A carrier that comes for parcels, and how. */
export interface PickupCarrier {
  code: string;
  displayName: string;
  pickups: PickupCapability;
}

function withPickups(carrier: CarrierAdapter | undefined): PickupCarrier | undefined {
  return carrier?.pickups
    ? { code: carrier.code, displayName: carrier.displayName, pickups: carrier.pickups }
    : undefined;
}

function notSupported(carrierCode: string): DomainError {
  const name = findCarrier(carrierCode)?.displayName ?? carrierCode;
  return new DomainError("pickup.carrier_not_supported", `${name} does not pick up parcels through Porter.`);
}

/**
 * The carrier the scope's pickups with `carrierCode` go to: its connection's carrier (a real
 * account books with the carrier itself), or the sandbox carrier when the scope has none.
 */
export async function pickupCarrierOf(
  services: DomainServices,
  scope: AccountScope,
  carrierCode: string,
): Promise<PickupCarrier> {
  const connection = (await connectedCarrierAccounts(services, scope)).find((c) => c.carrier_code === carrierCode);
  const carrier = withPickups(connection ? carrierOf(services, connection) : findCarrier(carrierCode));
  if (!carrier) throw notSupported(carrierCode);
  return carrier;
}

/** The carrier that sold a shipment's labels, when it picks up; a carrier that does not is refused by name. */
export async function sellersPickupCarrier(
  services: DomainServices,
  shipment: { id: number; carrier_code: string; carrier_account_id: number | null },
): Promise<PickupCarrier> {
  const carrier = withPickups(await sellingCarrierOf(services, shipment));
  if (!carrier) throw notSupported(shipment.carrier_code);
  return carrier;
}

export interface CheckedPickup extends PickupAvailability {
  /** The address as Porter standardizes it. */
  location: StandardizedAddressFields;
}

/**
 * Whether the carrier comes to this address on that day: a valid address (USPS: in the US), on a
 * day the carrier picks up (USPS: Monday to Saturday outside federal holidays, same day until
 * 02:00 Central; couriers: weekdays in the address's local time). When it does not, `reason`
 * says why and `pickupDate` is the next day it would.
 */
export function checkPickup(
  carrier: PickupCarrier,
  location: AddressInput,
  pickupDate: string,
  now: Date,
): CheckedPickup {
  const checked = validateAddress(location);
  const day = carrier.pickups.availability(pickupDate, now, checked.address);
  const name = carrier.displayName;
  if (carrier.code === "usps" && checked.address.country !== "US") {
    return { ...day, available: false, reason: "USPS picks up at US addresses only", location: checked.address };
  }
  if (!checked.isValid) {
    return {
      ...day,
      available: false,
      reason: `${name} cannot pick up at this address: ${checked.reasons.join("; ")}`,
      location: checked.address,
    };
  }
  return { ...day, location: checked.address };
}
