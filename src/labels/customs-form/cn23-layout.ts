/**
 * CN 23 (USPS PS Form 2976-A) on a letter page: the dispatch note for parcels valued at $400 or
 * more, heavier international mail, and (in the sandbox) the courier carriers' full declaration.
 * Sized so that 30 content lines and every box fit on one page.
 */
import {
  CATEGORIES,
  CERTIFICATION,
  cell,
  checkbox,
  fieldBox,
  hsTariffColumn,
  itemTable,
  NON_DELIVERY_CHOICES,
  originColumn,
  otherExplanation,
  paragraph,
  partyBox,
  rule,
  type TableColumn,
  valueColumn,
  weightColumn,
} from "./form-drawing.js";
import type { CustomsFormInput } from "./render-customs-form.js";

const MARGIN = 36;
const WIDTH = 8.5 * 72 - 2 * MARGIN;
const GAP = 6;
const TABLE_STYLE = { rowHeight: 12, size: 8, headerSize: 7 };
const CHECKBOX_SIZE = 8;

const COLUMNS: readonly TableColumn[] = [
  { header: "No.", width: 20, align: "right", value: (_line, index) => String(index + 1) },
  {
    header: "Detailed description of contents",
    width: 178,
    value: (line) => line.description,
    total: () => "Total gross weight and value",
  },
  { header: "Quantity", width: 36, align: "right", value: (line) => String(line.quantity) },
  weightColumn("Net weight", 60),
  valueColumn("Value (US$)", 68),
  hsTariffColumn("HS tariff number", 100),
  originColumn("Country of origin", 78),
];

export function drawCn23(doc: PDFKit.PDFDocument, form: CustomsFormInput): void {
  let y = header(doc, form);
  y = parties(doc, form, y);
  y = itemTable(doc, form, COLUMNS, { x: MARGIN, y }, TABLE_STYLE) + 8;
  y = category(doc, form, y);
  y = nonDelivery(doc, form, y);
  y = documents(doc, form, y);
  signature(doc, form, y);
}

function header(doc: PDFKit.PDFDocument, form: CustomsFormInput): number {
  cell(doc, "CUSTOMS DECLARATION", MARGIN, MARGIN + 2, 300, { size: 14, bold: true });
  cell(doc, "CN 23", MARGIN, MARGIN, WIDTH, { size: 22, bold: true, align: "right" });
  cell(doc, "Dispatch note - may be opened officially", MARGIN, MARGIN + 19, 300, { size: 8 });
  if (form.carrierCode === "usps")
    cell(doc, "USPS PS Form 2976-A", MARGIN, MARGIN + 25, WIDTH, { size: 8, align: "right" });
  cell(doc, `Reference (tracking number): ${form.reference}`, MARGIN, MARGIN + 33, WIDTH, { size: 9, bold: true });
  return MARGIN + 50;
}

function parties(doc: PDFKit.PDFDocument, form: CustomsFormInput, y: number): number {
  const width = (WIDTH - GAP) / 2;
  const height = 78;
  partyBox(doc, "From (sender)", form.sender, { x: MARGIN, y, width, height }, 9);
  partyBox(doc, "To (addressee)", form.addressee, { x: MARGIN + width + GAP, y, width, height }, 9);
  return y + height + 8;
}

function category(doc: PDFKit.PDFDocument, form: CustomsFormInput, y: number): number {
  cell(doc, "Category of item", MARGIN, y, WIDTH, { size: 7, bold: true });
  const columnWidth = WIDTH / CATEGORIES.length;
  CATEGORIES.forEach((entry, index) => {
    const origin = { x: MARGIN + index * columnWidth, y: y + 10, width: columnWidth };
    checkbox(doc, origin, CHECKBOX_SIZE, entry.label, entry.types.includes(form.contentType));
  });
  cell(doc, `Explanation: ${otherExplanation(form.contentType)}`, MARGIN, y + 22, WIDTH, { size: 8 });
  return y + 34;
}

function nonDelivery(doc: PDFKit.PDFDocument, form: CustomsFormInput, y: number): number {
  cell(doc, "Instructions in case of non-delivery", MARGIN, y, WIDTH, { size: 7, bold: true });
  const columnWidth = WIDTH / NON_DELIVERY_CHOICES.length;
  NON_DELIVERY_CHOICES.forEach((choice, index) => {
    const origin = { x: MARGIN + index * columnWidth, y: y + 10, width: columnWidth };
    checkbox(doc, origin, CHECKBOX_SIZE, choice.label, choice.option === form.nonDelivery);
  });
  return y + 26;
}

/** Licence, certificate and invoice numbers in a row, then the export filing code. */
function documents(doc: PDFKit.PDFDocument, form: CustomsFormInput, y: number): number {
  const width = (WIDTH - 2 * GAP) / 3;
  const height = 26;
  const fields = [
    ["Licence number", form.licenceNumber],
    ["Certificate number", form.certificateNumber],
    ["Invoice number", form.invoiceNumber],
  ] as const;
  fields.forEach(([title, value], index) => {
    fieldBox(doc, title, value ?? "", { x: MARGIN + index * (width + GAP), y, width, height }, 9);
  });
  const eelTop = y + height + GAP;
  const eelTitle = "EEL/PFC: export exemption or AES ITN (Internal Transaction Number)";
  fieldBox(doc, eelTitle, form.eelPfc ?? "", { x: MARGIN, y: eelTop, width: WIDTH, height }, 10);
  return eelTop + height + 8;
}

function signature(doc: PDFKit.PDFDocument, form: CustomsFormInput, y: number): void {
  const below = paragraph(doc, CERTIFICATION, MARGIN, y, WIDTH, 7);
  cell(doc, `Date: ${form.date}`, MARGIN, below + 16, 180, { size: 9 });
  rule(doc, MARGIN + 200, below + 26, WIDTH - 200);
  cell(doc, "Signature of sender", MARGIN + 200, below + 28, WIDTH - 200, { size: 7 });
}
