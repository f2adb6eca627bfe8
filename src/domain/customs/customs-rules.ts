/**
 * Customs rules for a shipment: when a declaration is needed, what each parcel declares, whether the
 * declaration is complete, and which postal form (CN 22 or CN 23) carries it. Pure functions; money
 * is integer cents (wire amounts go through `usdToCents` once, at the edge).
 *
 * The rules are eHub's customs_data rules with the carriers' own (USPS PS Forms 2976 and 2976-A,
 * EEL/PFC exemptions); docs/shipments.md describes them.
 */
import type { CarrierCode } from "../../carriers/catalogue.js";
import {
  CONTENT_TYPES,
  type ContentType,
  type CustomsFormKind,
  formatUsd,
  MAX_CUSTOMS_LINES,
  NON_DELIVERY_OPTIONS,
  type NonDeliveryOption,
} from "../../carriers/customs-terms.js";
import { US_TERRITORIES, usStateCodeOf } from "../addresses/usps-abbreviations.js";

export type CustomsRequirement = "none" | "international" | "territory" | "military";

/** The part of an address that decides customs. `city` is needed only to recognise APO/FPO/DPO. */
export interface CustomsLocation {
  country: string;
  state: string;
  postalCode: string;
  city?: string | null;
}

/** One parcel item's `customs_data`; code fields are kept as sent so problems can quote them. */
export interface CustomsData {
  contentType: string | null;
  noDelivery: string | null;
  hsTariffCode: string | null;
  eelPfc: string | null;
  /** Declared value of one unit (`customs_data.value`), integer cents. */
  valueCents: number | null;
}

/** One parcel item as it is declared to customs. */
export interface CustomsItem {
  name: string | null;
  description: string | null;
  quantity: number;
  /** Weight of one unit in ounces, as eHub sends `parcel_items[].weight`. */
  weightOz: number | null;
  /** Price of one unit (`price`), integer cents. */
  priceCents: number | null;
  /** ISO 3166-1 alpha-2 code. */
  countryOfOrigin: string | null;
  customsData: CustomsData | null;
}

export interface CustomsParcel {
  items: readonly CustomsItem[];
}

/** `path` names the wire field, e.g. `parcels[0].parcel_items[1].customs_data.eel_pfc`. */
export interface CustomsProblem {
  path: string;
  message: string;
}

const CONTENT_TYPE_ALIASES: Readonly<Record<string, ContentType>> = {
  document: "documents",
  sample: "commercial_sample",
  humanitarian_donations: "humanitarian_donation",
  non_negotiable_documents: "non_negotiable_document",
};

/** USPS words, EasyPost words and ShipStation words for the same three choices. */
const NON_DELIVERY_ALIASES: Readonly<Record<string, NonDeliveryOption>> = {
  return: "return",
  return_to_sender: "return",
  abandon: "abandon",
  abandoned: "abandon",
  treat_as_abandoned: "abandon",
  redirect: "redirect",
};

/** Above this parcel value an exemption code no longer covers the export: an AES ITN is needed. */
const ITN_REQUIRED_ABOVE_CENTS = 250_000;
/** USPS: PS Form 2976 (CN 22) only below $400; from $400 the 2976-A (CN 23). */
const CN23_FROM_CENTS = 40_000;
const MAX_QUANTITY = 9_999;
/** International CN 22 mail (First-Class Package International, PMI flat-rate envelope and small box) tops out at 4 lb. */
const CN22_MAX_WEIGHT_OZ = 64;
/** APO/FPO/DPO and territories: a declaration is needed from 16 oz, or for goods at any weight. */
const DOMESTIC_FORM_FROM_OZ = 16;

/** UPS, FedEx and DHL Express clear customs on a commercial invoice rather than a postal CN form. */
const INVOICE_CARRIERS: ReadonlySet<CarrierCode> = new Set(["ups", "fed_ex", "dhl_express"]);

