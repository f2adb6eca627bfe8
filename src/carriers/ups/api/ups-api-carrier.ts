import { randomBytes } from "node:crypto";
import type { CarrierHttpClient, CarrierHttpRequest } from "../../api-client/carrier-http-client.js";
import { CarrierCallError } from "../../api-client/carrier-http-client.js";
import {
  type AddressVerdict,
  type CarrierAdapter,
  CarrierError,
  type CarrierLabel,
  type PickupCapability,
  type Purchase,
  type PurchaseRequest,
  type RateRequest,
  type ServiceRate,
  type TrackingReport,
} from "../../carrier.js";
import type { ServiceDefinition } from "../../catalogue.js";
import { courierAvailability, pickupWindow } from "../../pickup-calendar.js";
import { eligiblePackaging, isRefusal, rateCalcType } from "../../sandbox/eligibility.js";
import { voidBeforeFailing } from "../../unvoided-labels.js";
import { ups } from "../index.js";
import { UPS_PICKUP_RULE } from "../pickups.js";
import { addressVerdict, XAV_VALIDATE_AND_CLASSIFY, xavRequest } from "./ups-addresses.js";
import { UPS_VERSIONS } from "./ups-client.js";
import type { UpsCredentials } from "./ups-credentials.js";
import { commercialInvoice } from "./ups-customs.js";
import { pickupCancelled, pickupCreationRequest, pickupRequestNumber } from "./ups-pickups.js";
import { upsParty, upsPhone, upsServiceCode, withAttention } from "./ups-products.js";
import { rateRequest, shopOption, shopQuotes, type UpsServiceQuote } from "./ups-rating.js";
import {
  notVoided,
  shippedPackages,
  shipRequest,
  UPS_PORTER_LABEL_FORMATS,
  UPS_PORTER_LABEL_SIZES,
  type UpsShipped,
  upsLabelFormat,
  upsReturnRefusal,
} from "./ups-shipping.js";
import { trackingReport } from "./ups-tracking.js";

/** Printer labels are drawn at 203 dpi; UPS's GIF labels are rasters of the same stock. */
const LABEL_DPI = 203;

/** Where XAV validates street addresses. */
const XAV_COUNTRIES = ["US", "PR"];

/** UPS Next Day Air Early: its recipient must name a contact and a phone. */
const EARLY_SERVICE_CODE = "14";

/**
 * The phones UPS's Shipping requires: the shipper's and the recipient's across a border, the
 * recipient's for Next Day Air Early. Missing, the purchase is refused before calling UPS.
 */
function phoneRefusal(request: PurchaseRequest, abroad: boolean): string | undefined {
  // A return's shipper is the merchant it goes back to (see shipRequest).
  const shipper = request.returnLabel ? request.to : request.from;
  if (abroad && !upsPhone(shipper.phone)) return "UPS needs the shipper's phone number for a shipment abroad.";
  const early = upsServiceCode(request.service) === EARLY_SERVICE_CODE;
  if ((abroad || early) && !upsPhone(request.to.phone)) {
    return `UPS needs the recipient's phone number for ${abroad ? "a shipment abroad" : request.service.name}.`;
  }
  return undefined;
}

function unreadable(client: CarrierHttpClient, what: string, error: unknown): CarrierCallError {
  return client.error(`UPS answered ${what} with something Porter cannot read (${(error as Error).message}).`);
}

/**
 * UPS through its own APIs, for one connection. Rating asks `Shop` once for every service; a UPS
 * that fails (an outage, a refused token, an unreadable answer, a shipment it refuses) fails the
 * carrier as a whole, a warning beside the other carriers' rates. Labels are UPS's own, in the
 * formats it makes (GIF, ZPL, EPL2; PNG and PDF are its GIF, re-encoded when stored); voids,
 * tracking, address validation and On-Call pickups (Pickup Creation and Cancel, by the pickup
 * request number) go to UPS too.
 */
