/**
 * Decoding the streams a reader itself must understand: cross-reference streams and object
 * streams (PDF 32000-1 §7.4.4, §7.5.7–7.5.8). Writers deflate them, usually with a PNG predictor
 * on the cross-reference rows; page content and images are copied encoded and never pass here.
 */
import { constants, inflateSync } from "node:zlib";
import { dictOf, nameOf, numberOf, type PdfDict, type PdfValue } from "./pdf-syntax.js";

/** Far more than any label's or form's object streams hold: a stream inflating past it is a bomb, not a document. */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;

function listOf(value: PdfValue | undefined): (PdfValue | undefined)[] {
  if (value === undefined) return [];
  return value.kind === "array" ? value.items : [value];
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

/** Rows as PNG filters them: each row opens with its filter type (None, Sub, Up, Average, Paeth). */
function unfilterPng(data: Buffer, rowBytes: number, pixelBytes: number): Buffer {
  const rows = Math.floor(data.length / (rowBytes + 1));
  const out = Buffer.alloc(rows * rowBytes);
  for (let row = 0; row < rows; row++) {
    const type = data[row * (rowBytes + 1)];
    const from = row * (rowBytes + 1) + 1;
    const at = row * rowBytes;
    for (let i = 0; i < rowBytes; i++) {
      const raw = data[from + i] ?? 0;
      const left = i >= pixelBytes ? (out[at + i - pixelBytes] ?? 0) : 0;
      const up = row > 0 ? (out[at + i - rowBytes] ?? 0) : 0;
      const upLeft = row > 0 && i >= pixelBytes ? (out[at + i - rowBytes - pixelBytes] ?? 0) : 0;
      let predicted = 0;
      if (type === 1) predicted = left;
      else if (type === 2) predicted = up;
      else if (type === 3) predicted = (left + up) >> 1;
      else if (type === 4) predicted = paeth(left, up, upLeft);
      else if (type !== 0) throw new Error(`unknown PNG predictor row type ${type}`);
      out[at + i] = (raw + predicted) & 0xff;
    }
  }
  return out;
}

/** Bytes before prediction: `/Predictor` 2 (TIFF, 8-bit samples) or 10–15 (PNG). */
function unpredict(data: Buffer, parms: PdfDict | undefined): Buffer {
  const predictor = numberOf(parms?.entries.get("Predictor")) ?? 1;
  if (predictor === 1) return data;
  const colors = numberOf(parms?.entries.get("Colors")) ?? 1;
  const bits = numberOf(parms?.entries.get("BitsPerComponent")) ?? 8;
  const columns = numberOf(parms?.entries.get("Columns")) ?? 1;
  const pixelBytes = Math.max(1, Math.ceil((colors * bits) / 8));
  const rowBytes = Math.ceil((columns * colors * bits) / 8);
  if (predictor >= 10) return unfilterPng(data, rowBytes, pixelBytes);
  if (predictor !== 2 || bits !== 8) throw new Error(`unsupported predictor ${predictor} at ${bits} bits`);
  const out = Buffer.from(data);
  for (let row = 0; row + rowBytes <= out.length; row += rowBytes) {
    for (let i = pixelBytes; i < rowBytes; i++)
      out[row + i] = ((out[row + i] ?? 0) + (out[row + i - pixelBytes] ?? 0)) & 0xff;
  }
  return out;
}

/**
 * A stream's decoded bytes, `resolve` following indirect filter parameters. Deflated data cut
 * short still yields what it holds, as other readers allow.
 */
export function decodeStream(
  dict: PdfDict,
  data: Buffer,
  resolve: (value: PdfValue | undefined) => PdfValue | undefined,
): Buffer {
  const filters = listOf(resolve(dict.entries.get("Filter")));
  const parms = listOf(resolve(dict.entries.get("DecodeParms")));
  let decoded = data;
  filters.forEach((filter, index) => {
    const name = nameOf(resolve(filter));
    if (name !== "FlateDecode" && name !== "Fl") throw new Error(`cannot decode a ${name} stream`);
    const inflated = inflateSync(decoded, {
      finishFlush: constants.Z_SYNC_FLUSH,
      maxOutputLength: MAX_DECODED_BYTES,
    });
    decoded = unpredict(inflated, dictOf(resolve(parms[index])));
  });
  return decoded;
}
