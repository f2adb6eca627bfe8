/**
 * The FedEx requests Porter sends, built from Porter's own shapes in pure functions: rate quote,
 * shipment, cancel, track, address resolution and Ground end-of-day close.
 */
import type { CarrierAddress, PurchaseRequest, RateRequest } from "../../carrier.js";
import type { FedexCredentials } from "./fedex-credentials.js";
import { type FedexLabelSpec, type FedexPackaging, fedexAddress, fedexPackage, fedexWeight } from "./fedex-mapping.js";
import type {
  FedexAddressResolveRequest,
  FedexCancelRequest,
  FedexCommodity,
  FedexContact,
  FedexCustomsClearance,
  FedexGroundCloseRequest,
  FedexParty,
  FedexRateCommodity,
  FedexRateQuoteRequest,
  FedexShipmentPurpose,
  FedexShippingDocumentSpecification,
  FedexShipRequest,
  FedexTrackRequest,
} from "./fedex-wire.js";

/** Parcels are handed over at a FedEx location unless the account books pickups (a later option). */
const PICKUP_TYPE = "DROPOFF_AT_FEDEX_LOCATION" as const;
/** The account's own (discounted) rate, and FedEx's list rate beside it. */
const RATE_TYPES: ("ACCOUNT" | "LIST")[] = ["ACCOUNT", "LIST"];

function specialServices(packaging: FedexPackaging) {
  return packaging.oneRate ? { shipmentSpecialServices: { specialServiceTypes: ["FEDEX_ONE_RATE"] } } : {};
}

/**
 * A shipment's special services: One Rate for FedEx packaging, and for a return label
 * `RETURN_SHIPMENT` with a printed return label (`returnType: PRINT_RETURN_LABEL`), which the Ship
 * API requires of return shipments.
 */
function shipmentSpecialServices(packaging: FedexPackaging, returnLabel: boolean) {
  if (!returnLabel) return specialServices(packaging);
  return {
    shipmentSpecialServices: {
      specialServiceTypes: [...(packaging.oneRate ? ["FEDEX_ONE_RATE"] : []), "RETURN_SHIPMENT"],
      returnShipmentDetail: { returnType: "PRINT_RETURN_LABEL" as const },
    },
  };
}

/**
 * The commodities a rate abroad declares: FedEx rates a shipment that crosses a border only with
 * them. A rate request does not carry the parcels' items, so each parcel is one commodity of its
 * weight; the items themselves are declared when the label is bought.
 */
function rateCustoms(request: RateRequest) {
  if (request.from.country === request.to.country) return {};
  const commodities: FedexRateCommodity[] = request.parcels.map((parcel) => ({
    description: "Parcel contents",
    quantity: 1,
    quantityUnits: "PCS",
    numberOfPieces: 1,
    weight: fedexWeight(parcel.weightOz, "LB"),
  }));
  return { customsClearanceDetail: { commodities } };
}

/** One rate quote for every FedEx service at once: FedEx answers each service it offers for the shipment. */
export function rateQuoteRequest(
  credentials: FedexCredentials,
  request: RateRequest,
  packaging: FedexPackaging,
): FedexRateQuoteRequest {
  return {
    accountNumber: { value: credentials.accountNumber },
    rateRequestControlParameters: { returnTransitTimes: true, servicesNeededOnRateFailure: true },
    requestedShipment: {
      shipper: { address: fedexAddress(request.from) },
      recipient: { address: fedexAddress(request.to, request.residential) },
      preferredCurrency: "USD",
      rateRequestType: RATE_TYPES,
      ...(request.shipDate ? { shipDateStamp: request.shipDate } : {}),
      pickupType: PICKUP_TYPE,
      packagingType: packaging.packagingType,
      ...specialServices(packaging),
      ...rateCustoms(request),
      totalPackageCount: request.parcels.length,
      requestedPackageLineItems: request.parcels.map((parcel, i) => fedexPackage(parcel, i + 1)),
    },
  };
}

function contact(address: CarrierAddress, phone: string): FedexContact {
  const personName = [address.first_name, address.last_name].filter(Boolean).join(" ");
  return {
    ...(personName ? { personName } : {}),
    ...(address.company ? { companyName: address.company } : {}),
    phoneNumber: phone,
    ...(address.email ? { emailAddress: address.email } : {}),
  };
}

function party(address: CarrierAddress, phone: string, residential?: boolean): FedexParty {
  const { streetLines = [], city = "", ...rest } = fedexAddress(address, residential);
  return { address: { ...rest, streetLines, city }, contact: contact(address, phone) };
}

/** FedEx's phone numbers are digits; the shipper's is required, and the recipient's falls back to it. */
export function phoneDigits(phone: string | null | undefined): string | undefined {
  const digits = (phone ?? "").replace(/\D/g, "");
  return digits.length >= 7 ? digits : undefined;
}

/** Porter's customs content types as FedEx's shipment purposes. */
const PURPOSES: Readonly<Record<string, FedexShipmentPurpose>> = {
  merchandise: "SOLD",
  gift: "GIFT",
  sample: "SAMPLE",
  return: "REPAIR_AND_RETURN",
  documents: "NOT_SOLD",
  other: "NOT_SOLD",
};

/**
 * The customs clearance of a shipment that crosses a border, from its parcels' contents: one
 * commodity per item line (its value per unit and in all, made in the sender's country unless the
 * item says otherwise), duties billed to the recipient and the sale's terms DAP (delivered duty
 * unpaid), or why FedEx cannot be asked.
 */
