import bwipjs from "bwip-js";
import { describe, expect, it } from "vitest";
import { code128Widths, gs1128Widths } from "../../../src/labels/barcodes/code128.js";

/** bwip-js (BWIPP) as the reference encoder. */
function reference(text: string, parsefnc = false): number[] {
  return (bwipjs.raw({ bcid: "code128", text, parsefnc } as bwipjs.RawOptions)[0] as unknown as { sbs: number[] }).sbs;
}
const modules = (widths: readonly number[]) => widths.reduce((sum, width) => sum + width, 0);

describe("Code 128 encoder", () => {
  it("encodes tracking numbers exactly as BWIPP does", () => {
    for (const data of [
      "1Z999AA10123456784",
      "1Z4W2V990398765432",
      "9400111899223197428490",
      "794612345678",
      "JD014600003828291234",
      "GM295212345678901234",
      "00123456789012345678",
      "ABC",
      "HELLO world 42",
      "0000",
      "1",
      "12",
    ]) {
      expect(code128Widths(data), data).toEqual(reference(data));
    }
  });

  it("encodes GS1-128 (FNC1, 420 + ZIP, then the IMpb) exactly as BWIPP does", () => {
    for (const elements of [
      ["42084111", "9400111899223197428490"],
      ["420841111234", "9205590100000000000017"],
      ["42094105", "92055901755477000000000017"],
    ]) {
      expect(gs1128Widths(elements), elements.join(" ")).toEqual(
        reference(elements.map((e) => `^FNC1${e}`).join(""), true),
      );
    }
  });

  it("is as short as BWIPP's symbol, control characters and mixed sets included", () => {
    for (const data of [
      "123",
      "A1234B",
      "a00b0000c",
      "x\u0001y",
      "\u0001\u0002abc",
      "ab\tcd1234567",
      "~!@#$%^&*()_+",
    ]) {
      const ours = code128Widths(data);
      expect(modules(ours), JSON.stringify(data)).toBe(modules(reference(data)));
      // Start bar first, stop pattern (2331112) last, 11 modules per symbol in between.
      expect(ours.slice(-7)).toEqual([2, 3, 3, 1, 1, 1, 2]);
      expect((modules(ours) - 13) % 11).toBe(0);
    }
  });

  it("refuses characters Code 128 cannot carry", () => {
    expect(() => code128Widths("café")).toThrow(RangeError);
  });
});
