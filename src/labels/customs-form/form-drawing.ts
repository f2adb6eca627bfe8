/**
 * Drawing pieces both customs forms share: clipped cells, boxes, checkboxes, the category and
 * non-delivery choices, and the sender's certification. Coordinates are PDF points from the top left.
 */
import { type ContentType, formatUsd, type NonDeliveryOption } from "../../carriers/customs-terms.js";
import { labelFontPath } from "../text/label-font.js";
import type { CustomsFormInput, CustomsFormLine, CustomsFormParty } from "./render-customs-form.js";

/** The labels' typeface, embedded (pdfkit subsets it), so the forms print alike everywhere too. */
const REGULAR = labelFontPath("regular");
const BOLD = labelFontPath("bold");
const LINE_WIDTH = 0.6;

export interface CellStyle {
  size: number;
  bold?: boolean;
  align?: "left" | "right";
}

/** One line of text clipped to `width`: a form cell must never spill into its neighbour. */
export function cell(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  width: number,
  style: CellStyle,
): void {
  doc.font(style.bold ? BOLD : REGULAR).fontSize(style.size);
  const fitted = fitToWidth(doc, text, width);
  const offset = style.align === "right" ? width - doc.widthOfString(fitted) : 0;
  doc.text(fitted, x + offset, y, { lineBreak: false });
}

function fitToWidth(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let kept = text;
  while (kept.length > 0 && doc.widthOfString(`${kept}...`) > width) kept = kept.slice(0, -1);
  return `${kept}...`;
}

/** Wrapped text, for the certification paragraph. Returns the y below it. */
export function paragraph(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  width: number,
  size: number,
): number {
  doc.font(REGULAR).fontSize(size).text(text, x, y, { width });
  return doc.y;
}

export function box(doc: PDFKit.PDFDocument, x: number, y: number, width: number, height: number): void {
  doc.lineWidth(LINE_WIDTH).rect(x, y, width, height).stroke();
}

export function rule(doc: PDFKit.PDFDocument, x: number, y: number, width: number): void {
  doc
    .lineWidth(LINE_WIDTH)
    .moveTo(x, y)
    .lineTo(x + width, y)
    .stroke();
}

/** A square with an X when ticked, and its label to the right. */
export function checkbox(
  doc: PDFKit.PDFDocument,
  origin: { x: number; y: number; width: number },
  size: number,
  label: string,
  checked: boolean,
): void {
  const { x, y } = origin;
  box(doc, x, y, size, size);
  if (checked) {
    doc
      .moveTo(x, y)
      .lineTo(x + size, y + size)
      .moveTo(x + size, y)
      .lineTo(x, y + size)
      .stroke();
  }
  cell(doc, label, x + size + 3, y + size * 0.1, origin.width - size - 3, { size, bold: checked });
}

/** A titled box holding one value: licence, certificate, invoice, EEL/PFC. */
export function fieldBox(
  doc: PDFKit.PDFDocument,
  title: string,
  value: string,
  area: { x: number; y: number; width: number; height: number },
  size: number,
): void {
  box(doc, area.x, area.y, area.width, area.height);
  cell(doc, title, area.x + 3, area.y + 2, area.width - 6, { size: size - 2, bold: true });
  cell(doc, value, area.x + 3, area.y + area.height - size - 3, area.width - 6, { size, bold: true });
}

/** Title, then name, company and address lines, inside a box of the given height. */
export function partyBox(
  doc: PDFKit.PDFDocument,
  title: string,
  party: CustomsFormParty,
  area: { x: number; y: number; width: number; height: number },
  size: number,
): void {
  box(doc, area.x, area.y, area.width, area.height);
  cell(doc, title, area.x + 3, area.y + 2, area.width - 6, { size: size - 1, bold: true });
  const lineHeight = size * 1.2;
  const fits = Math.floor((area.height - size - 4) / lineHeight);
  partyLines(party)
    .slice(0, fits)
    .forEach((line, index) => {
      cell(doc, line, area.x + 3, area.y + size + 3 + index * lineHeight, area.width - 6, { size });
    });
}

function partyLines(party: CustomsFormParty): string[] {
  return [party.name, party.company, ...party.lines].filter((line): line is string => Boolean(line?.trim()));
}

/** The categories of the CN 22/CN 23; merchandise is "Sale of goods", the rest fall under Other. */
export const CATEGORIES: readonly { label: string; types: readonly ContentType[] }[] = [
  { label: "Gift", types: ["gift"] },
  { label: "Documents", types: ["documents", "non_negotiable_document"] },
  { label: "Commercial sample", types: ["commercial_sample"] },
  { label: "Returned goods", types: ["returned_goods"] },
  { label: "Sale of goods", types: ["merchandise"] },
  {
    label: "Other",
    types: [
      "other",
      "humanitarian_donation",
      "dangerous_goods",
      "cremated_remains",
      "medical_supplies",
      "pharmaceuticals",
    ],
  },
];

