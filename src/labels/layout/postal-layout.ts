/**
 * The USPS domestic label layout, top to bottom: 1-inch service icon and
 * postage indicia with a DataMatrix, the service banner between rules, return address with the
 * endorsement under it, SHIP TO, reference lines, and the IMpb block anchored to the bottom.
 * DHL eCommerce domestic parcels travel as USPS mail, so their labels reuse it with a DHL header.
 */
import type { LinearBarcodeItem } from "../drawing.js";
import type { LabelRequest } from "../label.js";
import { textWidthIn } from "../text/text-metrics.js";
import { addReferenceLines, addVoidOverlay } from "./custom-content.js";
import type { LabelLayout } from "./label-layout.js";
import {
  addressLines,
  dollars,
  endorsementText,
  groupCharacters,
  poundsAndOunces,
  usDate,
  zip5,
} from "./label-values.js";

/** The upper-left service icon: a letter in a bordered square, a solid square, or a brand on black. */
export type ServiceIcon = { kind: "letter"; letter: string } | { kind: "solid" } | { kind: "brand"; text: string };

export interface PostalHeader {
  icon: ServiceIcon;
  /** Mail class over the indicia, e.g. `PRIORITY MAIL`. */
  classMarking: string;
  /** Who paid the postage, printed in the indicia. */
  permitHolder: string;
  /** Full-width service banner, e.g. `USPS PRIORITY MAIL`. */
  banner: string;
}

/** IMpb (GS1-128 of 420+ZIP and the PIC) for domestic mail; Code 128 of the S10 number abroad. */
export type PostalBarcode = { kind: "impb"; routing: string; pic: string } | { kind: "code128"; data: string };

const TEST_NOTICE = "TEST LABEL – NOT VALID FOR POSTAGE";
const TRACKING_BANNER = "USPS TRACKING # EP";
/** 3 dots at 203 dpi: the IMpb X-dimension of thermal labels. */
const IMPB_MODULE_IN = 3 / 203;

function drawServiceIcon(layout: LabelLayout, icon: ServiceIcon, size: number): void {
  if (icon.kind === "letter") {
    // DMM: the letter is at least 3/4 inch tall inside a border of at least 3/4 point.
    layout.box(0, 0, size, size, layout.u(0.03));
    const sizePt = layout.pt(76);
    const y = layout.capsCentredIn(0, size, sizePt);
    layout.text(icon.letter, { x: 0, y, width: size, sizePt, weight: "bold", align: "center" });
    return;
  }
  layout.rect(0, 0, size, size);
  if (icon.kind === "brand") {
    const sizePt = layout.pt(30);
    const y = layout.capsCentredIn(0, size, sizePt);
    layout.text(icon.text, { x: 0, y, width: size, sizePt, weight: "bold", align: "center", reverse: true });
  }
}

function drawIndicia(
  layout: LabelLayout,
  request: LabelRequest,
  header: PostalHeader,
  barcode: PostalBarcode,
  left: number,
  height: number,
): void {
  const top = layout.u(0.06);
  const boxHeight = height - 2 * top;
  layout.box(left, top, layout.width - left - layout.u(0.06), boxHeight, layout.u(0.015));
  const codeSize = Math.min(layout.u(0.7), boxHeight - layout.u(0.12));
  const codeX = left + layout.u(0.08);
  const matrixData = [
    barcode.kind === "impb" ? barcode.routing + barcode.pic : barcode.data,
    request.shipDate,
    zip5(request.from.postalCode),
    String(request.postageCents),
  ].join("|");
  layout.add({
    kind: "matrix-code",
    symbology: "datamatrix",
    data: matrixData,
    x: codeX,
    y: top + (boxHeight - codeSize) / 2,
    width: codeSize,
    height: codeSize,
    moduleWidth: layout.u(4 / 203),
  });
  const x = codeX + codeSize + layout.u(0.1);
  const width = layout.width - x - layout.u(0.1);
  const sizePt = layout.pt(8);
  let y = layout.text(header.classMarking, { x, y: top + layout.u(0.08), width, sizePt, weight: "bold" });
  if (request.testMode) {
    y = layout.paragraph(TEST_NOTICE, 2, { x, y, width, sizePt, weight: "bold" });
  } else {
    y = layout.text(["U.S. POSTAGE PAID", header.permitHolder], { x, y, width, sizePt, weight: "bold" });
  }
  const details = [
    `${usDate(request.shipDate)}  ${dollars(request.postageCents)}`,
    [`FROM ${zip5(request.from.postalCode)}`, request.zone ? `ZONE ${request.zone}` : null].filter(Boolean).join("  "),
  ];
  layout.text(details, { x, y, width, sizePt: layout.pt(7) });
}

function drawBanner(layout: LabelLayout, banner: string, top: number): number {
  const rule = layout.u(0.03);
  const inner = layout.u(0.4);
  layout.rule(top, rule);
  const sizePt = layout.pt(20);
  const margin = layout.u(0.06);
  layout.text(banner, {
    x: margin,
    y: layout.capsCentredIn(top + rule, inner, sizePt),
    width: layout.width - 2 * margin,
    sizePt,
    minSizePt: layout.pt(12),
    weight: "bold",
    align: "center",
  });
  layout.rule(top + rule + inner, rule);
  return top + 2 * rule + inner;
}

