/**
 * What every carrier's label carries besides its own blocks: the caller's reference lines
 * (label_text1/2), label_contents texts and images, and the VOID marking of test labels.
 */
import { linearSymbol, placeBars } from "../barcodes/linear-symbol.js";
import type { LinearBarcodeItem } from "../drawing.js";
import type { LabelContent, LabelRequest } from "../label.js";
import type { LabelLayout } from "./label-layout.js";

/** label_contents positions are the caller's, in real inches; a text without a height prints at this size. */
const DEFAULT_CONTENT_TEXT_PT = 8;
const DEFAULT_CONTENT_IMAGE_IN = 1;
/** A text's line box is about 1.2 em tall; a requested height sets the font size from it. */
const CONTENT_LINE_BOX_EM = 1.2;
/** Tilted enough to read as a stamp, flat enough to stay large across a wide, short barcode. */
const VOID_ANGLE_DEG = 10;

export interface ReferenceBox {
  x: number;
  y: number;
  width: number;
  sizePt: number;
}

/** label_text1 and label_text2 on their own lines; returns the y below them. */
export function addReferenceLines(layout: LabelLayout, request: LabelRequest, box: ReferenceBox): number {
  return layout.text([request.labelText1, request.labelText2], { ...box, weight: "regular" });
}

function addContent(layout: LabelLayout, content: LabelContent): void {
  if (content.type === "image") {
    if (!content.base64Image) return;
    layout.add({
      kind: "image",
      x: content.x,
      y: content.y,
      width: content.width ?? DEFAULT_CONTENT_IMAGE_IN,
      height: content.height ?? DEFAULT_CONTENT_IMAGE_IN,
      base64: content.base64Image,
    });
    return;
  }
  if (!content.text) return;
  const sizePt = content.height ? (content.height * 72) / CONTENT_LINE_BOX_EM : DEFAULT_CONTENT_TEXT_PT;
  layout.text(content.text, {
    x: content.x,
    y: content.y,
    width: content.width ?? Math.max(0, layout.width - content.x),
    sizePt,
  });
}

/** Drawn last so custom content sits on top of the carrier's blocks, where the caller put it. */
export function addLabelContents(layout: LabelLayout, request: LabelRequest): void {
  for (const content of request.contents ?? []) addContent(layout, content);
}

/**
 * Test labels: VOID across the main barcode (over its bars, not its whole box) so it cannot be
 * mistaken for real postage.
 */
export function addVoidOverlay(layout: LabelLayout, request: LabelRequest, barcode: LinearBarcodeItem): void {
  if (!request.testMode) return;
  const { x, moduleWidth } = placeBars(barcode);
  const width = linearSymbol(barcode).modules * moduleWidth;
  layout.add({
    kind: "void-overlay",
    x,
    y: barcode.y,
    width,
    height: barcode.height,
    text: "VOID",
    angleDeg: VOID_ANGLE_DEG,
  });
}

export interface BarcodeBox {
  x: number;
  y: number;
  width: number;
  height: number;
  moduleWidth: number;
}

/** The tracking number as Code 128, centred in the box, with VOID over it on test labels. */
export function addTrackingBarcode(layout: LabelLayout, request: LabelRequest, box: BarcodeBox): void {
  const barcode: LinearBarcodeItem = {
    kind: "linear-barcode",
    symbology: "code128",
    data: request.trackingNumber,
    ...box,
  };
  layout.add(barcode);
  addVoidOverlay(layout, request, barcode);
}
