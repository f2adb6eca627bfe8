import type { Clock } from "../../../clock.js";
import type { CarrierHttpClient } from "../../api-client/carrier-http-client.js";
import { CarrierCallError } from "../../api-client/carrier-http-client.js";
import {
  type CarrierAdapter,
  CarrierError,
  type CarrierLabel,
  type PickupCapability,
  type PurchaseRequest,
  type RateRequest,
  type ServiceRate,
  type TrackingReport,
} from "../../carrier.js";
import type { RatedParcel, ServiceDefinition } from "../../catalogue.js";
import { courierAvailability, pickupWindow } from "../../pickup-calendar.js";
import { dhlExpress } from "../index.js";
import { DHL_EXPRESS_PICKUP_RULE } from "../pickups.js";
import { MYDHL_API_VERSION } from "./dhl-express-client.js";
import type { DhlExpressCredentials } from "./dhl-express-credentials.js";
import { dhlPickupRequest, requestorName } from "./dhl-express-pickups.js";
import {
  carriesDocuments,
  DHL_EXPRESS_LABEL_FORMATS,
  declaredValueCents,
  dhlEncodingFormat,
  dhlPackage,
  dhlParty,
  dhlProductCode,
  dhlRateAddress,
  exportLineItems,
  exportReasonType,
  labelTemplate,
  plannedShippingDateAndTime,
  quoteFromProduct,
} from "./dhl-express-products.js";
import { trackingReportOf } from "./dhl-express-tracking.js";
import type {
  DhlDocument,
  DhlPickupResponse,
  DhlRateRequest,
  DhlRateResponse,
  DhlShipmentRequest,
  DhlShipmentResponse,
  DhlTrackingResponse,
  DhlValueAddedService,
} from "./dhl-express-wire.js";

const HEADERS = { "x-version": MYDHL_API_VERSION };
/** MyDHL API references are at most 35 characters. */
const reference = (text: string) => text.slice(0, 35);

/** DHL answered about the shipment itself (not an outage): the services are refused in its words. */
function refusedByDhl(error: unknown): error is CarrierCallError {
  return error instanceof CarrierCallError && error.status !== undefined && [400, 404, 422].includes(error.status);
}

function readableRates(answer: unknown): answer is DhlRateResponse {
  return typeof answer === "object" && answer !== null && Array.isArray((answer as DhlRateResponse).products);
}

/**
 * DHL Express insures a shipment as a whole: value-added service `II` for the parcels' insured
 * values together, which DHL prices as a line of its own.
 */
function shipmentInsurance(parcels: readonly RatedParcel[]): { valueAddedServices?: DhlValueAddedService[] } {
  const cents = parcels.reduce((sum, parcel) => sum + (parcel.insuredCents ?? 0), 0);
  if (cents === 0) return {};
  return { valueAddedServices: [{ serviceCode: "II", value: cents / 100, currency: "USD" }] };
}

/**
 * MyDHL API's invoice template for goods that are returns: the shipper is the party that received
 * the goods and the recipient the one they go back to (`outputImageProperties.imageOptions`).
 */
const RETURNS_INVOICE_TEMPLATE = "RET_COM_INVOICE_A4_01";

/**
 * DHL Express through MyDHL API, for one connection: rates (`POST /rates`, one call for every
 * service and parcel), shipments with DHL's own labels and commercial invoice (`POST /shipments`)
 * and tracking (`GET /shipments/{n}/tracking`). MyDHL API has no void: an unused waybill is never
 * billed, so voiding asks nothing of DHL (see docs/carriers.md).
 */
