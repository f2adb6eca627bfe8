/**
 * Turns a label request into the device-independent drawing: the carrier's layout in the label
 * area, then label_contents on top, then the whole moved to where the label sits on its page.
 */
import type { CarrierCode } from "../../carriers/catalogue.js";
import type { DrawingItem, LabelDrawing } from "../drawing.js";
import type { LabelRequest } from "../label.js";
import type { LabelFrame } from "../label-frame.js";
import { addLabelContents } from "./custom-content.js";
import { layoutDhlEcommerceLabel } from "./dhl-ecommerce-layout.js";
import { layoutDhlExpressLabel } from "./dhl-express-layout.js";
import { layoutFedexLabel } from "./fedex-layout.js";
import { LabelLayout } from "./label-layout.js";
import { layoutUpsLabel } from "./ups-layout.js";
import { layoutUspsLabel } from "./usps-layout.js";

type CarrierLayout = (layout: LabelLayout, request: LabelRequest) => void;

const CARRIER_LAYOUTS: Record<CarrierCode, CarrierLayout> = {
  usps: layoutUspsLabel,
  ups: layoutUpsLabel,
  fed_ex: layoutFedexLabel,
  dhl_ecommerce: layoutDhlEcommerceLabel,
  dhl_express: layoutDhlExpressLabel,
};

/** Hairline around a label printed on a sheet, to cut along. */
const CUT_LINE_IN = 0.01;

function translated(item: DrawingItem, dx: number, dy: number): DrawingItem {
  return dx === 0 && dy === 0 ? item : { ...item, x: item.x + dx, y: item.y + dy };
}

export function layoutLabel(request: LabelRequest, frame: LabelFrame): LabelDrawing {
  const layout = new LabelLayout(frame.area);
  const carrierLayout = CARRIER_LAYOUTS[request.carrierCode];
  if (!carrierLayout) throw new RangeError(`no label layout for carrier "${request.carrierCode}"`);
  carrierLayout(layout, request);
  addLabelContents(layout, request);
  const items = layout.items.map((item) => translated(item, frame.originXIn, frame.originYIn));
  if (frame.sheet) {
    const { widthIn, heightIn } = frame.area;
    const outline = CUT_LINE_IN;
    items.push({
      kind: "box",
      x: frame.originXIn - outline,
      y: frame.originYIn - outline,
      width: widthIn + 2 * outline,
      height: heightIn + 2 * outline,
      thickness: outline,
    });
  }
  return { widthIn: frame.pageWidthIn, heightIn: frame.pageHeightIn, items };
}
