/**
 * Porter ↔ FedEx, both ways, in pure functions: services and FedEx service types, packaging,
 * FedEx's surcharge breakdown as cost lines, label formats and stocks, tracking scans as Porter
 * events, and resolved addresses.
 */
import type { CarrierAddress, CarrierTrackingEvent, TrackingStatus } from "../../carrier.js";
import type { CostLine, RatedParcel, RateQuote, ServiceDefinition } from "../../catalogue.js";
import { quoteFromLines } from "../../sandbox/money.js";
import { FEDEX_EVENTS } from "../tracking-events.js";
import type {
  FedexAddress,
  FedexErrorResponse,
  FedexImageType,
  FedexRatedShipmentDetail,
  FedexRateReplyDetail,
  FedexRequestedPackage,
  FedexResolvedAddress,
  FedexScanEvent,
  FedexShipmentRating,
  FedexSurcharge,
  FedexTrackResult,
  FedexTransactionShipment,
  FedexWeight,
} from "./fedex-wire.js";

/** Porter's FedEx services (eHub codes) → FedEx `serviceType`. */
const SERVICE_TYPES: Readonly<Record<string, string>> = {
  fedex_ground: "FEDEX_GROUND",
  fedex_ground_home: "GROUND_HOME_DELIVERY",
  fedex_express_saver: "FEDEX_EXPRESS_SAVER",
  fedex_2day: "FEDEX_2_DAY",
  fedex_2day_am: "FEDEX_2_DAY_AM",
  fedex_overnight_standard: "STANDARD_OVERNIGHT",
  fedex_overnight_priority: "PRIORITY_OVERNIGHT",
  fedex_overnight_1st: "FIRST_OVERNIGHT",
  fedex_intl_priority: "INTERNATIONAL_PRIORITY",
  fedex_intl_economy: "INTERNATIONAL_ECONOMY",
};

/** Service types FedEx answers under a newer name than the one Porter asks with (renamed in 2023). */
const SERVICE_TYPE_ALIASES: Readonly<Record<string, string>> = {
  FEDEX_INTERNATIONAL_PRIORITY: "fedex_intl_priority",
};

/** FedEx Ground and Home Delivery travel the Ground network, closed out at the end of the day and picked up by FedEx Ground. */
export const GROUND_SERVICE_CODES: ReadonlySet<string> = new Set(["fedex_ground", "fedex_ground_home"]);

export function fedexServiceType(service: Pick<ServiceDefinition, "serviceCode">): string | undefined {
  return SERVICE_TYPES[service.serviceCode];
}

/** The Porter service code FedEx's `serviceType` stands for, or undefined for one Porter does not sell. */
export function porterServiceCode(serviceType: string): string | undefined {
  if (SERVICE_TYPE_ALIASES[serviceType]) return SERVICE_TYPE_ALIASES[serviceType];
  return Object.entries(SERVICE_TYPES).find(([, type]) => type === serviceType)?.[0];
}

/** Porter package types → FedEx `packagingType`; FedEx-branded packaging ships at FedEx One Rate. */
const PACKAGING: Readonly<Record<string, string>> = {
  parcel: "YOUR_PACKAGING",
  fedex_envelope: "FEDEX_ENVELOPE",
  fedex_pak: "FEDEX_PAK",
  fedex_box_small: "FEDEX_SMALL_BOX",
  fedex_box_medium: "FEDEX_MEDIUM_BOX",
  fedex_box_large: "FEDEX_LARGE_BOX",
  fedex_box_extra_large: "FEDEX_EXTRA_LARGE_BOX",
  fedex_tube: "FEDEX_TUBE",
};

export interface FedexPackaging {
  packagingType: string;
  /** FedEx One Rate is asked for as a shipment special service, for FedEx packaging only. */
  oneRate: boolean;
}

/**
 * The FedEx packaging a shipment's parcels travel in, or why FedEx cannot be asked: FedEx takes
 * one `packagingType` per shipment, so parcels in different packaging ship separately.
 */
