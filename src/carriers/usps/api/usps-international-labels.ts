import type { CarrierAddress, ParcelContents } from "../../carrier.js";
import type { RatedParcel } from "../../catalogue.js";
import type { UspsInternationalProduct } from "./usps-international.js";
import { addressee, labelAddress, USPS_IMAGE_TYPES } from "./usps-labels.js";
import { pieceSize } from "./usps-products.js";
import type { UspsCustomsItem, UspsInternationalAddress, UspsInternationalLabelRequest } from "./usps-wire.js";

/** The label files USPS makes for international labels (International Labels `imageType`). */
export const USPS_INTERNATIONAL_FORMATS = ["pdf", "tiff", "zpl"] as const;
type InternationalFormat = (typeof USPS_INTERNATIONAL_FORMATS)[number];

const CONTENT_TYPES: Record<string, UspsInternationalLabelRequest["customsForm"]["customsContentType"]> = {
  merchandise: "MERCHANDISE",
  gift: "GIFT",
  documents: "DOCUMENT",
  sample: "COMMERCIAL_SAMPLE",
  return: "RETURNED_GOODS",
  other: "OTHER",
};

const COUNTRY_NAMES = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** An address abroad as USPS writes one: province and postal code, the country by its name and its ISO code. */
export function internationalAddress(address: CarrierAddress): UspsInternationalAddress {
  const phone = (address.phone ?? "").replace(/[^\d+]/g, "");
  const country = address.country.trim().toUpperCase();
  return {
    streetAddress: address.address1,
    ...(address.address2 ? { secondaryAddress: address.address2 } : {}),
    city: address.city,
    ...(address.state ? { province: address.state } : {}),
    ...(address.postal_code.trim() ? { postalCode: address.postal_code.trim() } : {}),
    // International Labels requires both the country's name and its code.
    country: COUNTRY_NAMES.of(country) ?? country,
    countryISOAlpha2Code: country,
    ...addressee(address),
    ...(/^\+?\d{6,15}$/.test(phone) ? { phone } : {}),
  };
}

/** A parcel's customs lines (each line's whole value and weight), or the reason USPS would refuse them. */
export function customsContents(contents: ParcelContents | undefined): UspsCustomsItem[] | { refusal: string } {
  const items = contents?.items ?? [];
  if (items.length === 0) return { refusal: "a USPS international label needs the parcel's customs items" };
  const lines: UspsCustomsItem[] = [];
  for (const item of items.slice(0, 30)) {
    if (!item.countryOfOrigin) return { refusal: "every customs item needs its country of origin" };
    lines.push({
      itemDescription: (item.description ?? "Merchandise").slice(0, 30),
      itemQuantity: item.quantity,
      itemTotalValue: (item.valueCents ?? 0) / 100,
      itemTotalWeight: Math.round(((item.weightOz ?? 0) / 16) * 1000) / 1000,
      weightUOM: "lb",
      countryofOrigin: item.countryOfOrigin.toUpperCase(),
      ...(item.hsTariffCode ? { HSTariffNumber: item.hsTariffCode.replace(/\D/g, "") } : {}),
    });
  }
  return lines;
}

export interface InternationalLabelOrder {
  from: CarrierAddress;
  to: CarrierAddress;
  product: UspsInternationalProduct;
  parcel: RatedParcel;
  contents: ParcelContents | undefined;
  format: InternationalFormat;
  mailingDate: string;
}

/** One parcel's `POST /international-labels/v3/international-label` body, with its customs form. */
export function internationalLabelRequest(
  order: InternationalLabelOrder,
): UspsInternationalLabelRequest | { refusal: string } {
  const contents = customsContents(order.contents);
  if ("refusal" in contents) return contents;
  // International Labels requires the export filing (`customsForm.AESITN`): the ITN or the exemption.
  const filing = order.contents?.items.map((item) => item.eelPfc?.trim()).find(Boolean);
  if (!filing) return { refusal: "a USPS international label needs the export filing (customs_data.eel_pfc)" };
  const reference = order.contents?.reference?.trim().slice(0, 30);
  const kind = order.contents?.items[0]?.contentType ?? "merchandise";
  return {
    imageInfo: {
      imageType: USPS_IMAGE_TYPES[order.format].imageType as UspsInternationalLabelRequest["imageInfo"]["imageType"],
      labelType: "4X6LABEL",
    },
    toAddress: internationalAddress(order.to),
    fromAddress: labelAddress(order.from),
    packageDescription: {
      mailClass: order.product.mailClass,
      rateIndicator: order.product.rateIndicator,
      processingCategory: order.product.processingCategory,
      destinationEntryFacilityType: "NONE",
      weightUOM: "lb",
      dimensionsUOM: "in",
      ...pieceSize(order.parcel),
      mailingDate: order.mailingDate,
      ...(reference ? { customerReference: [{ referenceNumber: reference }] } : {}),
    },
    customsForm: { customsContentType: CONTENT_TYPES[kind] ?? "OTHER", AESITN: filing.slice(0, 35), contents },
  };
}

/** An S10 international number (two letters, nine digits, US): voided through International Labels. */
export function isInternationalNumber(trackingNumber: string): boolean {
  return /^[A-Z]{2}\d{9}US$/.test(trackingNumber);
}
