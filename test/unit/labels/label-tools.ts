/**
 * Reading rendered labels and forms back as a scanner and a PDF reader would: barcodes with
 * ZXing-C++ (zxing-wasm), PDF pages, text, fonts and pixels with MuPDF (mupdf). Both are
 * WebAssembly loaded from node_modules, so these tests need nothing but Node.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { prepareZXingModule, type ReaderOptions, type ReadResult, readBarcodes } from "zxing-wasm/reader";

const wasm = readFileSync(createRequire(import.meta.url).resolve("zxing-wasm/reader/zxing_reader.wasm"));
// By default zxing-wasm fetches its .wasm from a CDN; the tests run offline.
prepareZXingModule({ overrides: { wasmBinary: new Uint8Array(wasm).buffer } });

/** The symbologies our labels print; scanning for no others keeps text and rules from reading as barcodes. */
const LABEL_SYMBOLOGIES: ReaderOptions["formats"] = ["Code128", "DataMatrix", "PDF417", "MaxiCode"];
/** Quiet zone left around a symbol cropped out of a page, in inches. */
const CROP_MARGIN_IN = 0.05;

/** An 8-bit grey picture, 0 black … 255 white, row by row. */
export interface GreyRaster {
  pixels: Uint8Array;
  width: number;
  height: number;
}

/** A rectangle on the label in inches from its top-left corner. */
export interface InchBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScannedSymbol {
  /** `Code 128`, `GS1-128` (Code 128 opening with FNC1), `DataMatrix`, `PDF417` or `MaxiCode`. */
  symbology: string;
  /** The data as encoded: GS (FNC1) between GS1 elements, RS/GS/EOT in structured carrier messages. */
  text: string;
}

function symbologyOf(result: ReadResult): string {
  if (result.format !== "Code128") return result.format;
  return result.symbologyIdentifier === "]C1" ? "GS1-128" : "Code 128";
}

function crop(raster: GreyRaster, box: InchBox, dpi: number): GreyRaster {
  const left = Math.max(0, Math.floor((box.x - CROP_MARGIN_IN) * dpi));
  const top = Math.max(0, Math.floor((box.y - CROP_MARGIN_IN) * dpi));
  const right = Math.min(raster.width, Math.ceil((box.x + box.width + CROP_MARGIN_IN) * dpi));
  const bottom = Math.min(raster.height, Math.ceil((box.y + box.height + CROP_MARGIN_IN) * dpi));
  const width = right - left;
  const pixels = new Uint8Array(width * (bottom - top));
  for (let y = top; y < bottom; y++) {
    pixels.set(raster.pixels.subarray(y * raster.width + left, y * raster.width + right), (y - top) * width);
  }
  return { pixels, width, height: bottom - top };
}

/**
 * Every symbol ZXing finds, sorted by symbology and text. ZXing finds a MaxiCode only when the
 * picture is little more than the symbol, so name its box (`within`) to scan one.
 */
export async function scanRaster(raster: GreyRaster, within?: { box: InchBox; dpi: number }): Promise<ScannedSymbol[]> {
  const { pixels, width, height } = within ? crop(raster, within.box, within.dpi) : raster;
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const grey = pixels[i] ?? 255;
    rgba.set([grey, grey, grey, 255], i * 4);
  }
  const results = await readBarcodes(
    { data: rgba, width, height, colorSpace: "srgb" },
    {
      formats: LABEL_SYMBOLOGIES,
      textMode: "Plain",
    },
  );
  return results
    .map((result) => ({ symbology: symbologyOf(result), text: result.text }))
    .sort((a, b) => a.symbology.localeCompare(b.symbology) || a.text.localeCompare(b.text));
}