export function fedexPackaging(
  parcels: readonly Pick<RatedParcel, "packageType">[],
): FedexPackaging | { refusal: string } {
  const kinds = [...new Set(parcels.map((p) => p.packageType))];
  if (kinds.length > 1) {
    return { refusal: "FedEx takes one packaging type per shipment; ship parcels in different packaging separately" };
  }
  const packagingType = PACKAGING[kinds[0] ?? "parcel"];
  if (!packagingType) return { refusal: `FedEx has no packaging ${kinds[0]}` };
  return { packagingType, oneRate: packagingType !== "YOUR_PACKAGING" };
}

/** FedEx's `packagingType` as Porter's package type ("parcel" for packaging Porter does not name). */
export function porterPackageType(packagingType: string | undefined): string {
  return Object.entries(PACKAGING).find(([, type]) => type === packagingType)?.[0] ?? "parcel";
}

const OZ_PER_LB = 16;

/** FedEx weighs in pounds to a tenth; a parcel is never rounded down below what it weighs. */
export function fedexPounds(weightOz: number): number {
  return Math.max(0.1, Math.ceil((weightOz / OZ_PER_LB) * 10) / 10);
}

const OZ_PER_KG = 35.274;

/** A weight in FedEx's pounds or kilograms, to a tenth and never rounded down below what it weighs. */
export function fedexWeight(weightOz: number, units: FedexWeight["units"]): FedexWeight {
  const perUnit = units === "KG" ? OZ_PER_KG : OZ_PER_LB;
  return { units, value: Math.max(0.1, Math.ceil((weightOz / perUnit) * 10) / 10) };
}

/** One parcel as a FedEx package line: its weight to a tenth, sides as whole inches (FedEx's int32), rounded up. */
export function fedexPackage(
  parcel: RatedParcel,
  sequenceNumber: number,
  units: FedexWeight["units"] = "LB",
): FedexRequestedPackage {
  const sides = [parcel.lengthIn, parcel.widthIn, parcel.heightIn];
  return {
    sequenceNumber,
    groupPackageCount: 1,
    weight: fedexWeight(parcel.weightOz, units),
    ...(sides.every((side) => side > 0)
      ? {
          dimensions: {
            length: Math.ceil(parcel.lengthIn),
            width: Math.ceil(parcel.widthIn),
            height: Math.ceil(parcel.heightIn),
            units: "IN" as const,
          },
        }
      : {}),
    // FedEx's coverage for the parcel's value: its declared value, priced as the INSURED_VALUE surcharge.
    ...(parcel.insuredCents ? { declaredValue: { amount: parcel.insuredCents / 100, currency: "USD" } } : {}),
  };
}

/** An address as FedEx's rate and ship requests take it; `streetLines` only where the call needs them. */
export function fedexAddress(address: CarrierAddress, residential?: boolean): FedexAddress {
  return {
    streetLines: [address.address1, address.address2].filter((line): line is string => Boolean(line?.trim())),
    city: address.city,
    stateOrProvinceCode: address.state || undefined,
    postalCode: address.postal_code,
    countryCode: address.country,
    ...(residential === undefined ? {} : { residential }),
  };
}

/** Dollars as FedEx writes them → integer cents. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** FedEx surcharge types as Porter's cost-line kinds, where Porter has a name of its own for them. */
const SURCHARGE_KINDS: Readonly<Record<string, string>> = {
  FUEL: "fuel",
  RESIDENTIAL_DELIVERY: "residential",
  DELIVERY_AREA: "delivery_area",
  ADDITIONAL_HANDLING: "additional_handling",
  OVERSIZE: "large_package",
  INSURED_VALUE: "insurance",
};

/** A FedEx surcharge's kind: Porter's name for the common ones, FedEx's own type (lower case) for the rest. */
export function surchargeKind(type: string | undefined): string {
  if (!type) return "surcharge";
  return SURCHARGE_KINDS[type] ?? type.toLowerCase().replace(/[^a-z0-9]+/g, "_");
}