const MILITARY_STATES = new Set(["AA", "AE", "AP"]);
const MILITARY_CITIES = new Set(["APO", "FPO", "DPO"]);
const TERRITORIES = new Set(
  Object.keys(US_TERRITORIES)
    .filter((code) => !MILITARY_STATES.has(code))
    .concat("UM"),
);
/** ZIP prefixes of the military post offices (AE 090–098, AA 340, AP 962–966). */
const MILITARY_ZIP3 = /^(09[0-8]|340|96[2-6])/;
/** ZIP prefixes of PR (006, 007, 009), VI (008), GU/MP/FM/MH/PW (969) and AS (96799). */
const TERRITORY_ZIP = /^(00[6-9]|969|96799)/;

/** USPS refuses these as a whole description because they say nothing about the contents. */
const REFUSED_DESCRIPTIONS = new Set(["none", "n/a", "null", "gift", "merchandise"]);

/** `AES X` + 14 characters; carriers also print `AES ITN: X…` or a space after the X. */
const ITN = /^AES\s+(?:ITN:?\s*)?X\s?[0-9A-Z]{14}$/i;
/** FTR exemption citations: `NOEEI 30.37(a)`, `NO EEI 30.37(a)`, Shippo's `NOEEI_30_37_a`, `NOEEI 30.36`. */
const EEL_EXEMPTION = /^NO\s?EEI[\s_]+30[._]\d{2}(?:[._]?\(?[A-Z0-9]{1,2}\)?){0,3}$/i;
/** USPS `HSTariffNumber`: 6–14 letters or digits, dots allowed between them. */
const HS_TARIFF_CODE = /^[0-9A-Z](?:\.?[0-9A-Z]){5,13}$/i;
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A wire amount in USD to integer cents, rounded half away from zero on its decimal digits. Reads
 * the number's shortest decimal text, so 0.1 is 10 ¢ and 1.005 is 101 ¢ (a float multiply gives 100).
 */
export function usdToCents(amount: number): number {
  const match = Number.isFinite(amount) ? DECIMAL.exec(decimalText(amount)) : null;
  if (!match) throw new RangeError(`not an amount in USD: ${amount}`);
  const [, sign, whole = "0", fraction = ""] = match;
  const roundUp = (fraction[2] ?? "0") >= "5" ? 1 : 0;
  const cents = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, "0")) + roundUp;
  if (!Number.isSafeInteger(cents)) throw new RangeError(`amount too large: ${amount}`);
  return sign === "-" ? -cents : cents;
}

/** Tiny amounts print in exponent form (1e-7); fixed notation keeps the digits readable. */
function decimalText(amount: number): string {
  const text = String(amount);
  return text.includes("e") ? amount.toFixed(20) : text;
}

/** Whether a shipment between these two places crosses a customs border, and which kind. */
export function customsRequirement(from: CustomsLocation, to: CustomsLocation): CustomsRequirement {
  const origin = customsArea(from);
  const destination = customsArea(to);
  if (origin.area === destination.area && origin.requirement !== "military") return "none";
  return REQUIREMENT_RANK[origin.requirement] > REQUIREMENT_RANK[destination.requirement]
    ? origin.requirement
    : destination.requirement;
}

/** A foreign end outweighs a military one, which outweighs a territory (most data required wins). */
const REQUIREMENT_RANK: Readonly<Record<CustomsRequirement, number>> = {
  none: 0,
  territory: 1,
  military: 2,
  international: 3,
};

interface CustomsArea {
  /** Two places in the same area need no declaration between them. */
  area: string;
  requirement: CustomsRequirement;
}

