import { CarrierCallError, type CarrierHttpClient } from "../../api-client/carrier-http-client.js";
import {
  type AddressCapability,
  type CarrierAdapter,
  CarrierError,
  type ManifestCapability,
  type PickupCapability,
  type PurchasedParcel,
  type PurchaseRequest,
  type RateRequest,
  type ServiceRate,
} from "../../carrier.js";
import type { ServiceDefinition } from "../../catalogue.js";
import { courierAvailability, pickupWindow } from "../../pickup-calendar.js";
import { localDay } from "../../sandbox/local-time.js";
import { voidBeforeFailing } from "../../unvoided-labels.js";
import { fedex } from "../index.js";
import { FEDEX_PICKUP_RULE } from "../pickups.js";
import type { FedexCredentials } from "./fedex-credentials.js";
import {
  addressVerdict,
  chargedRate,
  commercialInvoiceOf,
  dollarsToCents,
  estimatedDeliveryDate,
  FEDEX_LABEL_FORMATS,
  type FedexPackaging,
  fedexLabelSpec,
  fedexPackaging,
  fedexServiceType,
  GROUND_SERVICE_CODES,
  porterServiceCode,
  quoteFromRatedShipment,
  rateDeliveryDate,
  readableRate,
  shipmentDeliveryDate,
  shipmentRatingDetail,
  splitQuote,
  trackingEvents,
} from "./fedex-mapping.js";
import {
  availabilityVerdict,
  cancelPickupRequest,
  createPickupRequest,
  fedexPickupCarrier,
  pickupAvailabilityRequest,
} from "./fedex-pickups.js";
import {
  cancelRequest,
  customsClearance,
  groundCloseRequest,
  phoneDigits,
  rateQuoteRequest,
  resolveRequest,
  shipRequest,
  trackRequest,
} from "./fedex-requests.js";
import type {
  FedexAddressResolveResponse,
  FedexCancelPickupResponse,
  FedexCancelResponse,
  FedexCreatePickupResponse,
  FedexGroundCloseResponse,
  FedexPickupAvailabilityResponse,
  FedexRateQuoteResponse,
  FedexRateReplyDetail,
  FedexShipResponse,
  FedexTrackResponse,
} from "./fedex-wire.js";

/**
 * The manifest FedEx returned with its close, when it is a PDF: its parts joined in order. FedEx
 * may answer printer text instead, or nothing, and then Porter draws the document itself.
 */
function closeManifestPdf(answer: FedexGroundCloseResponse): Buffer | undefined {
  const manifest = answer.output?.closeDocuments?.find((d) => d.type === "MANIFEST");
  const parts = [...(manifest?.parts ?? [])].sort(
    (a, b) => (a.documentPartSequenceNumber ?? 0) - (b.documentPartSequenceNumber ?? 0),
  );
  const bytes = Buffer.concat(parts.map((part) => Buffer.from(part.image ?? "", "base64")));
  return bytes.subarray(0, 5).toString("latin1") === "%PDF-" ? bytes : undefined;
}

/** `{key: value}` when FedEx gave the value, nothing when it did not. */
function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

/** The price column FedEx read: its zone as a number at home ("03" → "3"), its own name for it abroad. */
function priceGroupOf(zone: string | null): string | null {
  return zone !== null && /^\d+$/.test(zone) ? String(Number(zone)) : zone;
}

/** A service FedEx did not price, with FedEx's words when it gave any. */
function refused(service: ServiceDefinition, packageType: string, refusal: string): ServiceRate {
  return { service, zone: null, packageType, priceGroup: null, rateCalcTypes: ["standard"], refusal };
}

/**
 * FedEx through its REST APIs, for one connection. One rate quote prices every FedEx service at
 * once; a service FedEx does not offer for the shipment comes back refused, while an outage, a
 * refused token or an unreadable answer fails the carrier as a whole (a warning beside the other
 * carriers' rates). Labels are FedEx's own, in the format asked for.
 */