function surchargeLine(surcharge: FedexSurcharge): CostLine {
  return {
    kind: surchargeKind(surcharge.type),
    description: surcharge.description ?? surcharge.type ?? "Surcharge",
    amountCents: dollarsToCents(surcharge.amount ?? 0),
  };
}

/** The rated detail Porter charges by: the account's own rate where FedEx gives one, else the list rate. */
export function chargedRate(details: readonly FedexRatedShipmentDetail[] | undefined): {
  charged?: FedexRatedShipmentDetail;
  list?: FedexRatedShipmentDetail;
} {
  const all = details ?? [];
  const list = all.find((d) => d.rateType === "LIST");
  const charged = all.find((d) => d.rateType === "ACCOUNT") ?? all.find((d) => d.rateType !== "LIST") ?? list;
  return { charged, list };
}

/**
 * FedEx's rated shipment as a quote: FedEx's net charge is the total, each of its surcharges and
 * taxes a line of its own, and the transportation charge the rest (base less FedEx's discounts).
 */
export function quoteFromRatedShipment(detail: FedexRatedShipmentDetail, parcels: readonly RatedParcel[]): RateQuote {
  const rateDetail = detail.shipmentRateDetail ?? {};
  const extras: CostLine[] = [
    ...(rateDetail.surCharges ?? []).map(surchargeLine),
    ...(rateDetail.taxes ?? []).map((tax) => ({
      kind: "tax",
      description: tax.description ?? tax.type ?? "Tax",
      amountCents: dollarsToCents(tax.amount ?? 0),
    })),
  ].filter((line) => line.amountCents !== 0);
  const totalCents = dollarsToCents(detail.totalNetCharge ?? detail.totalNetFedExCharge ?? 0);
  const extraCents = extras.reduce((sum, line) => sum + line.amountCents, 0);
  const billing = rateDetail.totalBillingWeight;
  const billedOz =
    billing && billing.value > 0
      ? Math.round(billing.value * (billing.units === "KG" ? OZ_PER_KG : OZ_PER_LB))
      : parcels.reduce((sum, p) => sum + p.weightOz, 0);
  return quoteFromLines(
    [{ kind: "base", description: "Transportation", amountCents: totalCents - extraCents }, ...extras],
    billedOz,
  );
}

/**
 * The Ship API's rating of a shipment as the rate quote's shape: the entry FedEx names as the
 * actual rate (`actualRateType`), else the account's shipment rate, else its first account rate.
 */
export function shipmentRatingDetail(rating: FedexShipmentRating | undefined): FedexRatedShipmentDetail | undefined {
  const details = rating?.shipmentRateDetails ?? [];
  const chosen =
    details.find((d) => rating?.actualRateType !== undefined && d.rateType === rating.actualRateType) ??
    details.find((d) => d.rateType === "PAYOR_ACCOUNT_SHIPMENT") ??
    details.find((d) => d.rateType?.includes("ACCOUNT")) ??
    details[0];
  if (!chosen) return undefined;
  return {
    rateType: chosen.rateType,
    totalBaseCharge: chosen.totalBaseCharge,
    totalNetCharge: chosen.totalNetCharge,
    totalNetFedExCharge: chosen.totalNetFedExCharge,
    shipmentRateDetail: {
      rateZone: chosen.rateZone,
      totalBillingWeight: chosen.totalBillingWeight,
      surCharges: chosen.surcharges?.map(({ surchargeType, ...rest }) => ({ ...rest, type: surchargeType })),
      taxes: chosen.taxes,
    },
  };
}

/**
 * A shipment's quote shared among its parcels, line by line: FedEx bills a multi-piece shipment
 * as a whole, so each parcel carries an even share and the first the odd cents.
 */
