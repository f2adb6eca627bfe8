import type { CarrierAddress } from "../../carrier.js";
import type { RatedParcel, ServiceDefinition } from "../../catalogue.js";
import { UPS_SERVICES } from "../services.js";
import type { UpsDimensions, UpsPackageServiceOptions, UpsParty, UpsWeight } from "./ups-wire.js";

/**
 * Porter's UPS services ↔ UPS service codes (`Shipment.Service.Code` of the Rating and Shipping
 * specs), and Porter's package types ↔ UPS packaging codes (`PackagingType.Code`).
 */
const SERVICE_CODE_BY_PORTER: Readonly<Record<string, string>> = {
  ups_next_day: "01",
  ups_2nd_day: "02",
  ups_ground: "03",
  ups_express: "07",
  ups_expedited: "08",
  ups_standard: "11",
  ups_3day_select: "12",
  ups_next_day_saver: "13",
  ups_next_day_am: "14",
  ups_express_plus: "54",
  ups_2nd_day_am: "59",
  ups_saver: "65",
};

const PORTER_BY_SERVICE_CODE = new Map(Object.entries(SERVICE_CODE_BY_PORTER).map(([porter, ups]) => [ups, porter]));

const PACKAGING_CODE_BY_TYPE: Readonly<Record<string, string>> = {
  parcel: "02",
  ups_letter: "01",
  ups_tube: "03",
  ups_pak: "04",
  ups_box_small: "2a",
  ups_box_medium: "2b",
  ups_box_large: "2c",
};

const TYPE_BY_PACKAGING_CODE = new Map(
  Object.entries(PACKAGING_CODE_BY_TYPE).map(([type, code]) => [code.toLowerCase(), type]),
);

/** The UPS service code of a Porter UPS service, or undefined for one UPS's APIs do not name. */
export function upsServiceCode(service: Pick<ServiceDefinition, "serviceCode">): string | undefined {
  return SERVICE_CODE_BY_PORTER[service.serviceCode];
}

/** The Porter UPS service a UPS service code answers for, or undefined for a service Porter does not sell. */
export function porterService(upsCode: string): ServiceDefinition | undefined {
  const serviceCode = PORTER_BY_SERVICE_CODE.get(upsCode.trim().padStart(2, "0"));
  return UPS_SERVICES.find((s) => s.serviceCode === serviceCode);
}

/** The UPS packaging code of a Porter package type, or undefined for packaging UPS does not make. */
export function upsPackagingCode(packageType: string): string | undefined {
  return PACKAGING_CODE_BY_TYPE[packageType];
}

/** The Porter package type of a UPS packaging code ("2A" and "2a" alike). */
export function porterPackageType(upsCode: string): string | undefined {
  return TYPE_BY_PACKAGING_CODE.get(upsCode.trim().toLowerCase());
}

const OUNCES_PER_POUND = 16;

/**
 * UPS's declared value for a parcel insured with it, or nothing. Shipping takes a `Type` (01,
 * declared value); Rating has none and takes the amount as exactly 8 characters (Rating.yaml
 * `PackageServiceOptions_DeclaredValue`), so it is zero-padded there ("00250.00").
 */
export function upsPackageServiceOptions(
  parcel: RatedParcel,
  operation: "rating" | "shipping",
): { PackageServiceOptions?: UpsPackageServiceOptions } {
  if (!parcel.insuredCents) return {};
  const amount = (parcel.insuredCents / 100).toFixed(2);
  return {
    PackageServiceOptions: {
      DeclaredValue:
        operation === "shipping"
          ? { Type: { Code: "01", Description: "Declared value" }, CurrencyCode: "USD", MonetaryValue: amount }
          : { CurrencyCode: "USD", MonetaryValue: amount.padStart(8, "0") },
    },
  };
}

