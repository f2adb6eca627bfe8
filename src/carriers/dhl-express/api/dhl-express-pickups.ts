import type { PickupRequest } from "../../carrier.js";
import type { PickupWindow } from "../../pickup-calendar.js";
import { carriesDocuments, dhlPackage, dhlParty, dhlProductCode } from "./dhl-express-products.js";
import type { DhlPickupRequest } from "./dhl-express-wire.js";

/** MyDHL API takes four special instructions of 80 characters, and a location of 80. */
const TEXT_MAX = 80;

/**
 * A `POST /pickups` body: the pickup address as the shipper's details (DHL needs a phone there),
 * the window's ready time with the local offset and its close time, and each shipment by its DHL
 * product, waybill and packages.
 */
export function dhlPickupRequest(
  request: PickupRequest,
  accountNumber: string,
  window: PickupWindow,
): DhlPickupRequest | { refusal: string } {
  const { location } = request;
  if (!location.phone?.trim()) {
    return { refusal: "DHL Express needs a phone number at the pickup address (location phone)." };
  }
  const shipmentDetails: DhlPickupRequest["shipmentDetails"] = [];
  for (const shipment of request.shipments) {
    const documents = carriesDocuments(shipment.parcels);
    const productCode = dhlProductCode(shipment.service, documents);
    if (!productCode) return { refusal: `${shipment.service.name} has no DHL Express product to pick up.` };
    const waybill = shipment.trackingNumbers[0];
    shipmentDetails.push({
      productCode,
      isCustomsDeclarable: !documents,
      unitOfMeasurement: "imperial",
      ...(waybill ? { shipmentTrackingNumber: waybill } : {}),
      packages: shipment.parcels.map(dhlPackage),
    });
  }
  const { postalAddress, contactInformation } = dhlParty(location, "shipper");
  const instructions = request.specialInstructions?.trim();
  return {
    plannedPickupDateAndTime: `${request.pickupDate}T${window.readyTime}:00GMT${window.utcOffset}`,
    closeTime: window.closeTime,
    ...(request.locationDetail?.trim() ? { location: request.locationDetail.trim().slice(0, TEXT_MAX) } : {}),
    locationType: location.company?.trim() ? "business" : "residence",
    accounts: [{ typeCode: "shipper", number: accountNumber }],
    ...(instructions ? { specialInstructions: [{ value: instructions.slice(0, TEXT_MAX) }] } : {}),
    customerDetails: { shipperDetails: { postalAddress, contactInformation } },
    shipmentDetails,
  };
}

/** Who asks DHL to cancel (MyDHL API requires a name): the pickup's contact, as booked. */
export function requestorName(request: PickupRequest): string {
  const { location } = request;
  const person = [location.first_name, location.last_name].filter(Boolean).join(" ").trim();
  return (person || location.company?.trim() || "Shipping").slice(0, 45);
}
