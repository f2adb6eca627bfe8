/** Reading rendered labels back: barcode decoding (zbarimg), PDF text and page size (poppler). */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

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

/** The first page's MediaBox in points. */
export function pdfMediaBox(pdf: Buffer): number[] {
  const match = /\/MediaBox\s*\[([^\]]+)\]/.exec(pdf.toString("latin1"));
  if (!match?.[1]) throw new Error("no MediaBox in the PDF");
  return match[1].trim().split(/\s+/).map(Number);
}
