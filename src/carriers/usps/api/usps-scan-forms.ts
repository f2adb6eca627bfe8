import type { CarrierAddress, CarrierDocument } from "../../carrier.js";
import { labelAddress, multipartParts } from "./usps-labels.js";
import { zip5 } from "./usps-products.js";
import type { UspsScanFormMetadata, UspsScanFormRequest } from "./usps-wire.js";

export interface ScanFormOrder {
  /** YYYY-MM-DD. */
  mailingDate: string;
  /** Where the pieces are handed to USPS. */
  originPostalCode: string;
  from: CarrierAddress;
  trackingNumbers: readonly string[];
}

/** A PS Form 5630 for the labels handed over together (`POST /scan-forms/v3/scan-form`, label-shipment variant). */
export function scanFormRequest(order: ScanFormOrder): UspsScanFormRequest {
  return {
    form: "5630",
    imageType: "PDF",
    labelType: "8.5x11LABEL",
    mailingDate: order.mailingDate,
    entryFacilityZIPCode: zip5(order.originPostalCode),
    destinationEntryFacilityType: "NONE",
    shipment: { trackingNumbers: [...order.trackingNumbers] },
    fromAddress: labelAddress(order.from),
  };
}

export interface ScanFormAnswer {
  metadata: UspsScanFormMetadata;
  /** USPS's own SCAN form, when its image is one Porter can serve (a PDF as asked, or a TIFF). */
  document?: CarrierDocument;
}

/**
 * The SCAN form's metadata and image from either answer the spec defines: the vendor JSON with the
 * image in `SCANFormImage`, or the default multipart one whose `SCANFormMetaData` part is JSON and
 * whose `SCANFormImage` part is base64. Throws when it holds no EFN.
 */
export function readScanFormAnswer(contentType: string, body: Buffer): ScanFormAnswer {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  let metadata: Partial<UspsScanFormMetadata>;
  let image: unknown;
  if (/^multipart\//i.test(contentType) && boundary) {
    const parts = multipartParts(body.toString("latin1"), boundary);
    metadata = JSON.parse(Buffer.from(parts.get("SCANFormMetaData") ?? "{}", "latin1").toString("utf8"));
    image = parts.get("SCANFormImage");
  } else {
    const vendor = JSON.parse(body.toString("utf8")) as Partial<UspsScanFormMetadata> & { SCANFormImage?: unknown };
    const { SCANFormImage, ...rest } = vendor;
    metadata = rest;
    image = SCANFormImage;
  }
  if (typeof metadata.manifestNumber !== "string" || metadata.manifestNumber === "") {
    throw new Error("USPS answered the SCAN form request without its manifest number.");
  }
  const document =
    typeof image === "string" ? scanFormDocument(Buffer.from(image.replace(/\s+/g, ""), "base64")) : undefined;
  return { metadata: metadata as UspsScanFormMetadata, ...(document && { document }) };
}

/** The image as a file Porter serves, told by its first bytes; anything else is left for Porter's own form. */
function scanFormDocument(bytes: Buffer): CarrierDocument | undefined {
  const start = bytes.subarray(0, 5).toString("latin1");
  if (start === "%PDF-") return { bytes, format: "pdf" };
  if (start.startsWith("II*\0") || start.startsWith("MM\0*")) return { bytes, format: "tiff" };
  return undefined;
}
