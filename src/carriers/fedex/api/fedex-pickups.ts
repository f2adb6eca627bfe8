import type { CarrierAddress, PickupRequest, PickupShipment } from "../../carrier.js";
import type { PickupWindow } from "../../pickup-calendar.js";
import type { FedexCredentials } from "./fedex-credentials.js";
import { fedexPounds, fedexServiceType, GROUND_SERVICE_CODES } from "./fedex-mapping.js";
import { phoneDigits } from "./fedex-requests.js";
import type {
  FedexCancelPickupRequest,
  FedexCreatePickupRequest,
  FedexPickupAddress,
  FedexPickupAvailabilityRequest,
  FedexPickupAvailabilityResponse,
  FedexPickupCarrier,
} from "./fedex-wire.js";

/** FedEx takes 60 characters of remarks for its courier. */
const REMARKS_MAX = 60;

/**
 * Which FedEx company comes: FedEx Ground for Ground and Home Delivery shipments, FedEx Express
 * for the others. Each books its own pickups, so one pickup cannot hold both.
 */
export function fedexPickupCarrier(shipments: readonly PickupShipment[]): FedexPickupCarrier | { refusal: string } {
  const ground = shipments.filter((s) => GROUND_SERVICE_CODES.has(s.service.serviceCode)).length;
  if (ground === shipments.length) return "FDXG";
  if (ground === 0) return "FDXE";
  return {
    refusal:
      "FedEx Ground and FedEx Express pick up separately: book one pickup for the Ground and Home Delivery shipments and another for the rest.",
  };
}

const countryRelationship = (request: PickupRequest) =>
  request.shipments.every((s) => s.toCountry.trim().toUpperCase() === request.location.country.trim().toUpperCase())
    ? ("DOMESTIC" as const)
    : ("INTERNATIONAL" as const);

function pickupAddress(location: CarrierAddress): FedexPickupAddress {
  return {
    streetLines: [location.address1, location.address2].filter((line): line is string => Boolean(line?.trim())),
    city: location.city,
    ...(location.state ? { stateOrProvinceCode: location.state.toUpperCase() } : {}),
    postalCode: location.postal_code,
    countryCode: location.country.toUpperCase(),
  };
}

const dayType = (request: PickupRequest, today: string) =>
  request.pickupDate === today ? ("SAME_DAY" as const) : ("FUTURE_DAY" as const);

/** An availability question for the pickup's day, address and window (`POST /pickup/v1/pickups/availabilities`). */
export function pickupAvailabilityRequest(
  request: PickupRequest,
  credentials: FedexCredentials,
  carrier: FedexPickupCarrier,
  window: PickupWindow,
  today: string,
): FedexPickupAvailabilityRequest {
  const serviceType = request.shipments.map((s) => fedexServiceType(s.service)).find(Boolean);
  return {
    pickupAddress: pickupAddress(request.location),
    dispatchDate: request.pickupDate,
    packageReadyTime: `${window.readyTime}:00`,
    customerCloseTime: `${window.closeTime}:00`,
    pickupType: "ON_CALL",
    pickupRequestType: [dayType(request, today)],
    carriers: [carrier],
    countryRelationship: countryRelationship(request),
    ...(serviceType ? { shipmentAttributes: { serviceType } } : {}),
    associatedAccountNumber: credentials.accountNumber,
  };
}

/** FedEx's verdict on the day: available, or why not in its words (its latest ready time when it gives one). */
export function availabilityVerdict(
  answer: FedexPickupAvailabilityResponse,
  carrier: FedexPickupCarrier,
  day: string,
  window: PickupWindow,
): { available: true } | { refusal: string } {
  const options = answer.output?.options ?? [];
  const option = options.find((o) => o.carrier === carrier && (o.pickupDate === undefined || o.pickupDate === day));
  if (option?.available === true) {
    if (option.cutOffTime && option.cutOffTime.slice(0, 5) < window.readyTime) {
      return {
        refusal: `FedEx takes pickups on ${day} ready by ${option.cutOffTime.slice(0, 5)} local time, not from ${window.readyTime}.`,
      };
    }
    return { available: true };
  }
  const alert = answer.output?.alerts?.find((a) => a.message)?.message;
  return { refusal: `FedEx does not pick up at this address on ${day}${alert ? `: ${alert}` : "."}` };
}

/** Where the parcels wait, in FedEx's words (required for Ground); anything else is NONE, said in the remarks. */
export function packageLocation(detail: string | null): "FRONT" | "NONE" | "REAR" | "SIDE" {
  if (!detail) return "FRONT";
  if (/front/i.test(detail)) return "FRONT";
  if (/rear|back/i.test(detail)) return "REAR";
  if (/side/i.test(detail)) return "SIDE";
  return "NONE";
}

/**
 * A Create Pickup request: the pickup address and contact (FedEx needs a phone), the window's ready
 * time and the close time local to the address, the count and weight in pounds; the location
 * detail and instructions go to the courier as remarks.
 */
export function createPickupRequest(
  request: PickupRequest,
  credentials: FedexCredentials,
  carrier: FedexPickupCarrier,
  window: PickupWindow,
  today: string,
): FedexCreatePickupRequest | { refusal: string } {
  const { location } = request;
  const phone = phoneDigits(location.phone);
  if (!phone) return { refusal: "FedEx needs a phone number at the pickup address (location phone)." };
  const person = [location.first_name, location.last_name].filter(Boolean).join(" ").trim();
  const company = location.company?.trim();
  const where = packageLocation(request.locationDetail);
  const remarks = [where === "NONE" ? request.locationDetail : null, request.specialInstructions]
    .filter((text): text is string => Boolean(text?.trim()))
    .join(". ");
  return {
    associatedAccountNumber: { value: credentials.accountNumber },
    originDetail: {
      pickupLocation: {
        contact: {
          ...(company ? { companyName: company } : {}),
          personName: person || company || "Shipping",
          phoneNumber: phone,
        },
        address: pickupAddress(location),
      },
      readyDateTimestamp: `${request.pickupDate}T${window.readyTime}:00`,
      customerCloseTime: `${window.closeTime}:00`,
      pickupDateType: dayType(request, today),
      packageLocation: where,
    },
    carrierCode: carrier,
    pickupType: "ON_CALL",
    packageCount: request.packageCount,
    totalWeight: { units: "LB", value: fedexPounds(request.weightOz) },
    countryRelationships: countryRelationship(request),
    ...(remarks ? { remarks: remarks.slice(0, REMARKS_MAX) } : {}),
  };
}

/** A Cancel Pickup request: the confirmation code, the day, the company, and the Express location that took it. */
export function cancelPickupRequest(
  credentials: FedexCredentials,
  pickup: { confirmationNumber: string; pickupDate: string; details?: Record<string, string> },
): FedexCancelPickupRequest {
  const carrier: FedexPickupCarrier = pickup.details?.carrierCode === "FDXG" ? "FDXG" : "FDXE";
  const location = pickup.details?.location;
  return {
    associatedAccountNumber: { value: credentials.accountNumber },
    pickupConfirmationCode: pickup.confirmationNumber,
    carrierCode: carrier,
    scheduledDate: pickup.pickupDate,
    ...(location ? { location } : {}),
  };
}
