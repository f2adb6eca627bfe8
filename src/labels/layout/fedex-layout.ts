/**
 * The FedEx label (carrier-facts §6.5): origin and ship-from with the shipment facts, TO, the
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
  fedex_priority_overnight: "01",
  fedex_2day: "03",
  fedex_standard_overnight: "05",
  fedex_first_overnight: "06",
  fedex_express_saver: "20",
  fedex_2day_am: "49",
  fedex_home_delivery: "90",
  fedex_ground: "92",
  fedex_international_priority: "01",
  fedex_international_economy: "03",
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
  return /ground|home_delivery/.test(serviceCode);
}

export function layoutFedexLabel(layout: LabelLayout, request: LabelRequest): void {
  const margin = layout.u(0.08);
  const inner = layout.width - 2 * margin;
  const phone = !layout.compact;
  const columnX = layout.width * 0.6;

  let fromBottom = layout.text(`ORIGIN ID: ${zip5(request.from.postalCode)}`, {
    x: margin,
    y: margin,
    width: columnX - margin,
    sizePt: layout.pt(7),
    weight: "bold",
  });
  fromBottom = layout.text(addressLines(request.from, { uppercase: true, phone }), {
    x: margin,
    y: fromBottom,
    width: columnX - margin - layout.u(0.05),
    sizePt: layout.pt(7),
  });
  const { length, width, height } = request.dimensionsIn;
  const facts = [
    `SHIP DATE: ${fedexDate(request.shipDate)}`,
    `ACTWGT: ${decimalPounds(request.weightOz)} LB`,
    layout.compact ? null : `DIMS: ${length}x${width}x${height} IN`,
    "BILL SENDER",
    request.parcelCount > 1 ? `PKG ${request.parcelIndex} OF ${request.parcelCount}` : null,
  ];
  const factsBottom = layout.text(facts, {
    x: columnX,
    y: margin,
    width: layout.width - columnX - margin,
    sizePt: layout.pt(7),
  });

  const toTop = Math.max(fromBottom, factsBottom) + layout.u(0.12);
  layout.text("TO", { x: margin, y: toTop, width: layout.u(0.3), sizePt: layout.pt(10), weight: "bold" });
  const toX = layout.u(0.38);
  const toBottom = layout.text(addressLines(request.to, { uppercase: true, phone }), {
    x: toX,
    y: toTop,
    width: layout.width - toX - margin,
    sizePt: layout.pt(11),
    weight: "bold",
  });
  const referencesBottom = addReferenceLines(layout, request, {
    x: toX,
    y: toBottom + layout.u(0.04),
    width: layout.width - toX - margin,
    sizePt: layout.pt(8),
  });
  const thick = layout.u(0.03);
  let y = referencesBottom + layout.u(0.06);
  layout.rule(y, thick);

  const codeTop = y + thick + layout.u(0.08);
  const codeWidth = layout.width * 0.6;
  const codeHeight = layout.u(0.8);
  layout.add({
    kind: "matrix-code",
    symbology: "pdf417",
    data: pdf417Message(request),
    x: margin,
    y: codeTop,
    width: codeWidth - margin,
    height: codeHeight,
    moduleWidth: layout.u(2 / 203),
  });
  const markX = codeWidth + layout.u(0.1);
  const markWidth = layout.width - markX - margin;
  const markBottom = layout.text("FedEx", {
    x: markX,
    y: codeTop + layout.u(0.05),
    width: markWidth,
    sizePt: layout.pt(26),
    weight: "bold",
    align: "right",
  });
  layout.text([isGround(request.serviceCode) ? "Ground" : "Express", request.testMode ? "TEST LABEL" : null], {
    x: markX,
    y: markBottom,
    width: markWidth,
    sizePt: layout.pt(10),
    weight: "bold",
    align: "right",
  });
  y = codeTop + codeHeight + layout.u(0.08);
  layout.rule(y, thick);

  const serviceBottom = layout.text(serviceTitle(request.serviceName), {
    x: margin,
    y: y + thick + layout.u(0.08),
    width: inner,
    sizePt: layout.pt(14),
    minSizePt: layout.pt(9),
    weight: "bold",
    align: "right",
  });
  const trackingTop = serviceBottom + layout.u(0.02);
  layout.text("TRK#", {
    x: margin,
    y: trackingTop + layout.u(0.05),
    width: layout.u(0.45),
    sizePt: layout.pt(8),
    weight: "bold",
  });
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

  const barcodeHeight = layout.u(1);
  const region = {
    x: 0,
    y: layout.height - layout.u(0.15) - barcodeHeight,
    width: layout.width,
    height: barcodeHeight,
  };
  addTrackingBarcode(layout, request, { ...region, moduleWidth: MODULE_IN });
}