export function splitQuote(quote: RateQuote, parcels: readonly RatedParcel[]): RateQuote[] {
  const count = parcels.length;
  if (count <= 1) return [quote];
  return parcels.map((parcel, index) =>
    quoteFromLines(
      quote.lines.map((line) => {
        const share = Math.trunc(line.amountCents / count);
        return { ...line, amountCents: index === 0 ? line.amountCents - share * (count - 1) : share };
      }),
      parcel.weightOz,
    ),
  );
}

/** A readable rated detail: a finite net charge Porter can sell at. */
export function readableRate(detail: FedexRatedShipmentDetail | undefined): detail is FedexRatedShipmentDetail {
  const total = detail?.totalNetCharge ?? detail?.totalNetFedExCharge;
  return typeof total === "number" && Number.isFinite(total) && total >= 0;
}

const DAY_WORDS = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN"];

/** FedEx's transit time words ("THREE_DAYS") as business days, or undefined when it gives none. */
export function transitDays(words: string | undefined): number | undefined {
  const match = /^([A-Z]+)_DAYS?$/.exec(words ?? "");
  const index = match ? DAY_WORDS.indexOf(match[1]!) : -1;
  return index >= 0 ? index + 1 : undefined;
}

/** The delivery date FedEx commits to for a rate (YYYY-MM-DD), where it gives one. */
export function rateDeliveryDate(reply: FedexRateReplyDetail): string | undefined {
  const when = reply.operationalDetail?.deliveryDate ?? reply.commit?.dateDetail?.dayFormat;
  return when && /^\d{4}-\d{2}-\d{2}/.test(when) ? when.slice(0, 10) : undefined;
}

/** The delivery date FedEx gives a shipment it made (YYYY-MM-DD), where it gives one. */
export function shipmentDeliveryDate(shipment: FedexTransactionShipment | undefined): string | undefined {
  const when =
    shipment?.completedShipmentDetail?.operationalDetail?.deliveryDate ??
    shipment?.pieceResponses?.find((p) => p.deliveryTimestamp)?.deliveryTimestamp;
  return when && /^\d{4}-\d{2}-\d{2}/.test(when) ? when.slice(0, 10) : undefined;
}

/**
 * FedEx's commercial invoice of a shipment it made, a PDF, where it answered one: among the
 * shipment's documents, or a package's when FedEx files it there.
 */
export function commercialInvoiceOf(shipment: FedexTransactionShipment | undefined): Buffer | undefined {
  const documents = [
    ...(shipment?.shipmentDocuments ?? []),
    ...(shipment?.pieceResponses ?? []).flatMap((piece) => piece.packageDocuments ?? []),
  ];
  const invoice = documents.find((d) => d.contentType === "COMMERCIAL_INVOICE" && d.encodedLabel);
  return invoice?.encodedLabel ? Buffer.from(invoice.encodedLabel, "base64") : undefined;
}

/** FedEx's own words from an error body: each error's message, joined, with the transaction id. */
export function fedexErrorWords(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const errors = (body as FedexErrorResponse).errors;
  if (!Array.isArray(errors)) return undefined;
  const words = errors
    .map((e) => [e.message, e.code ? `(${e.code})` : undefined].filter(Boolean).join(" "))
    .filter(Boolean)
    .join("; ");
  return words || undefined;
}

// ── Labels ─────────────────────────────────────────────────────────────────────────────────────

/** The label formats FedEx makes, by Porter's name. */
export const FEDEX_LABEL_FORMATS = ["pdf", "png", "zpl", "epl2"] as const;

const IMAGE_TYPES: Readonly<Record<string, FedexImageType>> = { pdf: "PDF", png: "PNG", zpl: "ZPLII", epl2: "EPL2" };

export interface FedexLabelSpec {
  imageType: FedexImageType;
  labelStockType: string;
  widthIn: number;
  heightIn: number;
  /** Thermal and PNG labels are 203 dpi (8 dots per mm); a PDF counts in points, 72 to the inch. */
  dpi: number;
}

