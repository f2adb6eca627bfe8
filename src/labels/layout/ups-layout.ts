/**
 * The UPS label: ship-from with weight and "n OF m", SHIP TO, the MaxiCode
 * beside the routing code and the postal barcode of the destination ZIP, the service banner with
 * its service-level box, "TRACKING #: 1Z …" over the 1Z Code 128, then billing and references.
 */

import { maxiCodeSecondaryMessage } from "../barcodes/matrix-symbol.js";
import { maxiCodeHeight } from "../barcodes/maxicode-geometry.js";
import type { MaxiCodeMessage } from "../drawing.js";
import type { LabelRequest } from "../label.js";
import { numericCountryCode } from "./country-codes.js";
import { addReferenceLines, addTrackingBarcode } from "./custom-content.js";
import type { LabelLayout } from "./label-layout.js";
import { addressLines, julianDay, upsTrackingGroups, usDate, wholePounds, zip5 } from "./label-values.js";

interface UpsService {
  /** UPS service code, 3 digits, as the MaxiCode class of service. */
  serviceClass: string;
  /** The digit in the black service-level box (1 next day, 2 second day, 3 three day). */
  level: string | null;
}

const UPS_SERVICES: Record<string, UpsService> = {
  ups_next_day: { serviceClass: "001", level: "1" },
  ups_2nd_day: { serviceClass: "002", level: "2" },
  ups_ground: { serviceClass: "003", level: null },
  ups_express: { serviceClass: "007", level: null },
  ups_expedited: { serviceClass: "008", level: null },
  ups_standard: { serviceClass: "011", level: null },
  ups_3day_select: { serviceClass: "012", level: "3" },
  ups_next_day_saver: { serviceClass: "013", level: "1" },
  ups_next_day_am: { serviceClass: "014", level: "1" },
  ups_express_plus: { serviceClass: "054", level: null },
  ups_2nd_day_am: { serviceClass: "059", level: "2" },
  ups_saver: { serviceClass: "065", level: null },
};
const GROUND: UpsService = { serviceClass: "003", level: null };

/** ISO/IEC 16023 nominal symbol width (28.14 mm). */
const MAXICODE_WIDTH_IN = 1.11;
const MAXICODE_HEIGHT_IN = maxiCodeHeight(MAXICODE_WIDTH_IN);
const MODULE_IN = 3 / 203;
/** Symbol characters a mode 2/3 secondary message holds. */
const MAXICODE_SECONDARY_CAPACITY = 84;
/** Code set A: one symbol character each; anything else costs a shift as well. */
const CODE_SET_A = new Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \"#$%&'()*+,-./:\x1d\x1e");
const POSTAL_MODULE_IN = 3 / 203;

function isUsZip(request: LabelRequest): boolean {
  return request.to.country.toUpperCase() === "US" && /^\d{5}(?:-?\d{4})?$/.test(request.to.postalCode);
}

function symbolCharacters(text: string): number {
  let count = 0;
  for (const char of text) count += CODE_SET_A.has(char) ? 1 : 2;
  return count;
}

/**
 * The ship-to street, city and state close the message. To fit the symbol the street is
 * shortened first, then the address fields are dropped from the end; the fields before them
 * (tracking number, shipper, weight …) are what UPS sorts by.
 */
function fitShipTo(fixed: readonly string[], street: string, city: string, state: string): string[] {
  const cost = (fields: readonly string[]) => symbolCharacters(maxiCodeSecondaryMessage(fields));
  let fittedStreet = street;
  while (fittedStreet.length > 0 && cost([...fixed, fittedStreet, city, state]) > MAXICODE_SECONDARY_CAPACITY) {
    fittedStreet = fittedStreet.slice(0, -1);
  }
  const fields = [...fixed, fittedStreet.trimEnd(), city, state];
  while (cost(fields) > MAXICODE_SECONDARY_CAPACITY && fields.length > fixed.length) fields.pop();
  return fields;
}

