/**
 * CN 22 (USPS PS Form 2976) on a 4×6 in page: the sender's declaration that travels on small,
 * low-value parcels. Header, parties, category, content lines, totals, then the EEL/PFC,
 * certification, date and signature anchored to the bottom edge.
 */
import {
  CATEGORIES,
  CERTIFICATION,
  cell,
  checkbox,
  hsTariffColumn,
  itemTable,
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

const PAGE_HEIGHT = 6 * 72;
const MARGIN = 12;
const WIDTH = 4 * 72 - 2 * MARGIN;
const FOOTER_HEIGHT = 74;
const FOOTER_TOP = PAGE_HEIGHT - MARGIN - FOOTER_HEIGHT;
const MAX_ROW_HEIGHT = 11;
const HEADER_SIZE = 6;

const COLUMNS: readonly TableColumn[] = [
  { header: "Description of contents", width: 86, value: (line) => line.description, total: () => "Total" },
  { header: "Qty", width: 18, align: "right", value: (line) => String(line.quantity) },
  weightColumn("Weight", 40),
  valueColumn("Value US$", 40),
  hsTariffColumn("HS tariff no.", 52),
  originColumn("Origin", 28),
];

export function drawCn22(doc: PDFKit.PDFDocument, form: CustomsFormInput): void {
  let y = header(doc, form);
  y = parties(doc, form, y);
  y = category(doc, form, y);
  items(doc, form, y);
  footer(doc, form);
}

function header(doc: PDFKit.PDFDocument, form: CustomsFormInput): number {
  cell(doc, "CUSTOMS DECLARATION", MARGIN, MARGIN + 2, 170, { size: 10, bold: true });
  cell(doc, "CN 22", MARGIN, MARGIN, WIDTH, { size: 16, bold: true, align: "right" });
  cell(doc, "May be opened officially", MARGIN, MARGIN + 15, 170, { size: 7 });
  if (form.carrierCode === "usps")
    cell(doc, "USPS PS Form 2976", MARGIN, MARGIN + 20, WIDTH, { size: 7, align: "right" });
  cell(doc, `Reference: ${form.reference}`, MARGIN, MARGIN + 29, WIDTH, { size: 8, bold: true });
  return MARGIN + 42;
}

function parties(doc: PDFKit.PDFDocument, form: CustomsFormInput, y: number): number {
  const width = (WIDTH - 6) / 2;
  const height = 56;
  partyBox(doc, "From (sender)", form.sender, { x: MARGIN, y, width, height }, 7);
  partyBox(doc, "To (addressee)", form.addressee, { x: MARGIN + width + 6, y, width, height }, 7);
  return y + height + 5;
}

/** Two rows of three boxes, plus what "Other" means when it stands for a specific content type. */
function category(doc: PDFKit.PDFDocument, form: CustomsFormInput, y: number): number {
  cell(doc, "Category of item", MARGIN, y, WIDTH, { size: HEADER_SIZE, bold: true });
  const columnWidth = WIDTH / 3;
  CATEGORIES.forEach((entry, index) => {
    const origin = { x: MARGIN + (index % 3) * columnWidth, y: y + 9 + Math.floor(index / 3) * 10, width: columnWidth };
    checkbox(doc, origin, 7, entry.label, entry.types.includes(form.contentType));
  });
  const explanation = otherExplanation(form.contentType);
  if (!explanation) return y + 32;
  cell(doc, `Explanation: ${explanation}`, MARGIN, y + 30, WIDTH, { size: 7 });
  return y + 41;
}

/** Rows shrink so that every line fits above the footer (the header and totals rows take 2 × 12 pt). */
function items(doc: PDFKit.PDFDocument, form: CustomsFormInput, y: number): void {
  const linesHeight = FOOTER_TOP - 4 - y - 4 * HEADER_SIZE;
  const rowHeight = Math.min(MAX_ROW_HEIGHT, linesHeight / form.items.length);
  const style = { rowHeight, size: Math.min(7, rowHeight - 2), headerSize: HEADER_SIZE };
  itemTable(doc, form, COLUMNS, { x: MARGIN, y }, style);
}

function footer(doc: PDFKit.PDFDocument, form: CustomsFormInput): void {
  cell(doc, "EEL/PFC (exemption or AES ITN):", MARGIN, FOOTER_TOP + 1, 112, { size: 6.5, bold: true });
  cell(doc, form.eelPfc ?? "", MARGIN + 114, FOOTER_TOP, WIDTH - 114, { size: 8, bold: true });
  const below = paragraph(doc, CERTIFICATION, MARGIN, FOOTER_TOP + 12, WIDTH, 5.5);
  cell(doc, `Date: ${form.date}`, MARGIN, below + 14, 96, { size: 7 });
  rule(doc, MARGIN + 104, below + 22, WIDTH - 104);
  cell(doc, "Sender's signature", MARGIN + 104, below + 24, WIDTH - 104, { size: 6 });
}