export function dhlExpressApiCarrier(
  client: CarrierHttpClient,
  credentials: DhlExpressCredentials,
  clock: Clock,
): CarrierAdapter {
  const accounts = [{ typeCode: "shipper" as const, number: credentials.accountNumber }];

  async function rateProducts(request: RateRequest, shipDate: string, productCode?: string): Promise<DhlRateResponse> {
    const body: DhlRateRequest = {
      customerDetails: { shipperDetails: dhlRateAddress(request.from), receiverDetails: dhlRateAddress(request.to) },
      accounts,
      ...(productCode ? { productCode } : {}),
      plannedShippingDateAndTime: plannedShippingDateAndTime(shipDate, clock.now()),
      unitOfMeasurement: "imperial",
      isCustomsDeclarable: !carriesDocuments(request.parcels),
      nextBusinessDay: true,
      estimatedDeliveryDate: { isRequested: true, typeCode: "QDDC" },
      ...shipmentInsurance(request.parcels),
      packages: request.parcels.map(dhlPackage),
    };
    const answer = await client.json<unknown>({
      method: "POST",
      path: "/rates",
      purpose: "rate",
      json: body,
      headers: HEADERS,
    });
    if (!readableRates(answer))
      throw client.error("DHL Express answered the rate request with something that is not a rate.");
    return answer;
  }

  function serviceRate(
    service: ServiceDefinition,
    request: RateRequest,
    answer: DhlRateResponse | { refusal: string },
  ): ServiceRate {
    const base = {
      service,
      zone: null,
      packageType: request.parcels[0]?.packageType ?? "parcel",
      priceGroup: null,
      rateCalcTypes: ["standard" as const],
    };
    if ("refusal" in answer) return { ...base, refusal: answer.refusal };
    const code = dhlProductCode(service, carriesDocuments(request.parcels));
    const product = answer.products.find((candidate) => candidate.productCode === code);
    if (!code || !product) {
      return {
        ...base,
        refusal: `DHL Express offers no ${service.name} (product ${code ?? "none"}) for this shipment.`,
      };
    }
    const priced = quoteFromProduct(product, request.parcels);
    if ("refusal" in priced) return { ...base, refusal: priced.refusal };
    return {
      ...base,
      quote: priced.quote,
      ...(priced.deliveryDate ? { deliveryDate: priced.deliveryDate } : {}),
    };
  }

  async function rate(request: RateRequest, shipDate: string, productCode?: string): Promise<ServiceRate[]> {
    if (request.from.country.toUpperCase() === request.to.country.toUpperCase()) {
      return request.services.map((service) =>
        serviceRate(service, request, { refusal: "DHL Express carries shipments between countries only." }),
      );
    }
    let answer: DhlRateResponse | { refusal: string };
    try {
      answer = await rateProducts(request, shipDate, productCode);
    } catch (error) {
      if (!refusedByDhl(error)) throw error;
      answer = { refusal: error.message };
    }
    return request.services.map((service) => serviceRate(service, request, answer));
  }

  function shipmentRequest(request: PurchaseRequest, productCode: string): DhlShipmentRequest {
    if (request.returnLabel?.type === "scan_based") {
      throw new CarrierError(
        "dhl_express",
        "DHL Express sells no pay-on-use return labels through MyDHL API; buy a print return label.",
      );
    }
    const returning = request.returnLabel !== undefined;
    const format = dhlEncodingFormat(request.label.format);
    if (!format) {
      throw new CarrierError(
        "dhl_express",
        `DHL Express makes labels as ${DHL_EXPRESS_LABEL_FORMATS.join(", ")}, not ${request.label.format}.`,
      );
    }
    const documents = carriesDocuments(request.parcels);
    const items = request.contents.flatMap((contents) => contents.items);
    const declarable = !documents;
    const description = (
      items.find((item) => item.description?.trim())?.description ?? (documents ? "Documents" : "Goods")
    )
      .trim()
      .slice(0, 70);
    return {
      plannedShippingDateAndTime: plannedShippingDateAndTime(request.shipDate, clock.now()),
      pickup: { isRequested: false },
      productCode,
      accounts,
      ...shipmentInsurance(request.parcels),
      outputImageProperties: {
        printerDPI: 300,
        encodingFormat: format,
        imageOptions: [
          { typeCode: "label", templateName: labelTemplate(request.label.size).templateName },
          { typeCode: "waybillDoc", isRequested: false },
          ...(declarable
            ? [
                {
                  typeCode: "invoice" as const,
                  isRequested: true,
                  ...(returning
                    ? { templateName: RETURNS_INVOICE_TEMPLATE, invoiceType: "returns" as const }
                    : { invoiceType: "commercial" as const }),
                  languageCode: "eng",
                },
              ]
            : []),
        ],
        splitDocumentsByPages: true,
        splitInvoiceAndReceipt: true,
      },
      customerReferences: [{ value: reference(request.purchaseKey), typeCode: "CU" }],
      customerDetails: {
        shipperDetails: dhlParty(request.from, "shipper"),
        receiverDetails: dhlParty(request.to, "recipient"),
      },
      content: {
        packages: request.parcels.map((parcel, index) => {
          const name = request.contents[index]?.reference;
          return {
            ...dhlPackage(parcel),
            ...(name ? { customerReferences: [{ value: reference(name), typeCode: "CU" }] } : {}),
          };
        }),
        isCustomsDeclarable: declarable,
        ...(declarable
          ? {
              declaredValue: declaredValueCents(items) / 100,
              declaredValueCurrency: "USD",
              exportDeclaration: {
                lineItems: exportLineItems(items, request.from.country),
                invoice: { number: reference(request.purchaseKey), date: request.shipDate },
                exportReasonType: returning ? "return" : exportReasonType(items[0]?.contentType ?? null),
                shipmentType: items.every((item) => item.contentType === "gift") ? "personal" : "commercial",
              },
            }
          : {}),
        description: description || "Goods",
        incoterm: "DAP",
        unitOfMeasurement: "imperial",
      },
    };
  }

  /** Each parcel's label: DHL's label page for its package (one file per page), in order. */
  function labelsOf(answer: DhlShipmentResponse, request: PurchaseRequest): CarrierLabel[] {
    const pages = (answer.documents ?? []).filter((document) => document.typeCode === "label");
    if (pages.length === 0) throw client.error("DHL Express created the shipment but sent no label.");
    const size = labelTemplate(request.label.size);
    const thermal = request.label.format !== "pdf";
    return request.parcels.map((_, index) => {
      const page: DhlDocument =
        pages.find((document) => document.packageReferenceNumber === index + 1) ??
        pages[index] ??
        (pages[0] as DhlDocument);
      return {
        bytes: Buffer.from(page.content, "base64"),
        format: request.label.format,
        widthIn: size.widthIn,
        heightIn: size.heightIn,
        dpi: thermal ? 300 : 72,
      };
    });
  }

  const readings = new Map<string, Promise<TrackingReport>>();

  async function readTracking(waybill: string): Promise<TrackingReport> {
    let answer: unknown;
    try {
      answer = await client.json<unknown>({
        method: "GET",
        path: `/shipments/${encodeURIComponent(waybill)}/tracking`,
        purpose: "tracking",
        query: { trackingView: "all-checkpoints", levelOfDetail: "shipment", requestGMTOffsetPerEvent: true },
        headers: HEADERS,
      });
    } catch (error) {
      // DHL has no data until its network has seen the shipment.
      if (error instanceof CarrierCallError && error.status === 404) {
        return { events: [], estimatedDeliveryDate: null, nextEventAt: null };
      }
      throw error;
    }
    const report =
      typeof answer === "object" && answer !== null ? trackingReportOf(answer as DhlTrackingResponse) : undefined;
    if (!report) throw client.error("DHL Express answered the tracking request with something that is not tracking.");
    return report;
  }

  /**
   * Pickups: `POST /pickups` books a courier for the shipments (DHL's dispatch confirmation number),
   * `DELETE /pickups/{number}` cancels it in the name of the contact who booked it.
   */
  const pickups: PickupCapability = {
    availability: (pickupDate, now, location) =>
      courierAvailability(DHL_EXPRESS_PICKUP_RULE, pickupDate, now, location),
    async schedule(request) {
      const window = pickupWindow(DHL_EXPRESS_PICKUP_RULE, request.pickupDate, request.now, request.location);
      const body = dhlPickupRequest(request, credentials.accountNumber, window);
      if ("refusal" in body) throw new CarrierError("dhl_express", body.refusal);
      const answer = await client.json<DhlPickupResponse>({
        method: "POST",
        path: "/pickups",
        purpose: "pickup",
        json: body,
        headers: HEADERS,
      });
      const number = answer.dispatchConfirmationNumbers?.find((n) => typeof n === "string" && n !== "");
      if (!number)
        throw client.error("DHL Express answered the pickup request without a dispatch confirmation number.");
      return { confirmationNumber: number, details: { requestorName: requestorName(request) } };
    },
    async cancel(pickup) {
      await client.send({
        method: "DELETE",
        path: `/pickups/${encodeURIComponent(pickup.confirmationNumber)}`,
        purpose: "pickup",
        query: { requestorName: pickup.details?.requestorName ?? "Shipping", reason: "Cancelled by the shipper" },
        headers: HEADERS,
      });
    },
  };

  return {
    code: "dhl_express",
    displayName: "DHL Express",
    services: dhlExpress.services,
    apis: ["rate", "label", "tracking", "pickup"],
    zone: dhlExpress.zone,
    pickups,
    labelFormats: ["pdf", "zpl", "epl2"],
    rate: (request) => rate(request, request.shipDate ?? clock.now().toISOString().slice(0, 10)),
    async purchase(request) {
      const productCode = dhlProductCode(request.service, carriesDocuments(request.parcels));
      if (!productCode) throw new CarrierError("dhl_express", `${request.service.name} has no DHL Express product.`);
      // Written first, so a shipment DHL would refuse as written is refused before DHL is asked.
      const shipment = shipmentRequest(request, productCode);
      // Priced first, so a service DHL will not carry is refused before a waybill is made.
      const [rated] = await rate({ ...request, services: [request.service] }, request.shipDate, productCode);
      if (!rated?.quote)
        throw new CarrierError("dhl_express", rated?.refusal ?? "DHL Express did not price the shipment.");
      const answer = await client.json<DhlShipmentResponse>({
        method: "POST",
        path: "/shipments",
        purpose: "label",
        json: shipment,
        headers: HEADERS,
        // MyDHL API has no idempotency key for a shipment: a second try could buy a second waybill.
        idempotent: false,
      });
      const waybill = answer.shipmentTrackingNumber;
      if (typeof waybill !== "string" || waybill === "") {
        throw client.error("DHL Express answered the shipment request without a waybill number.");
      }
      const labels = labelsOf(answer, request);
      const invoice = answer.documents?.find((document) => document.typeCode === "invoice");
      return {
        rate: rated,
        // One waybill covers every piece of a DHL Express shipment: it is what DHL tracks.
        parcels: labels.map((label) => ({ trackingNumber: waybill, label })),
        ...(invoice ? { customsDocument: Buffer.from(invoice.content, "base64") } : {}),
      };
    },
    // MyDHL API has no void: a waybill DHL never picks up or scans is not billed.
    voidLabels: async () => undefined,
    track(request) {
      // Every parcel of a shipment carries its one waybill: parcels read together share one call.
      const key = `${request.trackingNumber}@${request.asOf.getTime()}`;
      let reading = readings.get(key);
      if (!reading) {
        reading = readTracking(request.trackingNumber).finally(() => readings.delete(key));
        readings.set(key, reading);
      }
      return reading;
    },
  };
}