function upsMaxiCodeMessage(request: LabelRequest, service: UpsService): MaxiCodeMessage {
  const us = isUsZip(request);
  const digits = request.to.postalCode.replace(/\D/g, "");
  return {
    mode: us ? 2 : 3,
    postalCode: us
      ? digits.padEnd(9, "0")
      : request.to.postalCode
          .replace(/[^0-9A-Za-z]/g, "")
          .toUpperCase()
          .slice(0, 6),
    countryCode: numericCountryCode(request.to.country),
    serviceClass: service.serviceClass,
    fields: fitShipTo(
      [
        request.trackingNumber,
        "UPSN",
        request.trackingNumber.startsWith("1Z") ? request.trackingNumber.slice(2, 8) : "",
        julianDay(request.shipDate),
        "",
        `${request.parcelIndex}/${request.parcelCount}`,
        String(wholePounds(request.weightOz)),
        "Y",
      ],
      request.to.address1.toUpperCase(),
      request.to.city.toUpperCase(),
      request.to.state.toUpperCase(),
    ),
  };
}

/** ⚠ A sandbox routing code shaped like UPS's ("TX 787 4-45"): state, ZIP3, then digits of the ZIP. */
function routingCode(request: LabelRequest): string {
  if (!isUsZip(request)) return `${request.to.country.toUpperCase()} ${request.to.postalCode.toUpperCase()}`;
  const zip = zip5(request.to.postalCode);
  return `${request.to.state.toUpperCase()} ${zip.slice(0, 3)} ${(Number(zip[3]) % 9) + 1}-${zip.slice(3)}`;
}

function drawServiceBanner(layout: LabelLayout, request: LabelRequest, service: UpsService, top: number): number {
  const margin = layout.u(0.08);
  const boxSize = layout.u(0.5);
  const nameWidth = layout.width - 2 * margin - (service.level ? boxSize + layout.u(0.1) : 0);
  const nameBottom = layout.text(request.serviceName.toUpperCase(), {
    x: margin,
    y: top + layout.u(0.1),
    width: nameWidth,
    sizePt: layout.pt(16),
    minSizePt: layout.pt(10),
    weight: "bold",
  });
  if (!service.level) return nameBottom;
  const boxX = layout.width - margin - boxSize;
  layout.rect(boxX, top + layout.u(0.05), boxSize, boxSize);
  const sizePt = layout.pt(30);
  layout.text(service.level, {
    x: boxX,
    y: layout.capsCentredIn(top + layout.u(0.05), boxSize, sizePt),
    width: boxSize,
    sizePt,
    weight: "bold",
    align: "center",
    reverse: true,
  });
  return Math.max(nameBottom, top + layout.u(0.05) + boxSize);
}

/** Ship-from at the left; weight, "n OF m" and the shipment facts at the right. Returns the bottom. */
function drawShipper(layout: LabelLayout, request: LabelRequest): number {
  const margin = layout.u(0.08);
  const columnX = layout.width * 0.62;
  const columnWidth = layout.width - columnX - margin;
  const fromBottom = layout.text(addressLines(request.from, { uppercase: true, phone: !layout.compact }), {
    x: margin,
    y: margin,
    width: columnX - margin - layout.u(0.05),
    sizePt: layout.pt(7),
  });
  const column = { x: columnX, width: columnWidth, align: "right" } as const;
  const parcel = [`${wholePounds(request.weightOz)} LBS`, `${request.parcelIndex} OF ${request.parcelCount}`];
  let y = layout.text(parcel, { ...column, y: margin, sizePt: layout.pt(11), weight: "bold" });
  const { length, width, height } = request.dimensionsIn;
  const facts = [`SHP DATE: ${usDate(request.shipDate)}`, layout.compact ? null : `DWT: ${length},${width},${height}`];
  y = layout.text(facts, { ...column, y, sizePt: layout.pt(7) });
  if (request.testMode) y = layout.text("TEST LABEL", { ...column, y, sizePt: layout.pt(8), weight: "bold" });
  return Math.max(fromBottom, y);
}

