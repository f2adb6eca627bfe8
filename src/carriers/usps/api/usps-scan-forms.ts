import type { CarrierAddress } from "../../carrier.js";
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

/**
 * The SCAN form's metadata from either answer the spec defines: the vendor JSON, or the default
 * multipart one whose `SCANFormMetaData` part is JSON. Throws when it holds no EFN.
 */
export function readScanFormAnswer(contentType: string, body: Buffer): UspsScanFormMetadata {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  const json =
    /^multipart\//i.test(contentType) && boundary
      ? Buffer.from(
          multipartParts(body.toString("latin1"), boundary).get("SCANFormMetaData") ?? "{}",
          "latin1",
        ).toString("utf8")
      : body.toString("utf8");
  const metadata = JSON.parse(json) as Partial<UspsScanFormMetadata>;
  if (typeof metadata.manifestNumber !== "string" || metadata.manifestNumber === "") {
    throw new Error("USPS answered the SCAN form request without its manifest number.");
  }
  return metadata as UspsScanFormMetadata;
}
