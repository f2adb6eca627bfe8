import { describe, expect, it } from "vitest";
import { asciiText, printableText } from "../../../src/labels/text/label-text.js";
import { fitText, textWidthIn, wrapText } from "../../../src/labels/text/text-metrics.js";

describe("label text", () => {
  it("keeps Latin-1 and WinAnsi punctuation, strips accents outside them, replaces the rest", () => {
    expect(printableText("Zoë – Straße 5")).toBe("Zoë – Straße 5");
    expect(printableText("Łódź\tPL")).toBe("Lódz PL");
    expect(printableText("東京")).toBe("??");
  });

  it("falls back to ASCII for EPL2", () => {
    expect(asciiText("Zoë – “Straße”")).toBe('Zoe - "Stra?e"');
  });
});

describe("text metrics (Helvetica)", () => {
  it("measures with the AFM widths: 'H' is 0.722 em, bold 'W' 0.944 em", () => {
    expect(textWidthIn("H", 72, "regular")).toBeCloseTo(0.722);
    expect(textWidthIn("W", 72, "bold")).toBeCloseTo(0.944);
  });

  it("shrinks text down to the minimum size, then cuts it short", () => {
    expect(fitText("SHORT", 4, 10, 6, "bold")).toEqual({ text: "SHORT", sizePt: 10 });
    const shrunk = fitText("A LONGER LINE OF TEXT", 1.2, 12, 6, "bold");
    expect(shrunk.sizePt).toBeLessThan(12);
    expect(textWidthIn(shrunk.text, shrunk.sizePt, "bold")).toBeLessThanOrEqual(1.2);
    const cut = fitText("A VERY MUCH LONGER LINE OF TEXT THAT CANNOT FIT", 0.5, 12, 6, "bold");
    expect(cut.sizePt).toBe(6);
    expect(textWidthIn(cut.text, 6, "bold")).toBeLessThanOrEqual(0.5);
  });

  it("wraps at spaces", () => {
    expect(wrapText("TEST LABEL – NOT VALID FOR POSTAGE", 1.5, 8, "bold")).toEqual([
      "TEST LABEL – NOT VALID",
      "FOR POSTAGE",
    ]);
  });
});
