import type { CarrierAddress } from "../../carrier.js";
import type { CostLine, RatedParcel } from "../../catalogue.js";
import { dollarsToCents, pieceSize, type UspsProduct, zipParts } from "./usps-products.js";
import type {
  UspsImageType,
  UspsLabelAddress,
  UspsLabelMetadata,
  UspsLabelRequest,
  UspsLabelType,
  UspsLabelVendorResponse,
  UspsMailClass,
  UspsPaymentAuthorizationRequest,
  UspsReturnLabelRequest,
  UspsReturnMailClass,
  UspsRole,
} from "./usps-wire.js";

/** The label files Porter asks USPS for, by Porter's `label_format`; USPS makes each of them. */
export const USPS_IMAGE_TYPES = {
  pdf: { imageType: "PDF", contentType: "application/pdf", dpi: 72 },
  png: { imageType: "PNG", contentType: "image/png", dpi: 300 },
  jpeg: { imageType: "JPG", contentType: "image/jpeg", dpi: 300 },
  gif: { imageType: "GIF", contentType: "image/gif", dpi: 300 },
  tiff: { imageType: "TIFF", contentType: "image/tiff", dpi: 300 },
  zpl: { imageType: "ZPL203DPI", contentType: "application/zpl", dpi: 203 },
  epl2: { imageType: "EPL300DPI", contentType: "application/epl2", dpi: 300 },
} as const satisfies Record<string, { imageType: UspsImageType; contentType: string; dpi: number }>;

export type UspsLabelFormat = keyof typeof USPS_IMAGE_TYPES;

/** Porter's label sizes USPS makes (`imageInfo.labelType`); its others (4x4, 4x5, 6x4, 2x7) Porter does not offer. */
export const USPS_LABEL_SIZES: Readonly<
  Record<string, { labelType: UspsLabelType; widthIn: number; heightIn: number }>
> = { "4x6": { labelType: "4X6LABEL", widthIn: 4, heightIn: 6 } };

/** Why USPS cannot make this label file, naming what it can; undefined when it can. */
export function labelRefusal(format: string, size: string): string | undefined {
  if (!(format in USPS_IMAGE_TYPES)) {
    return `USPS makes labels as ${Object.keys(USPS_IMAGE_TYPES).join(", ")}; not ${format}.`;
  }
  if (!(size in USPS_LABEL_SIZES)) {
    return `USPS makes labels in the sizes ${Object.keys(USPS_LABEL_SIZES).join(", ")}; not ${size}.`;
  }
  if (format === "epl2" && size !== "4x6") return "USPS makes EPL labels in 4x6 only.";
  return undefined;
}

export interface UspsPayer {
  crid: string | null;
  mid: string | null;
  epsAccount: string | null;
  permitNumber: string | null;
  permitZip: string | null;
}

/**
 * The Payments API request for a label token: the connection's CRID pays (from its EPS account,
 * or its permit) and owns the labels (its MID numbers them and files their manifest). Throws the
 * reason in words when the connection lacks what USPS needs for labels.
 */
export function paymentAuthorizationRequest(payer: UspsPayer): UspsPaymentAuthorizationRequest {
  const { crid, mid } = payer;
  if (!crid || !mid) {
    throw new Error("buying USPS labels needs the connection's crid and mid (credentials.crid, credentials.mid).");
  }
  let account: Pick<UspsRole, "accountType" | "accountNumber" | "permitNumber" | "permitZIP">;
  if (payer.epsAccount) account = { accountType: "EPS", accountNumber: payer.epsAccount };
  else if (payer.permitNumber && payer.permitZip) {
    account = { accountType: "PERMIT", permitNumber: payer.permitNumber, permitZIP: payer.permitZip };
  } else {
    throw new Error(
      "buying USPS labels needs an account to pay from: credentials.eps_account, or credentials.permit_number with credentials.permit_zip.",
    );
  }
  return {
    roles: [
      { roleName: "PAYER", CRID: crid, MID: mid, manifestMID: mid, ...account },
      { roleName: "LABEL_OWNER", CRID: crid, MID: mid, manifestMID: mid },
    ],
  };
}