function drawShipTo(layout: LabelLayout, request: LabelRequest, top: number): number {
  const margin = layout.u(0.08);
  layout.text("SHIP TO:", { x: margin, y: top, width: layout.u(0.5), sizePt: layout.pt(7), weight: "bold" });
  const x = layout.u(0.4);
  return layout.text(addressLines(request.to, { uppercase: true, phone: !layout.compact }), {
    x,
    y: top + layout.u(0.12),
    width: layout.width - x - margin,
    sizePt: layout.pt(10),
    weight: "bold",
  });
}

/** Between thick rules: the MaxiCode, and beside it the routing code over the postal barcode. */
function drawSortingBlock(layout: LabelLayout, request: LabelRequest, service: UpsService, top: number): number {
  const margin = layout.u(0.08);
  const thick = layout.u(0.04);
  layout.rule(top, thick);
  const codeTop = top + thick + layout.u(0.06);
  layout.add({
    kind: "matrix-code",
    symbology: "maxicode",
    message: upsMaxiCodeMessage(request, service),
    x: margin,
    y: codeTop,
    width: MAXICODE_WIDTH_IN,
    height: MAXICODE_HEIGHT_IN,
    moduleWidth: MAXICODE_WIDTH_IN / 30,
  });
  const routingX = margin + MAXICODE_WIDTH_IN + layout.u(0.15);
  const routingWidth = layout.width - routingX - margin;
  const routingBottom = layout.text(routingCode(request), {
    x: routingX,
    y: codeTop + layout.u(0.1),
    width: routingWidth,
    sizePt: layout.pt(20),
    weight: "bold",
  });
  if (isUsZip(request)) {
    layout.add({
      kind: "linear-barcode",
      symbology: "gs1-128",
      elements: [`420${zip5(request.to.postalCode)}`],
      x: routingX,
      y: routingBottom + layout.u(0.08),
      width: routingWidth,
      height: layout.u(0.45),
      moduleWidth: POSTAL_MODULE_IN,
    });
  }
  const bottom = codeTop + MAXICODE_HEIGHT_IN + layout.u(0.06);
  layout.rule(bottom, thick);
  return bottom + thick;
}

/** "TRACKING #: 1Z …" over the 1Z Code 128, closed by a thick rule. Returns the bottom. */
function drawTrackingBlock(layout: LabelLayout, request: LabelRequest, top: number): number {
  const margin = layout.u(0.08);
  const textBottom = layout.text(`TRACKING #: ${upsTrackingGroups(request.trackingNumber)}`, {
    x: margin,
    y: top + layout.u(0.06),
    width: layout.width - 2 * margin,
    sizePt: layout.pt(10),
    weight: "bold",
  });
  layout.rule(textBottom + layout.u(0.02), layout.u(0.015));
  const barcode = { x: 0, y: textBottom + layout.u(0.1), width: layout.width, height: layout.u(0.85) };
  addTrackingBarcode(layout, request, { ...barcode, moduleWidth: MODULE_IN });
  const thick = layout.u(0.04);
  const rule = barcode.y + barcode.height + layout.u(0.08);
  layout.rule(rule, thick);
  return rule + thick;
}

export function layoutUpsLabel(layout: LabelLayout, request: LabelRequest): void {
  const service = UPS_SERVICES[request.serviceCode] ?? GROUND;
  const margin = layout.u(0.08);
  const shipperBottom = drawShipper(layout, request);
  const shipToBottom = drawShipTo(layout, request, shipperBottom + layout.u(0.1));
  const sortingBottom = drawSortingBlock(layout, request, service, shipToBottom + layout.u(0.06));
  const bannerBottom = drawServiceBanner(layout, request, service, sortingBottom);
  const trackingBottom = drawTrackingBlock(layout, request, bannerBottom);
  const box = { x: margin, width: layout.width - 2 * margin, sizePt: layout.pt(8) };
  const billingBottom = layout.text("BILLING: P/P", { ...box, y: trackingBottom + layout.u(0.06), weight: "bold" });
  addReferenceLines(layout, request, { ...box, y: billingBottom });
}
