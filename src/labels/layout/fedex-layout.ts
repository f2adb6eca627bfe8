/**
 * The FedEx label: origin and ship-from with the shipment facts, TO, the
 * PDF417 beside the FedEx mark, the service and "TRK#" grouped 4-4-4, the destination, and the
 * tracking number as Code 128 along the bottom. ⚠ The exact FedEx block layout is not public.
 */
import type { LabelRequest } from "../label.js";
import { numericCountryCode } from "./country-codes.js";
import { addReferenceLines, addTrackingBarcode } from "./custom-content.js";
import type { LabelLayout } from "./label-layout.js";
import { addressLines, decimalPounds, fedexDate, groupCharacters, julianDay, zip5 } from "./label-values.js";

const RS = "\x1e";
const GS = "\x1d";
const EOT = "\x04";
/** 4 dots at 203 dpi: short numbers get wider bars, easier to scan. */
const MODULE_IN = 4 / 203;

/** ⚠ FedEx service type numbers as older FedEx Ship Manager exports show them; not confirmed. */
const SERVICE_TYPES: Record<string, string> = {
  fedex_overnight_priority: "01",
  fedex_2day: "03",
  fedex_overnight_standard: "05",
  fedex_overnight_1st: "06",
  fedex_express_saver: "20",
  fedex_2day_am: "49",
  fedex_ground_home: "90",
  fedex_ground: "92",
  fedex_intl_priority: "01",
  fedex_intl_economy: "03",
};

/** ANSI MH10.8.3 message (format 01, transportation data) with the fields a FedEx 2D symbol carries. */
function pdf417Message(request: LabelRequest): string {
  const fields = [
    `02${zip5(request.to.postalCode)}`,
    numericCountryCode(request.to.country),
    SERVICE_TYPES[request.serviceCode] ?? "00",
    request.trackingNumber,
    "FDEB",
    zip5(request.from.postalCode),
    julianDay(request.shipDate),
    "",
    `${request.parcelIndex}/${request.parcelCount}`,
    `${decimalPounds(request.weightOz)}LB`,
    "N",
    request.to.address1.toUpperCase(),
    request.to.city.toUpperCase(),
    request.to.state.toUpperCase(),
    (request.to.name ?? request.to.company ?? "").toUpperCase(),
  ];
  return `[)>${RS}01${GS}${fields.join(GS)}${RS}${EOT}`;
}

/** "FedEx Ground" → "GROUND", "FedEx Priority Overnight" → "PRIORITY OVERNIGHT". */
function serviceTitle(serviceName: string): string {
  return serviceName.toUpperCase().replace(/^FEDEX\s+/, "");
}

function isGround(serviceCode: string): boolean {
  return /ground/.test(serviceCode);
}

/** Origin and ship-from at the left, the shipment facts at the right. Returns the bottom. */
function drawShipper(layout: LabelLayout, request: LabelRequest): number {
  const margin = layout.u(0.08);
  const columnX = layout.width * 0.6;
  const left = { x: margin, width: columnX - margin - layout.u(0.05), sizePt: layout.pt(7) };
  const originBottom = layout.text(`ORIGIN ID: ${zip5(request.from.postalCode)}`, {
    ...left,
    y: margin,
    weight: "bold",
  });
  const fromLines = addressLines(request.from, { uppercase: true, phone: !layout.compact });
  const fromBottom = layout.text(fromLines, { ...left, y: originBottom });
  const { length, width, height } = request.dimensionsIn;
  const facts = [
    `SHIP DATE: ${fedexDate(request.shipDate)}`,
    `ACTWGT: ${decimalPounds(request.weightOz)} LB`,
    layout.compact ? null : `DIMS: ${length}x${width}x${height} IN`,
    "BILL SENDER",
    request.parcelCount > 1 ? `PKG ${request.parcelIndex} OF ${request.parcelCount}` : null,
  ];
  const column = { x: columnX, y: margin, width: layout.width - columnX - margin, sizePt: layout.pt(7) };
  return Math.max(fromBottom, layout.text(facts, column));
}

