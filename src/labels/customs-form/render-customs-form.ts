/**
 * Customs declaration PDFs: the CN 22 (USPS PS Form 2976, a 4×6 in sender's declaration) and the
 * CN 23 (PS Form 2976-A, a letter-size dispatch note). Which one a parcel needs is decided by
 * `customsFormKind` in the customs rules; this module only draws it.
 */
import { createRequire } from "node:module";
import type PDFDocument from "pdfkit";
import type { CarrierCode } from "../../carriers/catalogue.js";
import {
  type ContentType,
  type CustomsFormKind,
  MAX_CUSTOMS_LINES,
  type NonDeliveryOption,
} from "../../carriers/customs-terms.js";
import { drawCn22 } from "./cn22-layout.js";
import { drawCn23 } from "./cn23-layout.js";

/** Sender or addressee as printed: name and company lines, then the address lines in order. */
export interface CustomsFormParty {
  name: string | null;
  company: string | null;
  /** Street, city/state/ZIP and country lines, already formatted. */
  lines: readonly string[];
}

/** One content line. Weight and value are the line's totals (unit × quantity). */
export interface CustomsFormLine {
  description: string;
  quantity: number;
  weightOz: number;
  valueCents: number;
  hsTariffCode: string | null;
  /** ISO 3166-1 alpha-2 code. */
  countryOfOrigin: string | null;
}

export interface CustomsFormInput {
  kind: CustomsFormKind;
  /** Prints the USPS PS Form number only on USPS forms. */
  carrierCode: CarrierCode;
  /** The parcel's tracking number, which ties the form to its label. */
  reference: string;
  sender: CustomsFormParty;
  addressee: CustomsFormParty;
  items: readonly CustomsFormLine[];
  /** Gross weight of the parcel, packaging included. */
  totalWeightOz: number;
  totalValueCents: number;
  contentType: ContentType;
  nonDelivery: NonDeliveryOption;
  /** EEL exemption (`NOEEI 30.37(a)`) or AES ITN (`AES X20120502123456`). */
  eelPfc: string | null;
  /** YYYY-MM-DD, the mailing date printed next to the signature. */
  date: string;
  /** CN 23 boxes for controlled goods and commercial shipments; left blank when absent. */
  licenceNumber?: string | null;
  certificateNumber?: string | null;
  invoiceNumber?: string | null;
}

const PAGE_SIZE_PT: Readonly<Record<CustomsFormKind, [number, number]>> = {
  CN22: [4 * 72, 6 * 72],
  CN23: [8.5 * 72, 11 * 72],
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function renderCustomsForm(input: CustomsFormInput): Promise<Buffer> {
  assertPrintable(input);
  const doc = new (pdfkit())({
    size: PAGE_SIZE_PT[input.kind],
    margin: 0,
    // A fixed creation date keeps the bytes (and the PDF's file id) the same for the same form.
    info: {
      Title: `${input.kind} customs declaration ${input.reference}`,
      Creator: "Porter",
      CreationDate: new Date(`${input.date}T00:00:00Z`),
    },
  });
  const bytes = collect(doc);
  if (input.kind === "CN22") drawCn22(doc, input);
  else drawCn23(doc, input);
  doc.end();
  return bytes;
}

/** The rules reject these earlier; a form that cannot show every line must not be printed. */
function assertPrintable(input: CustomsFormInput): void {
  if (input.items.length === 0 || input.items.length > MAX_CUSTOMS_LINES) {
    throw new RangeError(`a customs form holds 1 to ${MAX_CUSTOMS_LINES} item lines, got ${input.items.length}`);
  }
  if (!ISO_DATE.test(input.date)) throw new RangeError(`customs form date must be YYYY-MM-DD, got ${input.date}`);
}

let library: typeof PDFDocument | undefined;

/**
 * pdfkit, loaded with the first customs form instead of with the server: it brings fontkit and its
 * decompressors, megabytes of source the idle process held (docs/performance.md, "Start-up").
 */
function pdfkit(): typeof PDFDocument {
  library ??= createRequire(import.meta.url)("pdfkit") as typeof PDFDocument;
  return library;
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
}