export function upsApiCarrier(client: CarrierHttpClient, credentials: UpsCredentials): CarrierAdapter {
  /** UPS asks each call to carry a unique id (32 characters) and the name of the calling application. */
  const call = <T>(request: CarrierHttpRequest): Promise<T> =>
    client.json<T>({
      ...request,
      headers: { transId: randomBytes(16).toString("hex"), transactionSrc: "porter", ...request.headers },
    });

  function baseRate(service: ServiceDefinition, request: RateRequest): ServiceRate {
    return {
      service,
      zone: null,
      packageType: request.parcels[0]?.packageType ?? "parcel",
      priceGroup: null,
      rateCalcTypes: [...new Set(request.parcels.map((parcel) => rateCalcType(service, parcel.packageType)))],
    };
  }

  /** Porter's own limits first: a service the parcels do not fit is refused without asking UPS. */
  function refusalBeforeAsking(service: ServiceDefinition, request: RateRequest): string | undefined {
    if (!upsServiceCode(service)) return `${service.name} is not rated through the UPS API by Porter.`;
    const context = { zone: 0, residential: request.residential, toCountry: request.to.country, deliveryArea: false };
    for (const parcel of request.parcels) {
      const packaging = eligiblePackaging(service, parcel, context);
      if (isRefusal(packaging)) return packaging.refused;
    }
    return undefined;
  }

  function rated(base: ServiceRate, quoted: UpsServiceQuote): ServiceRate {
    return {
      ...base,
      zone: quoted.zone,
      priceGroup: quoted.zone === null ? null : String(Number(quoted.zone)),
      quote: quoted.quote,
      ...(quoted.transitDays !== null ? { transitDays: quoted.transitDays } : {}),
      ...(quoted.deliveryDate !== null ? { deliveryDate: quoted.deliveryDate } : {}),
    };
  }

  async function shop(request: RateRequest, services: readonly ServiceDefinition[]): Promise<UpsServiceQuote[]> {
    const answer = await call<unknown>({
      method: "POST",
      path: `/api/rating/${UPS_VERSIONS.rating}/${shopOption(request)}`,
      purpose: "rate",
      json: rateRequest(request, credentials.shipperNumber),
    });
    try {
      return shopQuotes(answer, services);
    } catch (error) {
      throw unreadable(client, "the rate request", error);
    }
  }

  async function ship(request: PurchaseRequest): Promise<UpsShipped> {
    const format = upsLabelFormat(request.label.format);
    if (!format) {
      throw new CarrierError(
        "ups",
        `UPS makes labels as ${UPS_PORTER_LABEL_FORMATS.join(", ")}, not ${request.label.format}.`,
      );
    }
    const abroad = request.from.country.trim().toUpperCase() !== request.to.country.trim().toUpperCase();
    const returnRefusal =
      request.returnLabel && upsReturnRefusal(request.service, request.from.country, request.parcels.length);
    if (returnRefusal) throw new CarrierError("ups", returnRefusal);
    const missingPhone = phoneRefusal(request, abroad);
    if (missingPhone) throw new CarrierError("ups", missingPhone);
    const invoice = abroad
      ? commercialInvoice(
          // A return's goods go back as returned goods, whatever they were sold as.
          request.contents
            .flatMap((c) => c.items)
            .map((item) => (request.returnLabel ? { ...item, contentType: "return" } : item)),
          withAttention(upsParty(request.to)),
          { number: request.purchaseKey, date: request.shipDate },
          request.from.country.trim().toUpperCase(),
        )
      : undefined;
    if (invoice && "refusal" in invoice) throw new CarrierError("ups", invoice.refusal);
    if (!UPS_PORTER_LABEL_SIZES.includes(request.label.size)) {
      throw new CarrierError(
        "ups",
        `UPS prints labels ${UPS_PORTER_LABEL_SIZES.join(" or ")}, not ${request.label.size}.`,
      );
    }
    const answer = await call<unknown>({
      method: "POST",
      path: `/api/shipments/${UPS_VERSIONS.shipping}/ship`,
      purpose: "label",
      // UPS's Shipping takes no idempotency key: a 429 or 503 may follow a sale, so it is not asked again.
      idempotent: false,
      json: shipRequest({
        shipperNumber: credentials.shipperNumber,
        service: request.service,
        from: request.from,
        to: request.to,
        residential: request.residential,
        parcels: request.parcels.map((parcel, index) => ({
          ...parcel,
          reference: request.contents[index]?.reference ?? null,
        })),
        label: { format, size: request.label.size },
        shipDate: request.shipDate,
        purchaseKey: request.purchaseKey,
        description: request.contents.flatMap((c) => c.items).find((item) => item.description)?.description ?? null,
        ...(invoice ? { customs: invoice } : {}),
        ...(request.returnLabel ? { returnLabel: true } : {}),
      }),
    });
    try {
      return shippedPackages(
        answer,
        request.service.name,
        request.parcels.map((parcel) => parcel.weightOz),
      );
    } catch (error) {
      // UPS may have sold the labels: whatever it numbered is voided before Porter gives up.
      const numbers = (answer as { ShipmentResponse?: { ShipmentResults?: { ShipmentIdentificationNumber?: string } } })
        ?.ShipmentResponse?.ShipmentResults?.ShipmentIdentificationNumber;
      throw await voidBeforeFailing(
        unreadable(client, "the label request", error),
        numbers ? [numbers] : [],
        voidLabels,
      );
    }
  }

  async function voidLabels(trackingNumbers: readonly string[]): Promise<void> {
    const [shipmentId] = trackingNumbers;
    if (!shipmentId) return;
    const answer = await call<unknown>({
      method: "DELETE",
      path: `/api/shipments/${UPS_VERSIONS.shipping}/void/cancel/${encodeURIComponent(shipmentId)}`,
      purpose: "label",
      ...(trackingNumbers.length > 1 ? { query: { trackingnumber: JSON.stringify(trackingNumbers) } } : {}),
    });
    let left: string[];
    try {
      left = notVoided(answer, trackingNumbers);
    } catch (error) {
      throw unreadable(client, "the void request", error);
    }
    if (left.length > 0) throw new CarrierError("ups", `UPS did not void ${left.join(", ")}.`);
  }

  const pickups: PickupCapability = {
    availability: (pickupDate, now, location) => courierAvailability(UPS_PICKUP_RULE, pickupDate, now, location),
    async schedule(request) {
      const body = pickupCreationRequest(
        request,
        credentials.shipperNumber,
        pickupWindow(UPS_PICKUP_RULE, request.pickupDate, request.now, request.location),
      );
      if ("refusal" in body) throw new CarrierError("ups", body.refusal);
      const answer = await call<unknown>({
        method: "POST",
        path: `/api/pickupcreation/${UPS_VERSIONS.pickup}/pickup`,
        purpose: "pickup",
        json: body,
      });
      const prn = pickupRequestNumber(answer);
      if (!prn) throw client.error("UPS answered the pickup request without a pickup request number (PRN).");
      return { confirmationNumber: prn };
    },
    async cancel(pickup) {
      // CancelBy 02: by the pickup request number, given in the Prn header.
      const answer = await call<unknown>({
        method: "DELETE",
        path: `/api/shipments/${UPS_VERSIONS.pickup}/pickup/02`,
        purpose: "pickup",
        headers: { Prn: pickup.confirmationNumber },
      });
      if (!pickupCancelled(answer))
        throw client.error(`UPS did not confirm cancelling pickup ${pickup.confirmationNumber}.`);
    },
  };

  return {
    code: "ups",
    displayName: "UPS",
    services: ups.services,
    apis: ["rate", "label", "tracking", "pickup"],
    pickups,
    zone: ups.zone,
    labelFormats: UPS_PORTER_LABEL_FORMATS,

    async rate(request) {
      const refusals = new Map<string, string>();
      for (const service of request.services) {
        const refusal = refusalBeforeAsking(service, request);
        if (refusal) refusals.set(service.serviceCode, refusal);
      }
      const asked = request.services.filter((s) => !refusals.has(s.serviceCode));
      const quotes = asked.length > 0 ? await shop(request, asked) : [];
      return request.services.map((service) => {
        const base = baseRate(service, request);
        const refusal = refusals.get(service.serviceCode);
        if (refusal) return { ...base, refusal };
        const quoted = quotes.find((q) => q.service.serviceCode === service.serviceCode);
        return quoted
          ? rated(base, quoted)
          : { ...base, refusal: `UPS does not offer ${service.name} for this shipment.` };
      });
    },

    async purchase(request): Promise<Purchase> {
      const shipped = await ship(request);
      if (!shipped.charges) {
        await voidLabels(shipped.packages.map((p) => p.trackingNumber));
        throw new CarrierError("ups", "UPS sold the labels without naming their price; Porter voided them.");
      }
      const heightIn = request.label.size === "4x8" ? 8 : 6;
      return {
        rate: {
          ...baseRate(request.service, request),
          quote: shipped.charges.quote,
          parcelQuotes: shipped.charges.packageQuotes,
        },
        parcels: shipped.packages.map((pkg) => ({
          trackingNumber: pkg.trackingNumber,
          ...(pkg.label
            ? {
                label: {
                  bytes: pkg.label.bytes,
                  // A GIF whatever image format was asked: Porter re-encodes it when storing.
                  format: upsLabelFormat(request.label.format) === "GIF" ? "gif" : request.label.format,
                  widthIn: 4,
                  heightIn,
                  dpi: LABEL_DPI,
                } satisfies CarrierLabel,
              }
            : {}),
        })),
        ...(shipped.customsDocument ? { customsDocument: shipped.customsDocument } : {}),
      };
    },

    voidLabels,

    async track(request): Promise<TrackingReport> {
      let answer: unknown;
      try {
        answer = await call<unknown>({
          method: "GET",
          path: `/api/track/v1/details/${encodeURIComponent(request.trackingNumber)}`,
          purpose: "tracking",
          query: { locale: "en_US", returnSignature: "false", returnMilestones: "false", returnPOD: "false" },
        });
      } catch (error) {
        // UPS has not heard of the package yet: no events, not a failure.
        if (error instanceof CarrierCallError && error.status === 404) {
          return { events: [], estimatedDeliveryDate: null, nextEventAt: null };
        }
        throw error;
      }
      try {
        return trackingReport(answer, request.trackingNumber);
      } catch (error) {
        throw unreadable(client, "the tracking request", error);
      }
    },

    addresses: {
      async validate(address): Promise<AddressVerdict> {
        if (!XAV_COUNTRIES.includes(address.country.trim().toUpperCase())) {
          throw new CarrierError("ups", "UPS validates street addresses in the US and Puerto Rico only.");
        }
        const answer = await call<unknown>({
          method: "POST",
          path: `/api/addressvalidation/${UPS_VERSIONS.addressValidation}/${XAV_VALIDATE_AND_CLASSIFY}`,
          purpose: "address",
          json: xavRequest(address),
        });
        try {
          return addressVerdict(answer, address);
        } catch (error) {
          throw unreadable(client, "the address validation request", error);
        }
      },
    },
  };
}