export function customsClearance(request: PurchaseRequest): FedexCustomsClearance | { refusal: string } {
  const items = request.contents.flatMap((parcel) => parcel.items);
  if (items.length === 0) {
    return { refusal: "FedEx needs the parcels' contents (customs items) for a shipment abroad" };
  }
  const commodities: FedexCommodity[] = items.map((item) => {
    const quantity = Math.max(1, item.quantity);
    const valueCents = item.valueCents ?? 0;
    return {
      description: item.description ?? "Merchandise",
      quantity,
      quantityUnits: "PCS",
      numberOfPieces: quantity,
      weight: fedexWeight(item.weightOz ?? 1, "KG"),
      unitPrice: { amount: Math.round(valueCents / quantity) / 100, currency: "USD" },
      customsValue: { amount: valueCents / 100, currency: "USD" },
      countryOfManufacture: (item.countryOfOrigin ?? request.from.country).toUpperCase(),
      ...(item.hsTariffCode ? { harmonizedCode: item.hsTariffCode.replace(/\D/g, "") } : {}),
    };
  });
  const totalCents = items.reduce((sum, item) => sum + (item.valueCents ?? 0), 0);
  // A return's goods go back as returned goods, whatever they were sold as.
  const kinds = new Set(items.map((item) => (request.returnLabel ? "return" : (item.contentType ?? "merchandise"))));
  return {
    dutiesPayment: { paymentType: "RECIPIENT" },
    isDocumentOnly: kinds.size === 1 && kinds.has("documents"),
    commercialInvoice: { shipmentPurpose: PURPOSES[[...kinds][0] ?? "merchandise"] ?? "SOLD", termsOfSale: "DAP" },
    commodities,
    totalCustomsValue: { amount: totalCents / 100, currency: "USD" },
  };
}

/** FedEx's commercial invoice of a shipment abroad, as a letter-size PDF in the answer. */
const COMMERCIAL_INVOICE: FedexShippingDocumentSpecification = {
  shippingDocumentTypes: ["COMMERCIAL_INVOICE"],
  commercialInvoiceDetail: { documentFormat: { docType: "PDF", stockType: "PAPER_LETTER" } },
};

/**
 * A shipment with its labels in the response (`labelResponseOptions: LABEL`), billed to the
 * account (`SENDER`), one package line per parcel: FedEx answers one tracking number per package.
 * A shipment abroad declares its customs and asks for FedEx's commercial invoice beside the labels.
 * A return label is a return shipment from the customer (`from`, the shipper) to the merchant.
 */
export function shipRequest(
  credentials: FedexCredentials,
  request: PurchaseRequest,
  serviceType: string,
  packaging: FedexPackaging,
  label: FedexLabelSpec,
  shipperPhone: string,
  customs?: FedexCustomsClearance,
): FedexShipRequest {
  // The Ship API takes a commodity's weight in kilograms only, and the packages' in the same unit.
  const units = customs ? "KG" : "LB";
  return {
    accountNumber: { value: credentials.accountNumber },
    labelResponseOptions: "LABEL",
    mergeLabelDocOption: "NONE",
    requestedShipment: {
      shipDatestamp: request.shipDate,
      shipper: party(request.from, shipperPhone),
      recipients: [party(request.to, phoneDigits(request.to.phone) ?? shipperPhone, request.residential)],
      pickupType: PICKUP_TYPE,
      serviceType,
      packagingType: packaging.packagingType,
      ...shipmentSpecialServices(packaging, request.returnLabel !== undefined),
      ...(customs ? { customsClearanceDetail: customs, shippingDocumentSpecification: COMMERCIAL_INVOICE } : {}),
      totalWeight:
        Math.round(request.parcels.reduce((sum, p) => sum + fedexWeight(p.weightOz, units).value, 0) * 10) / 10,
      shippingChargesPayment: { paymentType: "SENDER" },
      labelSpecification: {
        imageType: label.imageType,
        labelStockType: label.labelStockType,
        labelFormatType: "COMMON2D",
      },
      rateRequestType: RATE_TYPES,
      preferredCurrency: "USD",
      totalPackageCount: request.parcels.length,
      requestedPackageLineItems: request.parcels.map((parcel, i) => {
        const reference = request.contents[i]?.reference;
        return {
          ...fedexPackage(parcel, i + 1, units),
          ...(reference
            ? { customerReferences: [{ customerReferenceType: "CUSTOMER_REFERENCE", value: reference }] }
            : {}),
        };
      }),
    },
  };
}

/** Cancels a whole shipment by its master tracking number (the first parcel's), every package with it. */
export function cancelRequest(credentials: FedexCredentials, trackingNumber: string): FedexCancelRequest {
  return {
    accountNumber: { value: credentials.accountNumber },
    trackingNumber,
    deletionControl: "DELETE_ALL_PACKAGES",
  };
}

export function trackRequest(trackingNumber: string): FedexTrackRequest {
  return { includeDetailedScans: true, trackingInfo: [{ trackingNumberInfo: { trackingNumber } }] };
}

export function resolveRequest(address: CarrierAddress): FedexAddressResolveRequest {
  const { streetLines = [], ...rest } = fedexAddress(address);
  return { addressesToValidate: [{ address: { ...rest, streetLines } }] };
}

/** Closes the account's FedEx Ground shipments of one ship date and asks for the manifest. */
export function groundCloseRequest(credentials: FedexCredentials, closeDate: string): FedexGroundCloseRequest {
  return {
    closeReqType: "GCDR",
    accountNumber: { value: credentials.accountNumber },
    groundServiceCategory: "GROUND",
    closeDate,
    closeDocumentSpecification: { closeDocumentTypes: ["MANIFEST"] },
  };
}
