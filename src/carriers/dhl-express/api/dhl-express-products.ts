import { type CarrierAddress, CarrierError } from "../../carrier.js";
import type { CostLine, RatedParcel, RateQuote, ServiceDefinition } from "../../catalogue.js";
import { quoteFromLines, sumCents } from "../../sandbox/money.js";
import type {
  DhlEncodingFormat,
  DhlExportReasonType,
  DhlLineItem,
  DhlPackage,
  DhlParty,
  DhlPriceBreakdownItem,
  DhlProduct,
  DhlRateAddress,
} from "./dhl-express-wire.js";

/**
 * DHL Express global product codes per Porter service: the non-document product for goods, the
 * document one for papers (MyDHL API global product codes: P/D Express Worldwide, Y/T Express
 * 12:00, E/K Express 9:00, M/L Express 10:30, H/W Economy Select, 8/7 Express Easy, V/9 Europack
 * …). Break Bulk Economy, Express Worldwide B2C and Secureline have no
 * code that could be confirmed: their rates come back refused and they cannot be bought for real.
 */
const PRODUCTS: Record<string, { goods: string; documents: string }> = {
  express_worldwide: { goods: "P", documents: "D" },
  express1200: { goods: "Y", documents: "T" },
  express900: { goods: "E", documents: "K" },
  express1030: { goods: "M", documents: "L" },
  economy_select: { goods: "H", documents: "W" },
  express_easy: { goods: "8", documents: "7" },
  euro_pack: { goods: "V", documents: "9" },
  express_worldwide_ecx: { goods: "U", documents: "U" },
  express_envelope: { goods: "X", documents: "X" },
  break_bulk_express: { goods: "B", documents: "B" },
  freight_worldwide: { goods: "F", documents: "F" },
  jumbo_box: { goods: "J", documents: "J" },
  globalmail_business: { goods: "R", documents: "R" },
  domestic_economy_select: { goods: "G", documents: "G" },
  domestic_express: { goods: "N", documents: "N" },
  domestic_express1030: { goods: "O", documents: "O" },
  domestic_express1200: { goods: "1", documents: "1" },
  jet_line: { goods: "4", documents: "4" },
  sprint_line: { goods: "5", documents: "5" },
  logistics_services: { goods: "0", documents: "0" },
};

/** The product code DHL prices and ships a Porter service as; undefined for a service it has none for. */
export function dhlProductCode(service: ServiceDefinition, documents: boolean): string | undefined {
  const product = PRODUCTS[service.serviceCode];
  return product && (documents ? product.documents : product.goods);
}

/** The Porter service (its code) a DHL product code belongs to, either variant. */
export function serviceCodeOfProduct(productCode: string): string | undefined {
  return Object.entries(PRODUCTS).find(([, p]) => p.goods === productCode || p.documents === productCode)?.[0];
}

/** DHL packaging codes for Porter package types; the shipper's own packaging sends none. */
const DHL_PACKAGING: Record<string, string> = { envelope: "XPD" };

/** An envelope carries papers: documents are not declared to customs and take the document products. */
export function carriesDocuments(parcels: readonly Pick<RatedParcel, "packageType">[]): boolean {
  return parcels.length > 0 && parcels.every((parcel) => parcel.packageType === "envelope");
}

const OUNCES_PER_POUND = 16;

/** Pounds to DHL's three decimals, never below its 0.001 minimum. */
export function poundsOf(weightOz: number): number {
  return Math.max(0.001, Math.round((weightOz / OUNCES_PER_POUND) * 1000) / 1000);
}

/** One parcel as a DHL package, in imperial units (pounds, inches); sides unknown are left out. */
export function dhlPackage(parcel: RatedParcel): DhlPackage {
  const sides = [parcel.lengthIn, parcel.widthIn, parcel.heightIn];
  const typeCode = DHL_PACKAGING[parcel.packageType];
  return {
    ...(typeCode ? { typeCode } : {}),
    weight: poundsOf(parcel.weightOz),
    ...(sides.every((side) => side > 0)
      ? {
          dimensions: {
            length: Math.max(0.001, parcel.lengthIn),
            width: Math.max(0.001, parcel.widthIn),
            height: Math.max(0.001, parcel.heightIn),
          },
        }
      : {}),
  };
}

/** DHL's limits: 45 characters a line and a city, 12 a postal code. */
const clip = (text: string, max: number) => text.trim().slice(0, max).trimEnd();

/** An address as MyDHL API's rating takes it. */
export function dhlRateAddress(address: CarrierAddress): DhlRateAddress {
  return {
    postalCode: clip(address.postal_code, 12),
    cityName: clip(address.city, 45),
    countryCode: address.country.toUpperCase(),
    ...(address.state ? { provinceCode: clip(address.state, 35) } : {}),
    addressLine1: clip(address.address1, 45),
    ...(address.address2 ? { addressLine2: clip(address.address2, 45) } : {}),
  };
}

