import type { CarrierAddress, PickupRequest } from "../../carrier.js";
import { zipParts } from "./usps-products.js";
import type { UspsPickupAddress, UspsSchedulePickupRequest } from "./usps-wire.js";

type PackageLocation = UspsSchedulePickupRequest["pickupLocation"]["packageLocation"];

/** Words of a pickup's location detail → USPS's package location; anything else is OTHER, in the instructions. */
const LOCATIONS: [RegExp, PackageLocation][] = [
  [/front\s*door/i, "FRONT_DOOR"],
  [/back\s*door/i, "BACK_DOOR"],
  [/side\s*door/i, "SIDE_DOOR"],
  [/knock/i, "KNOCK_ON_DOOR"],
  [/mail\s*room/i, "MAIL_ROOM"],
  [/reception/i, "RECEPTION"],
  [/office/i, "OFFICE"],
  [/porch/i, "PORCH"],
  [/mail\s*box/i, "MAILBOX"],
];

export function packageLocation(detail: string | null): PackageLocation {
  if (!detail) return "FRONT_DOOR";
  return LOCATIONS.find(([words]) => words.test(detail))?.[1] ?? "OTHER";
}

/** A US phone number as USPS's `cellNumber` (ten digits), or undefined. */
function cellNumber(phone: string | null | undefined): string | undefined {
  const digits = (phone ?? "").replace(/\D/g, "");
  const national = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  return national.length === 10 ? national : undefined;
}

/**
 * USPS needs a first and a last name at a pickup address: the person's when given, else the
 * company stands in as the first name and "Shipping" as the last. Its contact is the email and
 * the phone given; USPS refuses a pickup with neither, in its words.
 */
export function pickupAddress(location: CarrierAddress): UspsPickupAddress {
  const cell = cellNumber(location.phone);
  const email = location.email?.trim();
  const contact = [...(email ? [{ email }] : []), ...(cell ? [{ cellNumber: cell }] : [])];
  const first = location.first_name?.trim() || location.company?.trim() || "Shipping";
  const last = location.last_name?.trim() || "Shipping";
  return {
    firstName: first.slice(0, 50),
    lastName: last.slice(0, 50),
    ...(location.company?.trim() ? { firm: location.company.trim() } : {}),
    address: {
      streetAddress: location.address1,
      ...(location.address2 ? { secondaryAddress: location.address2 } : {}),
      city: location.city,
      state: location.state.toUpperCase(),
      ...zipParts(location.postal_code),
    },
    contact,
  };
}

/** A `POST /pickup/v3/carrier-pickup` body: every parcel counted as one kind, the weight in pounds. */
export function schedulePickupRequest(request: PickupRequest): UspsSchedulePickupRequest {
  const location = packageLocation(request.locationDetail);
  const instructions = [location === "OTHER" ? request.locationDetail : null, request.specialInstructions]
    .filter((t): t is string => Boolean(t?.trim()))
    .join(". ");
  return {
    pickupDate: request.pickupDate,
    pickupAddress: pickupAddress(request.location),
    packages: [{ packageType: "OTHER", packageCount: request.packageCount }],
    estimatedWeight: Math.max(0.1, Math.ceil((request.weightOz / 16) * 10) / 10),
    pickupLocation: { packageLocation: location, ...(instructions ? { specialInstructions: instructions } : {}) },
  };
}