/** USPS wants a name or a firm on every address: the company as the firm, else the person. */
export function addressee(address: CarrierAddress): Pick<UspsLabelAddress, "firstName" | "lastName" | "firm"> {
  const first = address.first_name?.trim() || undefined;
  const last = address.last_name?.trim() || undefined;
  const company = address.company?.trim() || undefined;
  const firm = company ?? (first && last ? undefined : (first ?? last));
  return { ...(first && last ? { firstName: first, lastName: last } : {}), ...(firm ? { firm } : {}) };
}

/** A US address as the Labels API takes it. */
export function labelAddress(address: CarrierAddress): UspsLabelAddress {
  return {
    streetAddress: address.address1,
    ...(address.address2 ? { secondaryAddress: address.address2 } : {}),
    city: address.city,
    state: address.state.toUpperCase(),
    ...zipParts(address.postal_code),
    ...addressee(address),
  };
}

export interface LabelOrder {
  from: CarrierAddress;
  to: CarrierAddress;
  product: UspsProduct;
  parcel: RatedParcel;
  format: UspsLabelFormat;
  size: string;
  /** YYYY-MM-DD. */
  mailingDate: string;
  /** 1-based, of `parcelCount`. */
  parcelNumber: number;
  parcelCount: number;
  reference?: string | null;
}

/** USPS's extra service code for insurance; USPS itself makes it 931 above 500.00. */
const INSURANCE_EXTRA_SERVICE = 930;

/** Insurance as the Labels spec asks it: extra service 930 and the package's value it covers. */
function insurance(
  parcel: RatedParcel,
): Pick<UspsLabelRequest["packageDescription"], "extraServices" | "packageOptions"> {
  if (!parcel.insuredCents) return {};
  return {
    extraServices: [INSURANCE_EXTRA_SERVICE],
    packageOptions: { packageValue: parcel.insuredCents / 100 },
  };
}

/** One parcel's `POST /labels/v3/label` body. */
export function labelRequest(order: LabelOrder): UspsLabelRequest {
  const size = USPS_LABEL_SIZES[order.size] ?? USPS_LABEL_SIZES["4x6"]!;
  const { parcel, product } = order;
  const reference = order.reference?.trim().slice(0, 30);
  return {
    imageInfo: {
      imageType: USPS_IMAGE_TYPES[order.format].imageType,
      labelType: size.labelType,
      receiptOption: "NONE",
      ...(order.parcelCount > 1 ? { packageNumber: order.parcelNumber, totalPackages: order.parcelCount } : {}),
    },
    toAddress: labelAddress(order.to),
    fromAddress: labelAddress(order.from),
    packageDescription: {
      mailClass: product.mailClass,
      rateIndicator: product.rateIndicator,
      processingCategory: product.processingCategory,
      destinationEntryFacilityType: "NONE",
      weightUOM: "lb",
      dimensionsUOM: "in",
      ...pieceSize(parcel),
      mailingDate: order.mailingDate,
      ...insurance(parcel),
      ...(reference ? { customerReference: [{ referenceNumber: reference, printReferenceNumber: true }] } : {}),
    },
  };
}

/**
 * The return service of each outbound mail class USPS has one for (Labels
 * `BaseReturnsPackageDescription.mailClass`, and `imageInfo.returnLabel`'s pairing of them).
 */
const RETURN_MAIL_CLASS: Partial<Record<UspsMailClass, UspsReturnMailClass>> = {
  USPS_GROUND_ADVANTAGE: "USPS_GROUND_ADVANTAGE_RETURN_SERVICE",
  PRIORITY_MAIL: "PRIORITY_MAIL_RETURN_SERVICE",
  PRIORITY_MAIL_EXPRESS: "PRIORITY_MAIL_EXPRESS_RETURN_SERVICE",
};

/**
 * One parcel's `POST /labels/v3/return-label` body: the outbound label's, in the mail class's
 * return service; or why USPS has no return service for it.
 */