/** "TO" and the recipient, with the caller's references under it. Returns the bottom. */
function drawRecipient(layout: LabelLayout, request: LabelRequest, top: number): number {
  const margin = layout.u(0.08);
  layout.text("TO", { x: margin, y: top, width: layout.u(0.3), sizePt: layout.pt(10), weight: "bold" });
  const x = layout.u(0.38);
  const width = layout.width - x - margin;
  const toLines = addressLines(request.to, { uppercase: true, phone: !layout.compact });
  const toBottom = layout.text(toLines, { x, y: top, width, sizePt: layout.pt(11), weight: "bold" });
  return addReferenceLines(layout, request, { x, y: toBottom + layout.u(0.04), width, sizePt: layout.pt(8) });
}

/** Between rules: the PDF417 and, beside it, the FedEx mark with the network. Returns the bottom. */
function drawCodeRow(layout: LabelLayout, request: LabelRequest, top: number): number {
  const margin = layout.u(0.08);
  const thick = layout.u(0.03);
  layout.rule(top, thick);
  const codeTop = top + thick + layout.u(0.08);
  const codeRight = layout.width * 0.6;
  const codeHeight = layout.u(0.8);
  layout.add({
    kind: "matrix-code",
    symbology: "pdf417",
    data: pdf417Message(request),
    x: margin,
    y: codeTop,
    width: codeRight - margin,
    height: codeHeight,
    moduleWidth: layout.u(2 / 203),
  });
  const mark = { x: codeRight + layout.u(0.1), width: layout.width - codeRight - layout.u(0.1) - margin };
  const markBottom = layout.text("FedEx", {
    ...mark,
    y: codeTop + layout.u(0.05),
    sizePt: layout.pt(26),
    weight: "bold",
    align: "right",
  });
  const network = [isGround(request.serviceCode) ? "Ground" : "Express", request.testMode ? "TEST LABEL" : null];
  layout.text(network, { ...mark, y: markBottom, sizePt: layout.pt(10), weight: "bold", align: "right" });
  const bottom = codeTop + codeHeight + layout.u(0.08);
  layout.rule(bottom, thick);
  return bottom + thick;
}

/** The service, "TRK#" with the number grouped 4-4-4, and the destination. */
function drawServiceRow(layout: LabelLayout, request: LabelRequest, top: number): void {
  const margin = layout.u(0.08);
  const inner = layout.width - 2 * margin;
  const serviceBottom = layout.text(serviceTitle(request.serviceName), {
    x: margin,
    y: top + layout.u(0.08),
    width: inner,
    sizePt: layout.pt(14),
    minSizePt: layout.pt(9),
    weight: "bold",
    align: "right",
  });
  const trackingTop = serviceBottom + layout.u(0.02);
  const caption = { x: margin, y: trackingTop + layout.u(0.05), width: layout.u(0.45), sizePt: layout.pt(8) };
  layout.text("TRK#", { ...caption, weight: "bold" });
  const trackingBottom = layout.text(groupCharacters(request.trackingNumber, 4), {
    x: margin + layout.u(0.5),
    y: trackingTop,
    width: inner - layout.u(0.5),
    sizePt: layout.pt(14),
    weight: "bold",
  });
  const destination = `${zip5(request.to.postalCode)} ${request.to.state.toUpperCase()}-${request.to.country.toUpperCase()}`;
  layout.text(destination, {
    x: margin,
    y: trackingBottom + layout.u(0.04),
    width: inner,
    sizePt: layout.pt(16),
    weight: "bold",
    align: "right",
  });
}

export function layoutFedexLabel(layout: LabelLayout, request: LabelRequest): void {
  const shipperBottom = drawShipper(layout, request);
  const recipientBottom = drawRecipient(layout, request, shipperBottom + layout.u(0.12));
  const codeRowBottom = drawCodeRow(layout, request, recipientBottom + layout.u(0.06));
  drawServiceRow(layout, request, codeRowBottom);
  const barcodeHeight = layout.u(1);
  const barcodeTop = layout.height - layout.u(0.15) - barcodeHeight;
  addTrackingBarcode(layout, request, {
    x: 0,
    y: barcodeTop,
    width: layout.width,
    height: barcodeHeight,
    moduleWidth: MODULE_IN,
  });
}