/** Any one signal (state, city or ZIP) marks a place military or territorial: missing data fails a label, extra data does not. */
function customsArea(location: CustomsLocation): CustomsArea {
  const country = location.country.trim().toUpperCase();
  if (TERRITORIES.has(country)) return { area: country, requirement: "territory" };
  if (country !== "US") return { area: country, requirement: "international" };
  const state = stateCode(location.state);
  const zip = location.postalCode.trim();
  if (MILITARY_STATES.has(state) || MILITARY_CITIES.has(location.city?.trim().toUpperCase() ?? "")) {
    return { area: "MILITARY", requirement: "military" };
  }
  if (MILITARY_ZIP3.test(zip)) return { area: "MILITARY", requirement: "military" };
  if (TERRITORIES.has(state)) return { area: state, requirement: "territory" };
  if (TERRITORY_ZIP.test(zip)) return { area: `ZIP3 ${zip.slice(0, 3)}`, requirement: "territory" };
  return { area: "US", requirement: "none" };
}

function stateCode(state: string): string {
  const upper = state.trim().toUpperCase();
  return usStateCodeOf(upper) ?? upper;
}

/**
 * Spec rule 2: price × quantity when a price is given, else customs value × quantity. A zero price
 * falls through to the customs value, as eHub's quoted `if (parcel_item.price)` does, so a free item
 * still declares what it is worth. Neither given declares 0 (validateCustoms reports it).
 */
export function declaredValueCents(item: CustomsItem): number {
  const unitCents = item.priceCents || item.customsData?.valueCents || 0;
  return Math.round(unitCents * item.quantity);
}

export function parcelDeclaredValueCents(items: readonly CustomsItem[]): number {
  return items.reduce((total, item) => total + declaredValueCents(item), 0);
}

/** A content type in any documented spelling (`Document`, `sample`, `Commercial Sample`) → ours. */
export function normalizeContentType(raw: string): ContentType | undefined {
  const key = snakeCase(raw);
  return CONTENT_TYPE_ALIASES[key] ?? CONTENT_TYPES.find((type) => type === key);
}

export function normalizeNonDelivery(raw: string): NonDeliveryOption | undefined {
  return NON_DELIVERY_ALIASES[snakeCase(raw)];
}

/** The parcel's single category for the form; eHub's example default is merchandise. */
export function parcelContentType(items: readonly CustomsItem[]): ContentType {
  return firstNormalized(items, (data) => data.contentType, normalizeContentType) ?? "merchandise";
}

/** The parcel's instruction for non-delivery; return to sender is the carriers' default. */
export function parcelNonDelivery(items: readonly CustomsItem[]): NonDeliveryOption {
  return firstNormalized(items, (data) => data.noDelivery, normalizeNonDelivery) ?? "return";
}

/** What the form prints for the item: its description, or its name when eHub clients send only that. */
export function itemDescription(item: CustomsItem): string | null {
  return nonBlank(item.description) ?? nonBlank(item.name);
}

export function isItn(eelPfc: string): boolean {
  return ITN.test(eelPfc.trim());
}

export function isEelExemption(eelPfc: string): boolean {
  return EEL_EXEMPTION.test(eelPfc.trim());
}

export function isHsTariffCode(code: string): boolean {
  return HS_TARIFF_CODE.test(code.trim());
}

/**
 * Everything missing or wrong in the parcels' customs declarations; empty when the shipment needs
 * none or is complete. `content_type` `other` needs no explanation: the eHub wire has no field for it.
 */
export function validateCustoms(requirement: CustomsRequirement, parcels: readonly CustomsParcel[]): CustomsProblem[] {
  if (requirement === "none") return [];
  return parcels.flatMap((parcel, index) => parcelProblems(requirement, parcel.items, `parcels[${index}]`));
}

function parcelProblems(
  requirement: CustomsRequirement,
  items: readonly CustomsItem[],
  path: string,
): CustomsProblem[] {
  const itemsPath = `${path}.parcel_items`;
  if (items.length === 0) return [{ path: itemsPath, message: "customs needs at least one parcel item" }];
  const parcelValueCents = parcelDeclaredValueCents(items);
  return [
    ...lineCountProblems(items, itemsPath),
    ...items.flatMap((item, index) => itemProblems(requirement, item, `${itemsPath}[${index}]`, parcelValueCents)),
    ...conflictProblems(items, itemsPath, "content_type", (data) => data.contentType, normalizeContentType),
    ...conflictProblems(items, itemsPath, "no_delivery", (data) => data.noDelivery, normalizeNonDelivery),
  ];
}

