/** Reading rendered labels back: barcode decoding (zbarimg); PDF text, page size, fonts and pixels (poppler). */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";

const run = promisify(execFile);

async function withTempFile<T>(
  name: string,
  bytes: Buffer,
  use: (path: string, dir: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "porter-label-"));
  try {
    const path = join(dir, name);
    await writeFile(path, bytes);
    return await use(path, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** zbarimg --raw prints one symbol per line; GS (FNC1 separators) is dropped, as `420`+ZIP+PIC reads without it. */
async function decodeImage(path: string): Promise<string[]> {
  // Exit status 4 means "no symbol found": an empty list, not an error.
  const { stdout } = await run("zbarimg", ["--raw", "-q", path]).catch((error: { code?: number; stdout?: string }) => {
    if (error.code === 4) return { stdout: "" };
    throw error;
  });
  return stdout
    .split("\n")
    .map((line) => line.split("\x1d").join("").trim())
    .filter((line) => /^[0-9A-Z]+$/.test(line));
}

export function decodeRasterBarcodes(bytes: Buffer, extension: string): Promise<string[]> {
  return withTempFile(`label.${extension}`, bytes, (path) => decodeImage(path));
}

/** The PDF rasterised at 300 dpi with pdftoppm, then decoded. */
export function decodePdfBarcodes(pdf: Buffer): Promise<string[]> {
  return withTempFile("label.pdf", pdf, async (path, dir) => {
    await run("pdftoppm", ["-r", "300", "-png", "-singlefile", path, join(dir, "page")]);
    return decodeImage(join(dir, "page.png"));
  });
}

export function pdfText(pdf: Buffer): Promise<string> {
  return withTempFile("label.pdf", pdf, async (path) => (await run("pdftotext", ["-raw", path, "-"])).stdout);
}

/** pdfinfo's report and whatever poppler complained about while reading the file (empty for a sound one). */
export function pdfInfo(pdf: Buffer): Promise<{ info: string; warnings: string }> {
  return withTempFile("label.pdf", pdf, async (path) => {
    const { stdout, stderr } = await run("pdfinfo", [path]);
    return { info: stdout, warnings: stderr };
  });
}

/** pdffonts' table: name, type, encoding, embedded, … one font a line. */
export function pdfFonts(pdf: Buffer): Promise<string> {
  return withTempFile("label.pdf", pdf, async (path) => (await run("pdffonts", [path])).stdout);
}

/** The page rasterised by poppler: the grey (0 black … 255 white) at a point given in inches. */
export function pdfGreyAt(pdf: Buffer, dpi: number): Promise<(xIn: number, yIn: number) => number> {
  return withTempFile("label.pdf", pdf, async (path, dir) => {
    await run("pdftoppm", ["-r", String(dpi), "-gray", "-png", "-singlefile", path, join(dir, "page")]);
    const { data, info } = await sharp(join(dir, "page.png"))
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    return (xIn, yIn) => data[Math.round(yIn * dpi) * info.width + Math.round(xIn * dpi)] ?? 255;
  });
}

/** The first page's MediaBox in points. */
export function pdfMediaBox(pdf: Buffer): number[] {
  const match = /\/MediaBox\s*\[([^\]]+)\]/.exec(pdf.toString("latin1"));
  if (!match?.[1]) throw new Error("no MediaBox in the PDF");
  return match[1].trim().split(/\s+/).map(Number);
}
