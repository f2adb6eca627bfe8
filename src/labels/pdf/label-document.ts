/**
 * A one-page PDF around a page's content: catalog, page tree, the page with its resources, the
 * label font embedded with the glyphs the page shows, and the document information.
 */
import type { FontWeight } from "../drawing.js";
import { embedFont } from "./embedded-font.js";
import { FONT_RESOURCES, num, type PageContent, type XObject } from "./page-content.js";
import { PdfFile, ref } from "./pdf-file.js";

const INFO = "<< /Title (Shipping label) /Producer (Porter) /Creator (Porter) >>";

/** A page's resource dictionary from its font and XObject entries (`/F1 3 0 R` …). */
export function pageResources(fonts: readonly string[], xobjects: readonly string[]): string {
  return `<< /ProcSet [/PDF /Text /ImageB /ImageC] /Font << ${fonts.join(" ")} >> /XObject << ${xobjects.join(" ")} >> >>`;
}

function addXObject(file: PdfFile, xobject: XObject): number {
  if (!xobject.softMask) return file.addStream(xobject);
  const softMask = file.addStream(xobject.softMask);
  return file.addStream({ entries: `${xobject.entries} /SMask ${ref(softMask)}`, data: xobject.data });
}

/** The file of one page `widthPt` × `heightPt` points. */
export function labelDocument(widthPt: number, heightPt: number, content: PageContent): Buffer {
  const file = new PdfFile();
  const catalog = file.reserve();
  const pages = file.reserve();
  const fonts = (Object.keys(FONT_RESOURCES) as FontWeight[])
    .filter((weight) => content.glyphsUsed[weight].size > 0)
    .map(
      (weight) => `/${FONT_RESOURCES[weight]} ${ref(file.add(embedFont(file, weight, content.glyphsUsed[weight])))}`,
    );
  const xobjects = [...content.xobjects].map(([xobject, name]) => `/${name} ${ref(addXObject(file, xobject))}`);
  const resources = pageResources(fonts, xobjects);
  const page = file.add(
    `<< /Type /Page /Parent ${ref(pages)} /MediaBox [0 0 ${num(widthPt)} ${num(heightPt)}] ` +
      `/Resources ${resources} /Contents ${ref(file.addStream(content.toStream()))} >>`,
  );
  file.define(pages, `<< /Type /Pages /Kids [${ref(page)}] /Count 1 >>`);
  file.define(catalog, `<< /Type /Catalog /Pages ${ref(pages)} >>`);
  return file.toBuffer(catalog, file.add(INFO));
}