/** A PNG, JPEG, GIF or TIFF as grey on white, with the resolution it declares. */
export async function greyImage(bytes: Buffer): Promise<GreyRaster & { dpi: number | undefined }> {
  const image = sharp(bytes);
  const { density } = await image.metadata();
  const { data, info } = await image
    .flatten({ background: "#ffffff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: new Uint8Array(data), width: info.width, height: info.height, dpi: density };
}

/** The symbols in a raster label; `within` is a symbol's box on the label (see `scanRaster`). */
export async function scanImage(bytes: Buffer, within?: InchBox): Promise<ScannedSymbol[]> {
  const raster = await greyImage(bytes);
  if (!within) return scanRaster(raster);
  if (!raster.dpi) throw new Error("the image declares no resolution to place the box by");
  return scanRaster(raster, { box: within, dpi: raster.dpi });
}

function openPdf(pdf: Buffer): mupdf.Document {
  return mupdf.Document.openDocument(pdf, "application/pdf");
}

/**
 * The file saved again by MuPDF as another writer would: `compress,objstms` packs the objects in
 * object streams behind a cross-reference stream (PDF 1.5), `compress` keeps a table but writes
 * MuPDF's compact syntax.
 */
export function resavePdf(pdf: Buffer, options: string): Buffer {
  const document = openPdf(pdf).asPDF();
  if (!document) throw new Error("MuPDF did not open the file as a PDF");
  return Buffer.from(document.saveToBuffer(options).asUint8Array());
}

/** A page drawn by MuPDF in grey, as a printer would put it on paper. */
export function rasterisePdf(pdf: Buffer, dpi: number, pageIndex = 0): GreyRaster {
  const page = openPdf(pdf).loadPage(pageIndex);
  const pixmap = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
  const [width, height, stride] = [pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride()];
  const samples = pixmap.getPixels();
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) pixels.set(samples.subarray(y * stride, y * stride + width), y * width);
  return { pixels, width, height };
}

/** The first page drawn at 300 dpi, then scanned; `within` is a symbol's box (see `scanRaster`). */
export function scanPdf(pdf: Buffer, within?: InchBox): Promise<ScannedSymbol[]> {
  const dpi = 300;
  return scanRaster(rasterisePdf(pdf, dpi), within && { box: within, dpi });
}

/** The first page drawn in grey: the grey (0 black … 255 white) at a point given in inches. */
export function pdfGreyAt(pdf: Buffer, dpi: number): (xIn: number, yIn: number) => number {
  const { pixels, width } = rasterisePdf(pdf, dpi);
  return (xIn, yIn) => pixels[Math.round(yIn * dpi) * width + Math.round(xIn * dpi)] ?? 255;
}

export interface PdfFont {
  /** BaseFont, e.g. `Helvetica-Bold`. */
  name: string;
  /** `Type1`, `TrueType`, … */
  subtype: string;
  /** The encoding's name (`WinAnsiEncoding`), or null when the font keeps its own. */
  encoding: string | null;
  embedded: boolean;
}

export interface PdfReading {
  pageCount: number;
  /** Each page's [width, height] in points. */
  pageSizes: Array<[number, number]>;
  title: string | undefined;
  /** Every page's text as a reader would copy it, pages separated by a form feed. */
  text: string;
  /** The fonts the pages use, each once. */
  fonts: PdfFont[];
  /** What MuPDF complained about while reading, drawing and extracting the file: none for a sound one. */
  warnings: string[];
}

function pageFonts(page: mupdf.PDFPage): PdfFont[] {
  const fonts: PdfFont[] = [];
  page
    .getObject()
    .getInheritable("Resources")
    .get("Font")
    .forEach((reference) => {
      const font = reference.resolve();
      const encoding = font.get("Encoding");
      // A Type 0 font keeps its descriptor (and so its font file) on its descendant CIDFont.
      const descendant = font.get("DescendantFonts");
      const descriptor = (descendant.isArray() ? descendant.get(0).resolve() : font).get("FontDescriptor");
      fonts.push({
        name: font.get("BaseFont").asName(),
        subtype: font.get("Subtype").asName(),
        encoding: encoding.isName() ? encoding.asName() : null,
        // Standard 14 fonts have no descriptor; a descriptor without a font file names a font too.
        embedded:
          !descriptor.isNull() && ["FontFile", "FontFile2", "FontFile3"].some((key) => !descriptor.get(key).isNull()),
      });
    });
  return fonts;
}

export function readPdf(pdf: Buffer): PdfReading {
  const warnings: string[] = [];
  mupdf.setLog({ warning: (message) => warnings.push(message), error: (message) => warnings.push(message) });
  try {
    const document = openPdf(pdf);
    const pages = Array.from({ length: document.countPages() }, (_, index) => document.loadPage(index));
    const fonts = new Map<string, PdfFont>();
    for (const page of pages) {
      page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, false);
      if (page instanceof mupdf.PDFPage) for (const font of pageFonts(page)) fonts.set(JSON.stringify(font), font);
    }
    return {
      pageCount: pages.length,
      pageSizes: pages.map((page) => {
        const [x0, y0, x1, y1] = page.getBounds();
        return [x1 - x0, y1 - y0];
      }),
      title: document.getMetaData(mupdf.Document.META_INFO_TITLE),
      text: pages.map((page) => page.toStructuredText("preserve-whitespace").asText()).join("\f"),
      fonts: [...fonts.values()],
      warnings,
    };
  } finally {
    mupdf.setLog(null);
  }
}

/** The first page's MediaBox in points, as written in the file. */
export function pdfMediaBox(pdf: Buffer): number[] {
  const match = /\/MediaBox\s*\[([^\]]+)\]/.exec(pdf.toString("latin1"));
  if (!match?.[1]) throw new Error("no MediaBox in the PDF");
  return match[1].trim().split(/\s+/).map(Number);
}
