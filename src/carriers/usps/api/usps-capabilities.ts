import { CarrierCallError, type CarrierHttpClient } from "../../api-client/carrier-http-client.js";
import {
  type AddressCapability,
  CarrierError,
  type ManifestCapability,
  type PickupCapability,
  type TrackingReport,
  type TrackingRequest,
} from "../../carrier.js";
import { uspsManifests } from "../manifest.js";
import { uspsPickups } from "../pickups.js";
import { addressQuery, addressVerdict } from "./usps-addresses.js";
import { schedulePickupRequest } from "./usps-pickup-requests.js";
import { readScanFormAnswer, scanFormRequest } from "./usps-scan-forms.js";
import { trackingReport } from "./usps-tracking.js";
import type { UspsAddressResponse, UspsPickupConfirmation, UspsTrackingDetails } from "./usps-wire.js";

/**
 * A parcel's history from Package Tracking (`GET /tracking/v3/tracking/{n}?expand=DETAIL`). A
 * number USPS does not know yet (404: the label data has not reached it) has no events.
 */
export async function trackUspsParcel(client: CarrierHttpClient, request: TrackingRequest): Promise<TrackingReport> {
  try {
    const details = await client.json<UspsTrackingDetails>({
      method: "GET",
      path: `/tracking/v3/tracking/${encodeURIComponent(request.trackingNumber)}`,
      purpose: "tracking",
      query: { expand: "DETAIL" },
    });
    return trackingReport(details);
  } catch (error) {
    if (error instanceof CarrierCallError && error.status === 404) {
      return { events: [], estimatedDeliveryDate: null, nextEventAt: null };
    }
    throw error;
  }
}

/**
 * US addresses through Addresses (`GET /addresses/v3/address`): USPS's standardized address, its
 * delivery-point verdict and business flag. An address USPS finds no match for (its 404, or a
 * 400 about the address) is invalid in USPS's words; elsewhere than the US USPS has no answer.
 */
export function uspsAddresses(client: CarrierHttpClient): AddressCapability {
  return {
    async validate(address) {
      if (address.country.trim().toUpperCase() !== "US") {
        throw new CarrierError("usps", "USPS validates US addresses only.");
      }
      try {
        const answer = await client.json<UspsAddressResponse>({
          method: "GET",
          path: "/addresses/v3/address",
          purpose: "address",
          query: { ...addressQuery(address) },
        });
        return addressVerdict(address, answer);
      } catch (error) {
        if (!(error instanceof CarrierCallError) || (error.status !== 404 && error.status !== 400)) throw error;
        return { valid: false, reasons: [error.message], address, residential: null };
      }
    },
  };
}

/**
 * USPS Carrier Pickup: the days USPS comes are the sandbox's rules (the API's: Monday to
 * Saturday, same day until 02:00 Central, a year ahead); booking asks USPS whether it picks up
 * at the address (`GET /carrier-pickup/eligibility`), then schedules (`POST /carrier-pickup`);
 * cancelling reads the pickup's ETag and deletes it with If-Match, as the API requires.
 */
export function uspsApiPickups(client: CarrierHttpClient): PickupCapability {
  return {
    availability: uspsPickups.availability,
    async schedule(request) {
      const body = schedulePickupRequest(request);
      await client.send({
        method: "GET",
        path: "/pickup/v3/carrier-pickup/eligibility",
        purpose: "pickup",
        query: { ...body.pickupAddress.address },
      });
      const confirmation = await client.json<Partial<UspsPickupConfirmation>>({
        method: "POST",
        path: "/pickup/v3/carrier-pickup",
        purpose: "pickup",
        json: body,
      });
      if (typeof confirmation.confirmationNumber !== "string" || confirmation.confirmationNumber === "") {
        throw client.error("USPS answered the pickup request without a confirmation number.");
      }
      return { confirmationNumber: confirmation.confirmationNumber };
    },
    async cancel({ confirmationNumber }) {
      const path = `/pickup/v3/carrier-pickup/${encodeURIComponent(confirmationNumber)}`;
      const read = await client.send({ method: "GET", path, purpose: "pickup" });
      const etag = read.headers.get("etag");
      if (!etag) throw client.error("USPS answered the pickup without the ETag a cancellation needs.");
      await client.send({ method: "DELETE", path, purpose: "pickup", headers: { "if-match": etag } });
    },
  };
}

/**
 * USPS SCAN forms through the SCAN Forms API: the same rules as the sandbox's (what may share a
 * form, how pieces are counted); filing lists the batch's labels and takes USPS's EFN and form.
 */
export function uspsApiManifests(client: CarrierHttpClient): ManifestCapability {
  return {
    ...uspsManifests,
    async fileManifest(request) {
      if (!request.trackingNumbers?.length || !request.from) {
        throw new CarrierError("usps", "A USPS SCAN form needs the labels' tracking numbers and the sender's address.");
      }
      const answer = await client.send({
        method: "POST",
        path: "/scan-forms/v3/scan-form",
        purpose: "manifest",
        json: scanFormRequest({
          mailingDate: request.mailingDate,
          originPostalCode: request.originPostalCode,
          from: request.from,
          trackingNumbers: request.trackingNumbers,
        }),
        headers: { accept: "application/vnd.usps.labels+json" },
      });
      try {
        const { metadata, document } = readScanFormAnswer(answer.headers.get("content-type") ?? "", answer.bytes);
        return { documentNumber: metadata.manifestNumber, ...(document && { document }) };
      } catch (error) {
        throw client.error(
          `USPS answered the SCAN form request unreadably: ${(error as Error).message}`,
          answer.status,
        );
      }
    },
  };
}
