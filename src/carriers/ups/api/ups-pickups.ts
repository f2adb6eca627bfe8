import type { PickupRequest } from "../../carrier.js";
import type { PickupWindow } from "../../pickup-calendar.js";
import { upsPhone, upsServiceCode } from "./ups-products.js";
import type { UpsPickupCreationRequest, UpsPickupPiece } from "./ups-wire.js";

/** UPS counts a package over 70 lb as overweight for a pickup. */
const OVERWEIGHT_OZ = 70 * 16;

const hhmm = (time: string) => time.replace(":", "");

/**
 * The pieces of a pickup by service and destination, as UPS lists them: the shipping service
 * code written in three digits ("03" Ground → "003"), UPS Letters apart from packages.
 */
export function pickupPieces(shipments: PickupRequest["shipments"]): UpsPickupPiece[] | { refusal: string } {
  const pieces = new Map<string, UpsPickupPiece>();
  for (const shipment of shipments) {
    const code = upsServiceCode(shipment.service);
    if (!code) return { refusal: `${shipment.service.name} is not picked up through the UPS API by Porter.` };
    for (const parcel of shipment.parcels) {
      const container = parcel.packageType === "ups_letter" ? "02" : "01";
      const country = shipment.toCountry.trim().toUpperCase();
      const key = `${code}|${country}|${container}`;
      const piece = pieces.get(key) ?? {
        ServiceCode: code.padStart(3, "0"),
        Quantity: "0",
        DestinationCountryCode: country,
        ContainerCode: container,
      };
      piece.Quantity = String(Number(piece.Quantity) + 1);
      pieces.set(key, piece);
    }
  }
  return [...pieces.values()];
}

/**
 * A Pickup Creation request: the pickup address as an alternate address with its phone (UPS
 * requires one), the window in local time, the pieces by service, and the total weight in pounds
 * to a tenth; billed to the shipper's account. UPS takes 57 characters of instructions.
 */
export function pickupCreationRequest(
  request: PickupRequest,
  shipperNumber: string,
  window: PickupWindow,
): UpsPickupCreationRequest | { refusal: string } {
  const { location } = request;
  const phone = upsPhone(location.phone);
  if (!phone) return { refusal: "UPS needs a phone number at the pickup address (location phone)." };
  const pieces = pickupPieces(request.shipments);
  if ("refusal" in pieces) return pieces;
  const person = [location.first_name, location.last_name].filter(Boolean).join(" ").trim();
  const company = location.company?.trim() || person || "Shipping";
  const instructions = [request.locationDetail, request.specialInstructions]
    .filter((text): text is string => Boolean(text?.trim()))
    .join(". ");
  const overweight = request.shipments.some((s) => s.parcels.some((p) => p.weightOz > OVERWEIGHT_OZ));
  const country = location.country.trim().toUpperCase();
  return {
    PickupCreationRequest: {
      Request: { TransactionReference: { CustomerContext: `Porter pickup ${request.serial}` } },
      RatePickupIndicator: "N",
      Shipper: { Account: { AccountNumber: shipperNumber, AccountCountryCode: country } },
      PickupDateInfo: {
        ReadyTime: hhmm(window.readyTime),
        CloseTime: hhmm(window.closeTime),
        PickupDate: request.pickupDate.replace(/-/g, ""),
      },
      PickupAddress: {
        CompanyName: company.slice(0, 27),
        ContactName: (person || company).slice(0, 22),
        AddressLine: [[location.address1, location.address2].filter(Boolean).join(" ").slice(0, 73)],
        City: location.city.slice(0, 50),
        ...(location.state ? { StateProvince: location.state.toUpperCase() } : {}),
        ...(location.postal_code ? { PostalCode: location.postal_code.replace(/[\s-]/g, "").slice(0, 8) } : {}),
        CountryCode: country,
        ResidentialIndicator: location.company?.trim() ? "N" : "Y",
        Phone: phone,
      },
      AlternateAddressIndicator: "Y",
      PickupPiece: pieces,
      TotalWeight: {
        Weight: (Math.max(1, Math.ceil((request.weightOz / 16) * 10)) / 10).toFixed(1),
        UnitOfMeasurement: "LBS",
      },
      OverweightIndicator: overweight ? "Y" : "N",
      PaymentMethod: "01",
      ...(instructions ? { SpecialInstruction: instructions.slice(0, 57) } : {}),
      ReferenceNumber: `porter-${request.serial}`.slice(0, 35),
    },
  };
}

/** The pickup request number (PRN) UPS answered, or undefined when the answer has none. */
export function pickupRequestNumber(answer: unknown): string | undefined {
  const prn = (answer as { PickupCreationResponse?: { PRN?: unknown } } | null)?.PickupCreationResponse?.PRN;
  return typeof prn === "string" && prn.trim() !== "" ? prn.trim() : undefined;
}

/** Whether UPS answered the cancellation with success (ResponseStatus code 1). */
export function pickupCancelled(answer: unknown): boolean {
  const status = (answer as { PickupCancelResponse?: { Response?: { ResponseStatus?: { Code?: unknown } } } } | null)
    ?.PickupCancelResponse?.Response?.ResponseStatus?.Code;
  return status === "1";
}