/** Label sizes → FedEx stock: paper for PDF and PNG, thermal stock for ZPLII and EPL2. */
const STOCKS: Readonly<Record<string, { paper?: string; thermal?: string; widthIn: number; heightIn: number }>> = {
  "4x6": { paper: "PAPER_4X6", thermal: "STOCK_4X6", widthIn: 4, heightIn: 6 },
  "4x8": { paper: "PAPER_4X8", thermal: "STOCK_4X8", widthIn: 4, heightIn: 8 },
  "8.5x11": { paper: "PAPER_85X11_TOP_HALF_LABEL", widthIn: 8.5, heightIn: 11 },
  "8x11": { paper: "PAPER_85X11_TOP_HALF_LABEL", widthIn: 8.5, heightIn: 11 },
};

/** The FedEx label specification for a format and size, or why FedEx cannot make that label. */
export function fedexLabelSpec(format: string, size: string): FedexLabelSpec | { refusal: string } {
  const imageType = IMAGE_TYPES[format];
  if (!imageType) {
    return { refusal: `FedEx makes labels as ${FEDEX_LABEL_FORMATS.join(", ")}; not ${format}` };
  }
  const thermal = imageType === "ZPLII" || imageType === "EPL2";
  const stock = STOCKS[size];
  const labelStockType = thermal ? stock?.thermal : stock?.paper;
  if (!stock || !labelStockType) {
    const sizes = Object.entries(STOCKS)
      .filter(([, s]) => (thermal ? s.thermal : s.paper))
      .map(([name]) => name);
    return { refusal: `FedEx makes ${format} labels in the sizes ${sizes.join(", ")}; not ${size}` };
  }
  return {
    imageType,
    labelStockType,
    widthIn: stock.widthIn,
    heightIn: stock.heightIn,
    dpi: imageType === "PDF" ? 72 : 203,
  };
}

// ── Tracking ───────────────────────────────────────────────────────────────────────────────────

/** FedEx's derived status codes (the Track API's own grouping of its scans) → Porter's statuses. */
const DERIVED_STATUSES: Readonly<Record<string, TrackingStatus>> = {
  IN: "pre_transit",
  PU: "in_transit",
  IT: "in_transit",
  DP: "in_transit",
  AR: "in_transit",
  OD: "out_for_delivery",
  HL: "available_for_pickup",
  HP: "available_for_pickup",
  DL: "delivered",
  DE: "exception",
  SE: "exception",
  DY: "exception",
  DD: "exception",
  CD: "exception",
  CA: "exception",
  RS: "returned",
};

/** FedEx scan event types as the sandbox FedEx speaks them, plus the few it never scans. */
const EVENT_STATUSES: Readonly<Record<string, TrackingStatus>> = {
  ...Object.fromEntries(Object.values(FEDEX_EVENTS).map((words) => [words.code, words.status])),
  SF: "in_transit",
  FD: "in_transit",
  LO: "in_transit",
  HL: "available_for_pickup",
  CA: "exception",
  RP: "returned",
};

/** A FedEx scan's Porter status: by its derived status code first, its event type next, in transit otherwise. */
export function trackingStatus(eventType: string | undefined, derivedStatusCode: string | undefined): TrackingStatus {
  return (
    (derivedStatusCode ? DERIVED_STATUSES[derivedStatusCode] : undefined) ??
    (eventType ? EVENT_STATUSES[eventType] : undefined) ??
    "in_transit"
  );
}