/** A party of a shipment or pickup: DHL wants a company and a person's name, and a phone, for both sides. */
export function dhlParty(address: CarrierAddress, role: "shipper" | "recipient"): DhlParty {
  const phone = address.phone?.trim();
  // MyDHL API requires a contact phone of at least one character for each side and names no
  // substitute: an empty one is refused, and another party's number would mislead the courier.
  if (!phone) {
    throw new CarrierError(
      "dhl_express",
      `DHL Express needs the ${role}'s phone number: MyDHL API requires a contact phone for each side of a shipment.`,
    );
  }
  const person = [address.first_name, address.last_name].filter(Boolean).join(" ").trim();
  const fullName = person || address.company || "";
  const rated = dhlRateAddress(address);
  return {
    postalAddress: { ...rated, addressLine1: rated.addressLine1 ?? address.address1 },
    contactInformation: {
      phone: phone.slice(0, 70),
      companyName: (address.company || fullName).slice(0, 100),
      fullName: fullName.slice(0, 255),
      ...(address.email ? { email: address.email } : {}),
    },
    typeCode: address.company ? "business" : "private",
  };
}

/**
 * The moment the parcels are handed to DHL as MyDHL API writes it ("2026-11-27T14:00:00GMT+00:00"):
 * noon UTC of the ship day, or an hour from now when that has passed, as DHL refuses a time in the past.
 */
export function plannedShippingDateAndTime(shipDate: string, now: Date): string {
  const noon = Date.parse(`${shipDate}T12:00:00Z`);
  const at = new Date(Math.max(noon, now.getTime() + 60 * 60_000));
  return `${at.toISOString().slice(0, 19)}GMT+00:00`;
}

/** Porter bills in US dollars; a DHL price in another currency cannot be charged as it is. */
const BILLING_CURRENCY = "USD";

/** DHL's service codes (MyDHL API rates) for the cost-line kinds Porter's sandbox carriers use for the same charges. */
const COST_KINDS: Record<string, string> = {
  FF: "fuel",
  OO: "delivery_area",
  TK: "residential",
  II: "insurance",
};

/** A surcharge name as a cost-line kind when DHL's code is not one Porter names: "EMERGENCY SITUATION" → "emergency_situation". */
function kindOfName(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "") || "surcharge"
  );
}

const centsOf = (dollars: number) => Math.round(dollars * 100);

/** The first of the product's prices in US dollars, preferring the account's billing currency. */
function usdPrice(product: DhlProduct) {
  const order = ["BILLC", "PULCL", "BASEC"];
  return [...product.totalPrice]
    .filter((p) => p.priceCurrency === BILLING_CURRENCY)
    .sort((a, b) => order.indexOf(a.currencyType ?? "") - order.indexOf(b.currencyType ?? ""))[0];
}

export interface DhlQuote {
  quote: RateQuote;
  /** YYYY-MM-DD, DHL's estimate; null when it gave none. */
  deliveryDate: string | null;
  transitDays: number | null;
}

/**
 * A DHL product's price as Porter's quote: DHL's own breakdown (the product's charge, then each
 * priced surcharge under its kind, taxes on a line of their own), adding up to DHL's total to the
 * cent. A product priced only in another currency is refused in words.
 */
export function quoteFromProduct(product: DhlProduct, parcels: readonly RatedParcel[]): DhlQuote | { refusal: string } {
  const total = usdPrice(product);
  if (!total) {
    const currencies = [...new Set(product.totalPrice.map((p) => p.priceCurrency))].join(", ");
    return { refusal: `DHL Express priced this shipment in ${currencies}; Porter bills in US dollars.` };
  }
  const totalCents = centsOf(total.price);
  const breakdown =
    product.detailedPriceBreakdown?.find(
      (b) => b.priceCurrency === BILLING_CURRENCY && b.currencyType === total.currencyType,
    )?.breakdown ?? [];
  const [first, ...charges] = breakdown;
  const surcharges: CostLine[] = charges
    .filter(
      (item): item is DhlPriceBreakdownItem & { price: number } => typeof item.price === "number" && item.price !== 0,
    )
    .map((item) => ({
      kind: (item.serviceCode && COST_KINDS[item.serviceCode]) ?? kindOfName(item.name ?? item.serviceCode ?? ""),
      description: titleCase(item.name ?? item.serviceCode ?? "Surcharge"),
      amountCents: centsOf(item.price),
    }));
  const taxCents = centsOf(
    product.totalPriceBreakdown
      ?.find((b) => b.priceCurrency === BILLING_CURRENCY && b.currencyType === total.currencyType)
      ?.priceBreakdown?.find((p) => p.typeCode === "STTXA")?.price ?? 0,
  );
  const taxes: CostLine[] = taxCents > 0 ? [{ kind: "tax", description: "Taxes", amountCents: taxCents }] : [];
  // The product's own line takes what is left, so the lines always add up to DHL's total.
  const base: CostLine = {
    kind: "base",
    description: titleCase(first?.name ?? product.productName ?? "DHL Express"),
    amountCents: totalCents - sumCents([...surcharges, ...taxes].map((line) => line.amountCents)),
  };
  const weightLb = Math.max(product.weight.provided ?? 0, product.weight.volumetric ?? 0);
  const billableOz =
    weightLb > 0 ? Math.round(weightLb * OUNCES_PER_POUND) : sumCents(parcels.map((parcel) => parcel.weightOz));
  const delivery = product.deliveryCapabilities;
  return {
    quote: quoteFromLines([base, ...surcharges, ...taxes], billableOz),
    deliveryDate: delivery?.estimatedDeliveryDateAndTime?.slice(0, 10) ?? null,
    transitDays: typeof delivery?.totalTransitDays === "number" ? delivery.totalTransitDays : null,
  };
}