/** Ship date, weight, zone and "n OF m" to the right of the return address. */
function shipmentFacts(request: LabelRequest): string[] {
  const facts = [`SHIP DATE: ${usDate(request.shipDate)}`, `WEIGHT: ${poundsAndOunces(request.weightOz)}`];
  if (request.parcelCount > 1) facts.push(`PARCEL ${request.parcelIndex} OF ${request.parcelCount}`);
  return facts;
}

function impbBlockHeight(layout: LabelLayout): number {
  return layout.u(1.6);
}

/** Thick bars, the tracking banner, the barcode and the PIC in groups of four; returns the block's top. */
function drawImpbBlock(layout: LabelLayout, request: LabelRequest, barcode: PostalBarcode): number {
  const bar = layout.u(0.075);
  const top = layout.height - impbBlockHeight(layout) - layout.u(0.12);
  layout.rule(top, bar);
  const bannerPt = layout.pt(10);
  const bannerBottom = layout.text(TRACKING_BANNER, {
    x: 0,
    y: top + bar + layout.u(0.07),
    width: layout.width,
    sizePt: bannerPt,
    weight: "bold",
    align: "center",
  });
  const barcodeTop = bannerBottom + layout.u(0.03);
  const barcodeHeight = layout.u(0.9);
  const box = { x: 0, y: barcodeTop, width: layout.width, height: barcodeHeight, moduleWidth: IMPB_MODULE_IN };
  const item: LinearBarcodeItem =
    barcode.kind === "impb"
      ? { kind: "linear-barcode", symbology: "gs1-128", elements: [barcode.routing, barcode.pic], ...box }
      : { kind: "linear-barcode", symbology: "code128", data: barcode.data, ...box };
  layout.add(item);
  const readable = barcode.kind === "impb" ? groupCharacters(barcode.pic, 4) : barcode.data;
  const readableBottom = layout.text(readable, {
    x: 0,
    y: barcodeTop + barcodeHeight + layout.u(0.07),
    width: layout.width,
    sizePt: layout.pt(10),
    weight: "bold",
    align: "center",
  });
  layout.rule(readableBottom + layout.u(0.02), bar);
  addVoidOverlay(layout, request, item);
  return top;
}

export function drawPostalLabel(
  layout: LabelLayout,
  request: LabelRequest,
  header: PostalHeader,
  barcode: PostalBarcode,
  extraReferences: readonly string[] = [],
): void {
  const margin = layout.u(0.08);
  const iconSize = layout.u(1);
  drawServiceIcon(layout, header.icon, iconSize);
  drawIndicia(layout, request, header, barcode, iconSize + layout.u(0.06), iconSize);
  const bannerBottom = drawBanner(layout, header.banner, iconSize + layout.u(0.04));

  const fromTop = bannerBottom + layout.u(0.1);
  const factsX = layout.width * 0.6;
  const fromWidth = factsX - margin - layout.u(0.06);
  let fromBottom = layout.text(addressLines(request.from, { uppercase: false, phone: false }), {
    x: margin,
    y: fromTop,
    width: fromWidth,
    sizePt: layout.pt(8),
  });
  if (request.endorsement) {
    fromBottom = layout.text(endorsementText(request.endorsement), {
      x: margin,
      y: fromBottom + layout.u(0.06),
      width: fromWidth,
      sizePt: Math.max(8, layout.pt(8)),
      weight: "bold",
    });
  }
  const factsBottom = layout.text(shipmentFacts(request), {
    x: factsX,
    y: fromTop,
    width: layout.width - factsX - margin,
    sizePt: layout.pt(7),
  });

  const impbTop = drawImpbBlock(layout, request, barcode);
  const shipToTop = Math.max(fromBottom, factsBottom) + layout.u(0.16);
  const references = [request.labelText1, request.labelText2, ...extraReferences].filter(Boolean).length;
  const referencesHeight = references * (layout.pt(8) / 72) * 1.2;
  const shipToLines = addressLines(request.to, { uppercase: true, phone: false });
  // Long addresses shrink the SHIP TO type rather than run into the IMpb block.
  const room = impbTop - layout.u(0.08) - referencesHeight - shipToTop;
  const shipToPt = Math.max(6, Math.min(layout.pt(11), (room / (shipToLines.length * 1.2)) * 72));
  const captionPt = layout.pt(7);
  layout.text("SHIP TO:", { x: margin, y: shipToTop, width: layout.u(0.6), sizePt: captionPt, weight: "bold" });
  const shipToX = Math.max(layout.u(0.55), margin + textWidthIn("SHIP TO:", captionPt, "bold") + layout.u(0.06));
  const shipToBottom = layout.text(shipToLines, {
    x: shipToX,
    y: shipToTop,
    width: layout.width - shipToX - margin,
    sizePt: shipToPt,
    weight: "bold",
  });
  const referencesBox = { x: margin, width: layout.width - 2 * margin, sizePt: layout.pt(8) };
  const referencesBottom = addReferenceLines(layout, request, { ...referencesBox, y: shipToBottom + layout.u(0.06) });
  layout.text(extraReferences, { ...referencesBox, y: referencesBottom });
}