/** What "Other" stands for, so the officer sees "Humanitarian donation" rather than a bare tick. */
export function otherExplanation(contentType: ContentType): string {
  if (contentType === "other") return "";
  const other = CATEGORIES.at(-1);
  return other?.types.includes(contentType) ? humanize(contentType) : "";
}

export const NON_DELIVERY_CHOICES: readonly { label: string; option: NonDeliveryOption }[] = [
  { label: "Return to sender", option: "return" },
  { label: "Treat as abandoned", option: "abandon" },
  { label: "Redirect", option: "redirect" },
];

export const CERTIFICATION =
  "I, the undersigned, whose name and address are given on the item, certify that the particulars given in this " +
  "declaration are correct and that this item does not contain any dangerous article or articles prohibited by " +
  "legislation or by postal or customs regulations.";

/** Customs forms from USPS weigh in pounds and ounces: 20 → "1 lb 4 oz", 4.5 → "4.5 oz". */
function formatWeight(weightOz: number): string {
  const tenths = Math.round(weightOz * 10);
  const pounds = Math.floor(tenths / 160);
  const ounces = `${(tenths % 160) / 10} oz`;
  return pounds > 0 ? `${pounds} lb ${ounces}` : ounces;
}

export interface TableColumn {
  header: string;
  width: number;
  align?: "left" | "right";
  value: (line: CustomsFormLine, index: number) => string;
  /** Printed in the totals row under the lines. */
  total?: (form: CustomsFormInput) => string;
}

/** A right-aligned column of amounts with their total under it, in one format. */
const totalledColumn =
  (
    format: (amount: number) => string,
    ofLine: (line: CustomsFormLine) => number,
    ofForm: (form: CustomsFormInput) => number,
  ) =>
  (header: string, width: number): TableColumn => ({
    header,
    width,
    align: "right",
    value: (line) => format(ofLine(line)),
    total: (form) => format(ofForm(form)),
  });

/** The content-line columns both forms print alike, under their own header and width. */
export const weightColumn = totalledColumn(
  formatWeight,
  (line) => line.weightOz,
  (form) => form.totalWeightOz,
);
export const valueColumn = totalledColumn(
  formatUsd,
  (line) => line.valueCents,
  (form) => form.totalValueCents,
);

export const hsTariffColumn = (header: string, width: number): TableColumn => ({
  header,
  width,
  value: (line) => line.hsTariffCode ?? "",
});

export const originColumn = (header: string, width: number): TableColumn => ({
  header,
  width,
  value: (line) => line.countryOfOrigin ?? "",
});

export interface TableStyle {
  rowHeight: number;
  size: number;
  headerSize: number;
}

/** Header row, one ruled row per content line and a totals row, inside a box. Returns the y below it. */
export function itemTable(
  doc: PDFKit.PDFDocument,
  form: CustomsFormInput,
  columns: readonly TableColumn[],
  origin: { x: number; y: number },
  style: TableStyle,
): number {
  const width = columns.reduce((total, column) => total + column.width, 0);
  const headerHeight = style.headerSize * 2;
  const totalsHeight = Math.max(style.rowHeight, headerHeight);
  const linesTop = origin.y + headerHeight;
  const totalsTop = linesTop + form.items.length * style.rowHeight;
  box(doc, origin.x, origin.y, width, totalsTop + totalsHeight - origin.y);
  tableRow(
    doc,
    columns,
    (column) => column.header,
    { x: origin.x, y: origin.y + 2 },
    { size: style.headerSize, bold: true },
  );
  form.items.forEach((line, index) => {
    const top = linesTop + index * style.rowHeight;
    rule(doc, origin.x, top, width);
    const textTop = top + (style.rowHeight - style.size) / 2;
    tableRow(doc, columns, (column) => column.value(line, index), { x: origin.x, y: textTop }, { size: style.size });
  });
  rule(doc, origin.x, totalsTop, width);
  const totalsText = (column: TableColumn) => column.total?.(form) ?? "";
  const totalsTextTop = totalsTop + (totalsHeight - style.headerSize - 1) / 2;
  tableRow(doc, columns, totalsText, { x: origin.x, y: totalsTextTop }, { size: style.headerSize + 1, bold: true });
  return totalsTop + totalsHeight;
}

function tableRow(
  doc: PDFKit.PDFDocument,
  columns: readonly TableColumn[],
  text: (column: TableColumn) => string,
  origin: { x: number; y: number },
  style: CellStyle,
): void {
  let x = origin.x;
  for (const column of columns) {
    cell(doc, text(column), x + 2, origin.y, column.width - 4, { ...style, align: column.align });
    x += column.width;
  }
}

function humanize(code: string): string {
  const words = code.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
