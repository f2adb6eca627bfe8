/**
 * The DHL transport label (DHL Express, and DHL eCommerce parcels that do not ride on USPS):
 * brand header with the product code box, FROM and TO, shipment facts beside a DataMatrix, and
 * the waybill or package id as Code 128 at the bottom.
 */
import type { LabelRequest } from "../label.js";
import { addReferenceLines, addTrackingBarcode } from "./custom-content.js";
import type { LabelLayout } from "./label-layout.js";
import { addressLines, groupCharacters, kilograms } from "./label-values.js";

export interface DhlLabelStyle {
  brand: string;
  /** DHL Express global product code (P, Y, E …), printed white on black; null for none. */
  productCode: string | null;
  /** Caption of the tracking number: `WAYBILL` or `PACKAGE ID`. */
  trackingTitle: string;
}

/** 4 dots at 203 dpi: short numbers get wider bars, easier to scan. */
const MODULE_IN = 4 / 203;

/** DHL Express prints the 10-digit waybill as `33 1881 0025`. */
function readableTrackingNumber(trackingNumber: string): string {
  if (/^\d{10}$/.test(trackingNumber)) {
    return `${trackingNumber.slice(0, 2)} ${trackingNumber.slice(2, 6)} ${trackingNumber.slice(6)}`;
  }
  return groupCharacters(trackingNumber, 4);
}

function shipmentFacts(request: LabelRequest, compact: boolean): string[] {
  const { length, width, height } = request.dimensionsIn;
  const facts = [
    `DATE: ${request.shipDate}`,
    `WEIGHT: ${kilograms(request.weightOz)} KG`,
    `PIECE: ${request.parcelIndex}/${request.parcelCount}`,
  ];
  if (!compact) facts.push(`DIMS: ${length}x${width}x${height} IN`, request.serviceName.toUpperCase());
  return facts;
}

/** The brand, the product code box and the test notice. Returns the bottom. */
function drawHeader(layout: LabelLayout, request: LabelRequest, style: DhlLabelStyle): number {
  const margin = layout.u(0.08);
  const boxSize = layout.u(0.7);
  const brand = { x: margin, width: layout.width - 2 * margin - (style.productCode ? boxSize + layout.u(0.1) : 0) };
  layout.text(style.brand, { ...brand, y: layout.u(0.2), sizePt: layout.pt(22), weight: "bold" });
  if (style.productCode) {
    const boxX = layout.width - margin - boxSize;
    layout.rect(boxX, margin, boxSize, boxSize);
    const sizePt = layout.pt(36);
    const y = layout.capsCentredIn(margin, boxSize, sizePt);
    layout.text(style.productCode, {
      x: boxX,
      y,
      width: boxSize,
      sizePt,
      weight: "bold",
      align: "center",
      reverse: true,
    });
  }
  if (request.testMode) {
    layout.text("TEST LABEL – DO NOT SHIP", { ...brand, y: layout.u(0.58), sizePt: layout.pt(8), weight: "bold" });
  }
  return layout.u(0.86);
}

/** FROM and TO between rules. Returns the bottom. */
function drawParties(layout: LabelLayout, request: LabelRequest, top: number): number {
  const margin = layout.u(0.08);
  const inner = layout.width - 2 * margin;
  const phone = !layout.compact;
  layout.rule(top, layout.u(0.03));
  let y = layout.text("FROM:", {
    x: margin,
    y: top + layout.u(0.08),
    width: inner,
    sizePt: layout.pt(7),
    weight: "bold",
  });
  y = layout.text(addressLines(request.from, { uppercase: false, phone }), {
    x: margin,
    y,
    width: inner,
    sizePt: layout.pt(7),
  });
  layout.rule(y + layout.u(0.04), layout.u(0.015));
  y = layout.text("TO:", { x: margin, y: y + layout.u(0.12), width: inner, sizePt: layout.pt(8), weight: "bold" });
  const indent = layout.u(0.15);
  y = layout.text(addressLines(request.to, { uppercase: true, phone }), {
    x: margin + indent,
    y,
    width: inner - indent,
    sizePt: layout.pt(11),
    weight: "bold",
  });
  layout.rule(y + layout.u(0.04), layout.u(0.03));
  return y + layout.u(0.07);
}

/** Shipment facts beside the DataMatrix, then the caller's references. */
function drawFacts(layout: LabelLayout, request: LabelRequest, top: number): void {
  const margin = layout.u(0.08);
  const codeSize = layout.u(0.8);
  const codeX = layout.width - margin - codeSize;
  layout.add({
    kind: "matrix-code",
    symbology: "datamatrix",
    data: [request.trackingNumber, request.to.postalCode, request.to.country, request.serviceCode].join("|"),
    x: codeX,
    y: top,
    width: codeSize,
    height: codeSize,
    moduleWidth: layout.u(4 / 203),
  });
  const factsBottom = layout.text(shipmentFacts(request, layout.compact), {
    x: margin,
    y: top,
    width: codeX - margin - layout.u(0.1),
    sizePt: layout.pt(8),
  });
  addReferenceLines(layout, request, {
    x: margin,
    y: Math.max(factsBottom, top + codeSize) + layout.u(0.08),
    width: layout.width - 2 * margin,
    sizePt: layout.pt(8),
  });
}

/** The captioned tracking number over its Code 128, anchored to the bottom edge. */
function drawTrackingBlock(layout: LabelLayout, request: LabelRequest, style: DhlLabelStyle): void {
  const margin = layout.u(0.08);
  const barcodeHeight = layout.u(1);
  const barcodeTop = layout.height - layout.u(0.15) - barcodeHeight;
  const captionPt = layout.pt(11);
  layout.text(`${style.trackingTitle} ${readableTrackingNumber(request.trackingNumber)}`, {
    x: margin,
    y: barcodeTop - layout.u(0.08) - (captionPt / 72) * 1.2,
    width: layout.width - 2 * margin,
    sizePt: captionPt,
    weight: "bold",
    align: "center",
  });
  const box = { x: 0, y: barcodeTop, width: layout.width, height: barcodeHeight, moduleWidth: MODULE_IN };
  addTrackingBarcode(layout, request, box);
}

export function drawDhlLabel(layout: LabelLayout, request: LabelRequest, style: DhlLabelStyle): void {
  const headerBottom = drawHeader(layout, request, style);
  const partiesBottom = drawParties(layout, request, headerBottom);
  drawFacts(layout, request, partiesBottom + layout.u(0.07));
  drawTrackingBlock(layout, request, style);
}