/** "FUEL SURCHARGE" → "Fuel Surcharge": DHL writes its charge names in capitals. */
function titleCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|[\s-])([a-z])/g, (_, gap: string, letter: string) => gap + letter.toUpperCase());
}

/** Porter's label formats DHL makes, and what MyDHL API calls them (LP2 has no Porter name). */
const ENCODING_FORMATS: Record<string, DhlEncodingFormat> = { pdf: "pdf", zpl: "zpl", epl2: "epl" };

/** The label formats a real DHL Express connection can buy, in Porter's names. */
export const DHL_EXPRESS_LABEL_FORMATS = Object.keys(ENCODING_FORMATS);

export function dhlEncodingFormat(format: string): DhlEncodingFormat | undefined {
  return ENCODING_FORMATS[format];
}

/** DHL's transport label templates by label size; its default is the 4 × 8 in label. */
const LABEL_TEMPLATES: Record<string, { templateName: string; widthIn: number; heightIn: number }> = {
  "4x6": { templateName: "ECOM26_A6_002", widthIn: 4.1, heightIn: 5.8 },
  "4x8": { templateName: "ECOM26_84_001", widthIn: 4, heightIn: 8 },
  "8.5x11": { templateName: "ECOM26_84_A4_001", widthIn: 8.27, heightIn: 11.69 },
  "8x11": { templateName: "ECOM26_84_A4_001", widthIn: 8.27, heightIn: 11.69 },
};

/** The DHL template for a label size (A4 sheets for the letter sizes), and the size it prints at. */
export function labelTemplate(size: string): { templateName: string; widthIn: number; heightIn: number } {
  return (
    LABEL_TEMPLATES[size] ?? (LABEL_TEMPLATES["4x8"] as { templateName: string; widthIn: number; heightIn: number })
  );
}

/** MIME type of a DHL document by its `imageFormat`. */
export function contentTypeOf(imageFormat: string): string {
  const format = imageFormat.toUpperCase();
  if (format === "PDF") return "application/pdf";
  return "text/plain";
}

/** One line of a parcel's contents as it is declared: the whole line's value (cents) and weight (ounces). */
export interface DeclaredItem {
  description: string | null;
  quantity: number;
  weightOz: number | null;
  valueCents: number | null;
  countryOfOrigin: string | null;
  hsTariffCode: string | null;
  contentType: string | null;
}

/** Porter's customs content types as DHL's export reasons. */
const EXPORT_REASONS: Record<string, DhlExportReasonType> = {
  merchandise: "commercial_purpose_or_sale",
  gift: "gift",
  commercial_sample: "sample",
  returned_goods: "return",
  documents: "permanent",
};

export function exportReasonType(contentType: string | null): DhlExportReasonType {
  return (contentType ? EXPORT_REASONS[contentType] : undefined) ?? "permanent";
}

/**
 * The declared items as DHL's export declaration lines: the unit price, the quantity in pieces,
 * the line's net weight in pounds, the HS code as the outbound commodity code, and the country of
 * manufacture (the origin country when the item names none).
 */
export function exportLineItems(items: readonly DeclaredItem[], originCountry: string): DhlLineItem[] {
  return items.map((item, index) => {
    const quantity = Math.max(1, item.quantity);
    return {
      number: index + 1,
      description: clip(item.description || "Goods", 512),
      price: Math.round((item.valueCents ?? 0) / quantity) / 100,
      quantity: { value: quantity, unitOfMeasurement: "PCS" },
      ...(item.hsTariffCode
        ? { commodityCodes: [{ typeCode: "outbound" as const, value: item.hsTariffCode.replace(/\D/g, "") }] }
        : {}),
      exportReasonType: exportReasonType(item.contentType),
      manufacturerCountry: (item.countryOfOrigin ?? originCountry).toUpperCase(),
      weight: { netValue: poundsOf(item.weightOz ?? 0) },
    };
  });
}

/** The shipment's declared value: every line's value, in cents. */
export function declaredValueCents(items: readonly DeclaredItem[]): number {
  return sumCents(items.map((item) => item.valueCents ?? 0));
}