function lineCountProblems(items: readonly CustomsItem[], itemsPath: string): CustomsProblem[] {
  if (items.length <= MAX_CUSTOMS_LINES) return [];
  return [{ path: itemsPath, message: `a customs declaration holds at most ${MAX_CUSTOMS_LINES} parcel items` }];
}

function itemProblems(
  requirement: CustomsRequirement,
  item: CustomsItem,
  path: string,
  parcelValueCents: number,
): CustomsProblem[] {
  const customsPath = `${path}.customs_data`;
  const data = item.customsData;
  return [
    descriptionProblem(item, path),
    quantityProblem(item.quantity, path),
    valueProblem(item, path),
    hsTariffCodeProblem(data?.hsTariffCode, customsPath),
    eelPfcProblem(requirement, data, customsPath, parcelValueCents),
    choiceProblem(data?.contentType, `${customsPath}.content_type`, normalizeContentType, CONTENT_TYPES),
    choiceProblem(data?.noDelivery, `${customsPath}.no_delivery`, normalizeNonDelivery, NON_DELIVERY_OPTIONS),
  ].filter((problem) => problem !== null);
}

function descriptionProblem(item: CustomsItem, path: string): CustomsProblem | null {
  const field = nonBlank(item.description) === null && nonBlank(item.name) !== null ? "name" : "description";
  const description = itemDescription(item);
  if (description === null) return { path: `${path}.description`, message: "customs needs a description of the item" };
  if (!REFUSED_DESCRIPTIONS.has(description.toLowerCase())) return null;
  return { path: `${path}.${field}`, message: `"${description}" alone does not describe the item; say what it is` };
}

function quantityProblem(quantity: number, path: string): CustomsProblem | null {
  if (Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY) return null;
  return { path: `${path}.quantity`, message: `quantity must be a whole number from 1 to ${MAX_QUANTITY}` };
}

function valueProblem(item: CustomsItem, path: string): CustomsProblem | null {
  if (item.priceCents)
    return item.priceCents > 0 ? null : { path: `${path}.price`, message: "price cannot be negative" };
  const valueCents = item.customsData?.valueCents;
  if (valueCents === null || valueCents === undefined) {
    return { path: `${path}.customs_data.value`, message: "customs needs a price or customs_data.value for the item" };
  }
  return valueCents >= 0 ? null : { path: `${path}.customs_data.value`, message: "customs value cannot be negative" };
}

function hsTariffCodeProblem(code: string | null | undefined, customsPath: string): CustomsProblem | null {
  const hsCode = nonBlank(code);
  if (hsCode === null || isHsTariffCode(hsCode)) return null;
  return {
    path: `${customsPath}.hs_tariff_code`,
    message: `"${hsCode}" is not an HS tariff code: 6 to 14 letters or digits, dots allowed (e.g. 6109.10.0012)`,
  };
}

function eelPfcProblem(
  requirement: CustomsRequirement,
  data: CustomsData | null,
  customsPath: string,
  parcelValueCents: number,
): CustomsProblem | null {
  const eelPfc = nonBlank(data?.eelPfc);
  if (eelPfc === null) return missingCodeProblem(requirement, nonBlank(data?.hsTariffCode), customsPath);
  if (isItn(eelPfc)) return null;
  const path = `${customsPath}.eel_pfc`;
  if (requirement === "international" && parcelValueCents > ITN_REQUIRED_ABOVE_CENTS) {
    return {
      path,
      message: `the parcel declares ${formatUsd(parcelValueCents)} USD, over 2,500.00: eel_pfc must be an AES ITN (e.g. AES X20120502123456), not an exemption`,
    };
  }
  if (isEelExemption(eelPfc)) return null;
  return {
    path,
    message: `"${eelPfc}" is neither an EEL exemption (NOEEI 30.37(a)) nor an AES ITN (AES X20120502123456)`,
  };
}