/** FedEx's scans (newest first, as it lists them) as Porter's events, oldest first; undated scans are left out. */
export function trackingEvents(result: FedexTrackResult): CarrierTrackingEvent[] {
  const dated = (result.scanEvents ?? [])
    .map((scan) => ({ scan, at: scan.date ? new Date(scan.date) : undefined }))
    .filter((e): e is { scan: FedexScanEvent; at: Date } => e.at !== undefined && !Number.isNaN(e.at.getTime()));
  dated.sort((a, b) => a.at.getTime() - b.at.getTime());
  // Sequences count from 1, as Porter's stored events do: 0 means "nothing stored yet".
  return dated.map(({ scan, at }, index) => ({
    sequence: index + 1,
    occurredAt: at,
    code: scan.eventType ?? scan.derivedStatusCode ?? "",
    secondaryCode: scan.derivedStatusCode ?? null,
    description: [scan.eventDescription ?? scan.derivedStatus ?? "", scan.exceptionDescription]
      .filter(Boolean)
      .join(": "),
    status: trackingStatus(scan.eventType, scan.derivedStatusCode),
    city: scan.scanLocation?.city ?? null,
    state: scan.scanLocation?.stateOrProvinceCode ?? null,
    postalCode: scan.scanLocation?.postalCode ?? null,
    country: scan.scanLocation?.countryCode ?? null,
  }));
}

/** The delivery date FedEx estimates for a parcel (YYYY-MM-DD), or null when it gives none. */
export function estimatedDeliveryDate(result: FedexTrackResult): string | null {
  const when =
    result.dateAndTimes?.find((d) => d.type === "ESTIMATED_DELIVERY")?.dateTime ??
    result.estimatedDeliveryTimeWindow?.window?.ends ??
    result.estimatedDeliveryTimeWindow?.window?.begins;
  return when && /^\d{4}-\d{2}-\d{2}/.test(when) ? when.slice(0, 10) : null;
}

// ── Address validation ─────────────────────────────────────────────────────────────────────────

export interface FedexAddressVerdict {
  valid: boolean;
  reasons: string[];
  address: CarrierAddress;
  /** FedEx's classification: true for a residence, false for a business, null when FedEx cannot say. */
  residential: boolean | null;
}

/** FedEx sends the resolution flags as booleans, and in practice as the strings "true"/"false". */
function flag(resolved: FedexResolvedAddress, name: string): boolean {
  const value = resolved.attributes?.[name];
  return value === true || value === "true";
}

const ATTRIBUTE_REASONS: Readonly<Record<string, string>> = {
  SuiteRequiredButMissing: "A suite or apartment number is required",
  InvalidSuiteNumber: "The suite or apartment number is not valid",
  MultipleMatches: "The address matches more than one delivery point",
};

/** FedEx's resolution of an address as Porter's verdict: the standardized address, and why it falls short. */
export function addressVerdict(asked: CarrierAddress, resolved: FedexResolvedAddress | undefined): FedexAddressVerdict {
  if (!resolved)
    return { valid: false, reasons: ["FedEx could not resolve the address"], address: asked, residential: null };
  const problems = Object.entries(ATTRIBUTE_REASONS)
    .filter(([name]) => flag(resolved, name))
    .map(([, words]) => words);
  const matched = flag(resolved, "Resolved") && (resolved.countryCode !== "US" || flag(resolved, "DPV"));
  const reasons = [
    ...(resolved.customerMessage ?? []).map((m) => (typeof m === "string" ? m : (m.message ?? m.code ?? ""))),
    ...problems,
  ].filter(Boolean);
  if (!matched && reasons.length === 0) reasons.push("FedEx could not match the address to a delivery point");
  const [line1, ...rest] = resolved.streetLinesToken ?? [];
  const postal = resolved.parsedPostalCode;
  return {
    valid: matched && problems.length === 0,
    reasons,
    address: {
      ...asked,
      address1: line1 ?? asked.address1,
      address2: rest.length > 0 ? rest.join(" ") : (asked.address2 ?? null),
      city: resolved.city ?? asked.city,
      state: resolved.stateOrProvinceCode ?? asked.state,
      postal_code: postal?.base
        ? postal.addOn
          ? `${postal.base}-${postal.addOn}`
          : postal.base
        : (resolved.postalCodeToken?.value ?? asked.postal_code),
      country: resolved.countryCode ?? asked.country,
    },
    residential:
      resolved.classification === "RESIDENTIAL" ? true : resolved.classification === "BUSINESS" ? false : null,
  };
}