/** Pounds to a tenth, rounded up so UPS never carries more than it was told; at least 0.1 lb. */
export function upsWeight(weightOz: number): UpsWeight {
  const tenths = Math.max(1, Math.ceil((weightOz / OUNCES_PER_POUND) * 10 - 1e-9));
  return { UnitOfMeasurement: { Code: "LBS", Description: "Pounds" }, Weight: String(tenths / 10) };
}

/**
 * Sides in whole inches (UPS rounds each to the nearest inch for dimensional weight), longest
 * first as the Shipping spec asks; undefined when the parcel was given by weight alone.
 */
export function upsDimensions(
  parcel: Pick<RatedParcel, "lengthIn" | "widthIn" | "heightIn">,
): UpsDimensions | undefined {
  const sides = [parcel.lengthIn, parcel.widthIn, parcel.heightIn];
  if (sides.some((side) => !(side > 0))) return undefined;
  const [length, width, height] = sides.map((side) => Math.max(1, Math.round(side))).sort((a, b) => b - a);
  return {
    UnitOfMeasurement: { Code: "IN", Description: "Inches" },
    Length: String(length),
    Width: String(width),
    Height: String(height),
  };
}

/** UPS takes 35 characters of a name; its label prints fewer. */
const NAME_MAX = 35;
const ADDRESS_LINE_MAX = 35;
const CITY_MAX = 30;

function clip(value: string, max: number): string {
  return value.trim().slice(0, max);
}

function personName(address: CarrierAddress): string {
  return [address.first_name, address.last_name].filter(Boolean).join(" ").trim();
}

/** The digits of a phone number as UPS takes them (up to 15). */
export function upsPhone(phone: string | null | undefined): { Number: string } | undefined {
  const digits = (phone ?? "").replace(/\D/g, "").slice(0, 15);
  return digits.length > 0 ? { Number: digits } : undefined;
}

/**
 * A party with a contact name, as UPS wants of every party across a border and of a sold-to
 * contact: the person, else the company.
 */
export function withAttention<Party extends UpsParty & { Name: string }>(
  party: Party,
): Party & { AttentionName: string } {
  return { ...party, AttentionName: party.AttentionName ?? party.Name };
}

/** The longest state code Shipping takes (a Vietnamese province, "VN-44"). */
const SHIPPING_STATE_MAX = 5;

/**
 * A Porter address as a UPS party: the company (else the person) as `Name`, the person as
 * `AttentionName`; US ZIP+4 written without its hyphen (UPS takes 9 characters). A state code
 * longer than the API takes (`stateMax`: Rating takes two characters, Shipping five) is left out:
 * UPS requires one only in the US, Canada and Vietnam, where it fits.
 */
export function upsParty(
  address: CarrierAddress & { phone?: string | null; email?: string | null },
  options: { residential?: boolean; stateMax?: number } = {},
): UpsParty & { Name: string } {
  const person = personName(address);
  const state = address.state?.trim().toUpperCase() ?? "";
  const name = address.company?.trim() || person || "Resident";
  const country = address.country.toUpperCase();
  const postal = address.postal_code.trim();
  return {
    Name: clip(name, NAME_MAX),
    ...(person && person !== name ? { AttentionName: clip(person, NAME_MAX) } : {}),
    ...(upsPhone(address.phone) ? { Phone: upsPhone(address.phone) } : {}),
    ...(address.email ? { EMailAddress: clip(address.email, 50) } : {}),
    Address: {
      AddressLine: [address.address1, address.address2]
        .filter((line): line is string => Boolean(line?.trim()))
        .map((line) => clip(line, ADDRESS_LINE_MAX)),
      City: clip(address.city, CITY_MAX),
      ...(state && state.length <= (options.stateMax ?? SHIPPING_STATE_MAX) ? { StateProvinceCode: state } : {}),
      PostalCode: country === "US" || country === "PR" ? postal.replace(/[^0-9]/g, "").slice(0, 9) : postal.slice(0, 9),
      CountryCode: country,
      ...(options.residential ? { ResidentialAddressIndicator: "Y" } : {}),
    },
  };
}