/** International: eel_pfc on every item (spec). Territories and APO/FPO/DPO: an HS code will do. */
function missingCodeProblem(
  requirement: CustomsRequirement,
  hsCode: string | null,
  customsPath: string,
): CustomsProblem | null {
  if (requirement === "international") {
    return {
      path: `${customsPath}.eel_pfc`,
      message: "eel_pfc is required on every item of an international shipment",
    };
  }
  if (hsCode !== null) return null;
  return {
    path: `${customsPath}.hs_tariff_code`,
    message: "shipments to US territories and APO/FPO/DPO need an hs_tariff_code or an eel_pfc on every item",
  };
}

function choiceProblem<T extends string>(
  raw: string | null | undefined,
  path: string,
  normalize: (raw: string) => T | undefined,
  allowed: readonly T[],
): CustomsProblem | null {
  const value = nonBlank(raw);
  if (value === null || normalize(value) !== undefined) return null;
  return { path, message: `"${value}" is not one of ${allowed.join(", ")}` };
}

/** A parcel carries one form, and a form has one category and one non-delivery instruction. */
function conflictProblems<T extends string>(
  items: readonly CustomsItem[],
  itemsPath: string,
  field: string,
  pick: (data: CustomsData) => string | null,
  normalize: (raw: string) => T | undefined,
): CustomsProblem[] {
  const first = firstNormalized(items, pick, normalize);
  return items.flatMap((item, index) => {
    const raw = item.customsData ? nonBlank(pick(item.customsData)) : null;
    const value = raw === null ? undefined : normalize(raw);
    if (value === undefined || value === first) return [];
    const path = `${itemsPath}[${index}].customs_data.${field}`;
    return [{ path, message: `every item of a parcel must declare the same ${field} (the first says ${first})` }];
  });
}

function firstNormalized<T extends string>(
  items: readonly CustomsItem[],
  pick: (data: CustomsData) => string | null,
  normalize: (raw: string) => T | undefined,
): T | undefined {
  for (const item of items) {
    const raw = item.customsData ? nonBlank(pick(item.customsData)) : null;
    const value = raw === null ? undefined : normalize(raw);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * The customs form a parcel travels with. USPS (and DHL eCommerce, whose international mail is
 * postal): CN 22 below $400 for light pieces, CN 23 from $400, above 4 lb internationally, and for
 * Priority Mail Express (its 2976-B label carries the full declaration). APO/FPO/DPO and territory
 * mail under 16 oz that holds only documents needs no form; an unknown content type counts as goods.
 * UPS, FedEx and DHL Express use a commercial invoice; the sandbox prints the CN 23 as that full
 * declaration.
 */
export function customsFormKind(
  requirement: CustomsRequirement,
  parcelValueCents: number,
  carrierCode: CarrierCode,
  serviceCode: string,
  weightOz: number,
  contentType: ContentType | null = null,
): CustomsFormKind | null {
  if (requirement === "none") return null;
  if (INVOICE_CARRIERS.has(carrierCode)) return "CN23";
  if (requirement !== "international" && weightOz < DOMESTIC_FORM_FROM_OZ && isDocuments(contentType)) return null;
  if (parcelValueCents >= CN23_FROM_CENTS || /^usps_(intl_)?express$/.test(serviceCode)) return "CN23";
  return requirement === "international" && weightOz > CN22_MAX_WEIGHT_OZ ? "CN23" : "CN22";
}

function isDocuments(contentType: ContentType | null): boolean {
  return contentType === "documents" || contentType === "non_negotiable_document";
}

function snakeCase(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

function nonBlank(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}