export function fedexApiCarrier(client: CarrierHttpClient, credentials: FedexCredentials): CarrierAdapter {
  function serviceRate(
    service: ServiceDefinition,
    reply: FedexRateReplyDetail,
    request: RateRequest,
    packaging: FedexPackaging,
  ): ServiceRate {
    const packageType = request.parcels[0]?.packageType ?? "parcel";
    const { charged, list } = chargedRate(reply.ratedShipmentDetails);
    if (!readableRate(charged)) throw client.error(`FedEx answered ${service.name} with an unreadable price.`);
    const quote = quoteFromRatedShipment(charged, request.parcels);
    const zone = charged.shipmentRateDetail?.rateZone ?? null;
    return {
      service,
      zone,
      packageType,
      priceGroup: priceGroupOf(zone),
      rateCalcTypes: [packaging.oneRate ? "flat_rate" : "standard"],
      quote,
      ...(readableRate(list) ? { retailCents: dollarsToCents(list.totalNetCharge ?? 0) } : {}),
      ...optional("deliveryDate", rateDeliveryDate(reply)),
      parcelQuotes: splitQuote(quote, request.parcels),
    };
  }

  async function rate(request: RateRequest): Promise<ServiceRate[]> {
    if (request.services.length === 0) return [];
    const packageType = request.parcels[0]?.packageType ?? "parcel";
    const packaging = fedexPackaging(request.parcels);
    if ("refusal" in packaging) return request.services.map((s) => refused(s, packageType, packaging.refusal));
    let answer: FedexRateQuoteResponse;
    try {
      answer = await client.json<FedexRateQuoteResponse>({
        method: "POST",
        path: "/rate/v1/rates/quotes",
        purpose: "rate",
        json: rateQuoteRequest(credentials, request, packaging),
      });
    } catch (error) {
      // FedEx answers 400 when it offers no service for the shipment: each service is refused in its words.
      if (error instanceof CarrierCallError && error.status === 400) {
        return request.services.map((s) => refused(s, packageType, error.message));
      }
      throw error;
    }
    const replies = answer.output?.rateReplyDetails;
    if (!Array.isArray(replies)) throw client.error("FedEx answered the rate request without rates.");
    const byService = new Map(replies.map((reply) => [porterServiceCode(reply.serviceType), reply]));
    return request.services.map((service) => {
      const reply = byService.get(service.serviceCode);
      if (!reply) return refused(service, packageType, `FedEx does not offer ${service.name} for this shipment`);
      return serviceRate(service, reply, request, packaging);
    });
  }

  async function purchase(request: PurchaseRequest) {
    const serviceType = fedexServiceType(request.service);
    if (!serviceType)
      throw new CarrierError("fed_ex", `${request.service.name} is not sold through FedEx's API by Porter.`);
    const customs = request.from.country === request.to.country ? undefined : customsClearance(request);
    if (customs && "refusal" in customs) throw new CarrierError("fed_ex", customs.refusal);
    const packaging = fedexPackaging(request.parcels);
    if ("refusal" in packaging) throw new CarrierError("fed_ex", packaging.refusal);
    const label = fedexLabelSpec(request.label.format, request.label.size);
    if ("refusal" in label) throw new CarrierError("fed_ex", label.refusal);
    const phone = phoneDigits(request.from.phone);
    if (!phone)
      throw new CarrierError("fed_ex", "FedEx needs the sender's phone number (from_location.phone) on a shipment.");
    const answer = await client.json<FedexShipResponse>({
      method: "POST",
      path: "/ship/v1/shipments",
      purpose: "label",
      json: shipRequest(credentials, request, serviceType, packaging, label, phone, customs),
      headers: { "x-customer-transaction-id": request.purchaseKey },
      // FedEx's Ship API takes no idempotency key: a repeat after a 429 or 503 could buy a second label.
      idempotent: false,
    });
    const shipment = answer.output?.transactionShipments?.[0];
    const pieces = shipment?.pieceResponses ?? [];
    const parcels: PurchasedParcel[] = [];
    for (const piece of pieces) {
      const document = piece.packageDocuments?.find((d) => d.contentType === "LABEL" && d.encodedLabel);
      if (!piece.trackingNumber || !document?.encodedLabel) break;
      parcels.push({
        trackingNumber: piece.trackingNumber,
        label: {
          bytes: Buffer.from(document.encodedLabel, "base64"),
          format: request.label.format,
          widthIn: label.widthIn,
          heightIn: label.heightIn,
          dpi: label.dpi,
        },
      });
    }
    const rating = shipmentRatingDetail(shipment?.completedShipmentDetail?.shipmentRating);
    if (parcels.length !== request.parcels.length || !readableRate(rating)) {
      // FedEx sold something Porter cannot read: take it back rather than leave a label unaccounted for.
      const sold = pieces.find((p) => p.trackingNumber)?.trackingNumber;
      throw await voidBeforeFailing(
        client.error(
          "FedEx answered the shipment without a label and tracking number for every parcel, or without its price.",
        ),
        sold ? [sold] : [],
        ([trackingNumber]) => cancel(trackingNumber as string),
      );
    }
    const quote = quoteFromRatedShipment(rating, request.parcels);
    const invoice = customs ? commercialInvoiceOf(shipment) : undefined;
    const zone = rating.shipmentRateDetail?.rateZone ?? null;
    return {
      rate: {
        service: request.service,
        zone,
        packageType: request.parcels[0]?.packageType ?? "parcel",
        priceGroup: priceGroupOf(zone),
        rateCalcTypes: [packaging.oneRate ? ("flat_rate" as const) : ("standard" as const)],
        quote,
        parcelQuotes: splitQuote(quote, request.parcels),
        ...optional("deliveryDate", shipmentDeliveryDate(shipment)),
      },
      parcels,
      ...(invoice ? { customsDocument: invoice } : {}),
    };
  }

  async function cancel(trackingNumber: string): Promise<void> {
    const answer = await client.json<FedexCancelResponse>({
      method: "PUT",
      path: "/ship/v1/shipments/cancel",
      purpose: "label",
      json: cancelRequest(credentials, trackingNumber),
    });
    if (answer.output?.cancelledShipment !== true) {
      throw client.error(
        `FedEx did not cancel shipment ${trackingNumber}: ${answer.output?.message ?? "no reason given"}.`,
      );
    }
  }

  const addresses: AddressCapability = {
    async validate(address) {
      const answer = await client.json<FedexAddressResolveResponse>({
        method: "POST",
        path: "/address/v1/addresses/resolve",
        purpose: "address",
        json: resolveRequest(address),
      });
      return addressVerdict(address, answer.output?.resolvedAddresses?.[0]);
    },
  };

  const manifests: ManifestCapability = {
    documentName: "FedEx Ground End-of-Day Close manifest",
    // FedEx closes every Ground shipment of the day at once, however many.
    documentLimit: 10_000,
    daily: true,
    closesShipDate: true,
    refusal(piece, form) {
      if (!GROUND_SERVICE_CODES.has(piece.serviceCode)) {
        return "FedEx's end-of-day close is for FedEx Ground and FedEx Home Delivery only; Express shipments need no close";
      }
      if (piece.shipDate !== form.mailingDate) {
        return `its ship date is ${piece.shipDate}, and FedEx closes one ship date at a time (this close is for ${form.mailingDate})`;
      }
      return undefined;
    },
    countedAs: (piece) => (piece.serviceCode === "fedex_ground_home" ? "FedEx Home Delivery" : "FedEx Ground"),
    async fileManifest(request) {
      let answer: FedexGroundCloseResponse;
      try {
        answer = await client.json<FedexGroundCloseResponse>({
          method: "PUT",
          path: "/ship/v1/endofday/",
          purpose: "manifest",
          json: groundCloseRequest(credentials, request.mailingDate),
        });
      } catch (error) {
        // A 400 is FedEx's verdict on the close itself (nothing open to close that date): asking again cannot change it.
        if (error instanceof CarrierCallError && error.status === 400) {
          throw new CarrierError("fed_ex", `FedEx refused the close of ${request.mailingDate}: ${error.message}`, true);
        }
        throw error;
      }
      const cycle = answer.output?.closeDocuments?.find((d) => d.shippingCycle)?.shippingCycle;
      const documentNumber = cycle ?? answer.transactionId;
      if (!documentNumber) throw client.error("FedEx answered the end-of-day close without a reference.");
      const document = closeManifestPdf(answer);
      return document ? { documentNumber, document: { bytes: document, format: "pdf" } } : { documentNumber };
    },
  };

  /**
   * FedEx pickups: FedEx is asked whether it comes to the address on the day (its cut-off decides),
   * then the pickup is created with the FedEx company that carries the shipments; cancelling names
   * the company and, for Express, the location that took the pickup.
   */
  const pickups: PickupCapability = {
    availability: (pickupDate, now, location) => courierAvailability(FEDEX_PICKUP_RULE, pickupDate, now, location),
    async schedule(request) {
      const carrier = fedexPickupCarrier(request.shipments);
      if (typeof carrier !== "string") throw new CarrierError("fed_ex", carrier.refusal);
      const window = pickupWindow(FEDEX_PICKUP_RULE, request.pickupDate, request.now, request.location);
      const today = localDay(request.now, window.timeZone);
      const body = createPickupRequest(request, credentials, carrier, window, today);
      if ("refusal" in body) throw new CarrierError("fed_ex", body.refusal);
      const availability = await client.json<FedexPickupAvailabilityResponse>({
        method: "POST",
        path: "/pickup/v1/pickups/availabilities",
        purpose: "pickup",
        json: pickupAvailabilityRequest(request, credentials, carrier, window, today),
      });
      const verdict = availabilityVerdict(availability, carrier, request.pickupDate, window);
      if ("refusal" in verdict) throw new CarrierError("fed_ex", verdict.refusal);
      const answer = await client.json<FedexCreatePickupResponse>({
        method: "POST",
        path: "/pickup/v1/pickups",
        purpose: "pickup",
        json: body,
      });
      const code = answer.output?.pickupConfirmationCode;
      if (!code) throw client.error("FedEx answered the pickup request without a confirmation code.");
      const location = answer.output?.location;
      return { confirmationNumber: code, details: { carrierCode: carrier, ...(location ? { location } : {}) } };
    },
    async cancel(pickup) {
      const answer = await client.json<FedexCancelPickupResponse>({
        method: "PUT",
        path: "/pickup/v1/pickups/cancel",
        purpose: "pickup",
        json: cancelPickupRequest(credentials, pickup),
      });
      if (!answer.output?.cancelConfirmationMessage && !answer.output?.pickupConfirmationCode) {
        throw client.error(`FedEx did not confirm cancelling pickup ${pickup.confirmationNumber}.`);
      }
    },
  };

  return {
    code: "fed_ex",
    displayName: "FedEx",
    services: fedex.services,
    apis: ["rate", "label", "tracking", "manifest", "pickup"],
    zone: fedex.zone,
    labelFormats: FEDEX_LABEL_FORMATS,
    addresses,
    manifests,
    pickups,
    rate,
    purchase,
    // FedEx cancels a multi-piece shipment as a whole by its master tracking number, the first parcel's.
    async voidLabels(trackingNumbers) {
      const master = trackingNumbers[0];
      if (master) await cancel(master);
    },
    async track(request) {
      const answer = await client.json<FedexTrackResponse>({
        method: "POST",
        path: "/track/v1/trackingnumbers",
        purpose: "tracking",
        json: trackRequest(request.trackingNumber),
      });
      const result = answer.output?.completeTrackResults?.[0]?.trackResults?.[0];
      if (!result) throw client.error("FedEx answered the tracking request without a result.");
      // A label FedEx has not scanned yet may be unknown to tracking for a while: no events so far.
      if (result.error?.code === "TRACKING.TRACKINGNUMBER.NOTFOUND") {
        return { events: [], estimatedDeliveryDate: null, nextEventAt: null };
      }
      if (result.error) throw client.error(`FedEx could not track ${request.trackingNumber}: ${result.error.message}`);
      return {
        events: trackingEvents(result),
        estimatedDeliveryDate: estimatedDeliveryDate(result),
        nextEventAt: null,
      };
    },
  };
}