export function returnLabelRequest(order: LabelOrder): UspsReturnLabelRequest | { refusal: string } {
  const mailClass = RETURN_MAIL_CLASS[order.product.mailClass];
  if (!mailClass) {
    return {
      refusal: `USPS has return labels for Ground Advantage, Priority Mail and Priority Mail Express only; not ${order.product.mailClass}.`,
    };
  }
  const { imageInfo, toAddress, fromAddress, packageDescription } = labelRequest(order);
  const { destinationEntryFacilityType: _entry, mailingDate: _mailing, ...description } = packageDescription;
  return { imageInfo, toAddress, fromAddress, packageDescription: { ...description, mailClass } };
}

/** What USPS answered a label request with: its metadata and the label file's bytes. */
export interface UspsLabelAnswer {
  metadata: UspsLabelMetadata;
  image: Buffer;
}

/**
 * Reads a label answer in either form the spec defines: `application/vnd.usps.labels+json`
 * (the metadata with the images in base64) or the default multipart one (a `labelMetadata` JSON
 * part and a `labelImage` part that is always base64, whatever its headers say); a return
 * label's answer names them `returnLabelMetadata` and `returnLabelImage`. Throws when it
 * holds no tracking number or no label image.
 */
export function readLabelAnswer(contentType: string, body: Buffer): UspsLabelAnswer {
  let metadata: Partial<UspsLabelMetadata>;
  let image: string | undefined;
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const parts = multipartParts(body.toString("latin1"), boundary);
    const json = parts.get("labelMetadata") ?? parts.get("returnLabelMetadata") ?? "{}";
    metadata = JSON.parse(Buffer.from(json, "latin1").toString("utf8"));
    image = parts.get("labelImage") ?? parts.get("returnLabelImage");
  } else {
    const vendor = JSON.parse(body.toString("utf8")) as Partial<UspsLabelVendorResponse>;
    metadata = vendor;
    image = vendor.labelImage ?? vendor.returnLabelImage;
  }
  // International labels name theirs `internationalTrackingNumber` (an S10 number).
  const international = (metadata as { internationalTrackingNumber?: unknown }).internationalTrackingNumber;
  if (typeof international === "string" && !metadata.trackingNumber) metadata.trackingNumber = international;
  if (typeof metadata.trackingNumber !== "string" || metadata.trackingNumber === "") {
    throw new Error("USPS answered the label request without a tracking number.");
  }
  if (!image || image.trim() === "") throw new Error("USPS answered the label request without a label image.");
  const {
    labelImage: _image,
    receiptImage: _receipt,
    returnLabelImage: _returnImage,
    returnReceiptImage: _returnReceipt,
    ...rest
  } = metadata as Partial<UspsLabelVendorResponse>;
  return { metadata: rest as UspsLabelMetadata, image: Buffer.from(image.replace(/\s+/g, ""), "base64") };
}

/** A multipart body's parts by their Content-Disposition name, as text (latin1, byte for byte). */
export function multipartParts(body: string, boundary: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith("--")) break;
    const split = chunk.indexOf("\r\n\r\n");
    if (split < 0) continue;
    const headers = chunk.slice(0, split);
    const name = /name="([^"]+)"/i.exec(headers)?.[1];
    if (name) parts.set(name, chunk.slice(split + 4).replace(/\r\n$/, ""));
  }
  return parts;
}

/** What the label cost, as USPS's metadata says: the postage, then each fee and extra service. */
export function labelCostLines(metadata: UspsLabelMetadata): CostLine[] {
  const extras = [...(metadata.fees ?? []), ...(metadata.extraServices ?? [])]
    .filter((fee) => typeof fee.price === "number" && fee.price !== 0)
    .map((fee) => ({
      kind: feeKind(fee.name ?? "fee"),
      description: fee.name ?? "Fee",
      amountCents: dollarsToCents(fee.price as number),
    }));
  return [{ kind: "base", description: "Postage", amountCents: dollarsToCents(metadata.postage) }, ...extras];
}

/** A fee's name as a cost-line kind: "Nonstandard Length > 22" → "nonstandard_length_22". */
export function feeKind(name: string): string {
  // "Insurance", "Insurance <= $500", "Insurance > $500": one kind, as the sandbox names it.
  if (/^insurance\b/i.test(name.trim())) return "insurance";
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "") || "fee"
  );
}
