/**
 * Renders one parcel's label: the carrier layout is drawn once into device-independent items,
 * then converted to the requested format. Content types: PDF `application/pdf`; rasters
 * `image/png|jpeg|gif|tiff`; printer languages `application/zpl` and `application/epl2` (not
 * text/plain: EPL2 may carry binary graphics, and neither should be shown or re-encoded as text).
 */

import { LABEL_FILE_TYPES, type LabelRequest, type RenderedLabel } from "./label.js";
import { labelFrame } from "./label-frame.js";
import { layoutLabel } from "./layout/layout-label.js";
import { writePdf } from "./pdf/pdf-writer.js";
import { writeEpl } from "./printer/epl-writer.js";
import { PRINTER_DPI } from "./printer/printer-dots.js";
import { writeZpl } from "./printer/zpl-writer.js";
import { encodeRaster } from "./raster/raster-encoder.js";
import { paintLabel } from "./raster/raster-painter.js";

export const MIN_SCALE = 0.5;
export const MAX_SCALE = 2;
const PDF_POINTS_PER_INCH = 72;

/** label_scale applies to PDF and raster output; printer languages always print at true size. */
function outputScale(request: LabelRequest): number {
  if (request.format === "zpl" || request.format === "epl2") return 1;
  const scale = request.scale ?? 1;
  if (!(scale >= MIN_SCALE && scale <= MAX_SCALE)) {
    throw new RangeError(`label scale ${scale} is outside ${MIN_SCALE}–${MAX_SCALE}`);
  }
  return scale;
}

export async function renderLabel(request: LabelRequest): Promise<RenderedLabel> {
  const scale = outputScale(request);
  const frame = labelFrame(request.size);
  const drawing = layoutLabel(request, frame);
  const size = { widthIn: frame.pageWidthIn * scale, heightIn: frame.pageHeightIn * scale };
  const type = LABEL_FILE_TYPES[request.format];
  switch (request.format) {
    case "pdf":
      return { bytes: await writePdf(drawing, scale), ...type, ...size, dpi: PDF_POINTS_PER_INCH };
    case "zpl":
      return { bytes: await writeZpl(drawing), ...type, ...size, dpi: PRINTER_DPI };
    case "epl2":
      return { bytes: await writeEpl(drawing), ...type, ...size, dpi: PRINTER_DPI };
    default: {
      // A scaled raster keeps the printer's dpi in its metadata, so it prints scaled.
      const page = await paintLabel(drawing, frame.rasterDpi * scale);
      const bytes = await encodeRaster(page, request.format, frame.rasterDpi);
      return { bytes, ...type, ...size, dpi: frame.rasterDpi };
    }
  }
}
