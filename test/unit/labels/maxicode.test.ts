import bwipjs from "bwip-js";
import { describe, expect, it } from "vitest";
import { type MaxiCodeMode, maxiCodeDarkModules } from "../../../src/labels/barcodes/maxicode.js";
import { maxiCodeHeight } from "../../../src/labels/barcodes/maxicode-geometry.js";
import type { MaxiCodeMessage } from "../../../src/labels/drawing.js";
import { paintLabel } from "../../../src/labels/raster/raster-painter.js";
import { scanRaster } from "./label-tools.js";

const RS = "\x1e";
const GS = "\x1d";
const EOT = "\x04";
const HEADER = `[)>${RS}01${GS}96`;

/** bwip-js (BWIPP) as the reference encoder, called as matrix-symbol.ts used to call it. */
function reference(text: string, mode: MaxiCodeMode): number[] {
  return (bwipjs.raw({ bcid: "maxicode", text, mode } as bwipjs.RawOptions)[0] as unknown as { pixs: number[] }).pixs;
}

/** The text matrix-symbol.ts builds from a UPS MaxiCode message. */
function upsText(postalCode: string, country: string, serviceClass: string, fields: readonly string[]): string {
  return `${HEADER}${[postalCode, country, serviceClass, ...fields].join(GS)}${RS}${EOT}`;
}

/** Our symbol equals bwip-js's, or both refuse the text (ours with a RangeError). */
function expectSameAsBwip(text: string, mode: MaxiCodeMode): "encoded" | "refused" {
  let expected: number[];
  try {
    expected = reference(text, mode);
  } catch {
    expect(() => maxiCodeDarkModules(text, mode), JSON.stringify(text)).toThrow(RangeError);
    return "refused";
  }
  expect(maxiCodeDarkModules(text, mode), JSON.stringify(text)).toEqual(expected);
  return "encoded";
}

/** A small seeded generator (mulberry32), so every run checks the same messages. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";

function generator(seed: number) {
  const next = random(seed);
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[] | string) => items[int(items.length)] as T;
  const chars = (alphabet: string, length: number) => Array.from({ length }, () => pick<string>(alphabet)).join("");
  const words = (count: number) =>
    Array.from({ length: count }, () => chars(LETTERS, 1 + int(9))).join(
      pick([" ", " ", " ", "-", ". ", ", ", "/", " #"]),
    );
  return { next, int, pick, chars, words };
}

function upsMessage(g: ReturnType<typeof generator>): { text: string; mode: MaxiCodeMode; message: MaxiCodeMessage } {
  const mode: MaxiCodeMode = g.next() < 0.6 ? 2 : 3;
  const postalCode =
    mode === 2
      ? g.chars(DIGITS, g.next() < 0.5 ? 5 : 9)
      : g.pick([
          () =>
            `${g.chars(LETTERS, 1)}${g.chars(DIGITS, 1)}${g.chars(LETTERS, 1)}${g.chars(DIGITS, 1)}${g.chars(LETTERS, 1)}${g.chars(DIGITS, 1)}`,
          () =>
            `${g.chars(LETTERS, 2)}${g.chars(DIGITS, 1 + g.int(2))}${g.chars(DIGITS, 1)}${g.chars(LETTERS, 2)}`.slice(
              0,
              6,
            ),
          () => g.chars(DIGITS, 4 + g.int(2)),
        ])();
  const country = mode === 2 ? "840" : g.pick(["124", "826", "276", "250", "036", "000"]);
  const serviceClass = g.pick(["001", "002", "003", "007", "011", "012", "013", "014", "054", "059", "065", "096"]);
  const shipper = g.chars(LETTERS + DIGITS, 6);
  const tracking = `1Z${shipper}${g.chars(DIGITS, 2)}${g.chars(DIGITS, 8)}`;
  const count = 1 + g.int(12);
  const street = `${g.chars(DIGITS, 1 + g.int(5))} ${g.words(1 + g.int(4))}${g.next() < 0.3 ? ` APT ${g.chars(DIGITS, 1 + g.int(3))}` : ""}`;
  const fields = [
    tracking,
    "UPSN",
    shipper,
    g.chars(DIGITS, 3),
    "",
    `${1 + g.int(count)}/${count}`,
    String(1 + g.int(150)),
    "Y",
    street,
    g.words(1 + g.int(2)),
    g.chars(LETTERS, 2),
  ];
  const message = { mode, postalCode, countryCode: country, serviceClass, fields: fields.slice(0, 8 + g.int(4)) };
  return { text: upsText(postalCode, country, serviceClass, message.fields), mode, message };
}

/** ISO/IEC 16023 nominal width, as on the UPS label. */
const SYMBOL_WIDTH_IN = 1.11;
const DPI = 203;

/**
 * The message painted as a raster label paints it, then read by ZXing. Without an ECI the
 * decoder takes MaxiCode bytes as Latin-1, so text beyond ASCII (sent as UTF-8) reads byte by byte.
 */
async function readBack(message: MaxiCodeMessage): Promise<string[]> {
  const box = { x: 0.1, y: 0.1, width: SYMBOL_WIDTH_IN, height: maxiCodeHeight(SYMBOL_WIDTH_IN) };
  const item = { kind: "matrix-code", symbology: "maxicode", message, ...box, moduleWidth: box.width / 30 } as const;
  const page = await paintLabel({ widthIn: box.width + 0.2, heightIn: box.height + 0.2, items: [item] }, DPI);
  const symbols = await scanRaster(page, { box, dpi: DPI });
  return symbols.map((symbol) => `${symbol.symbology}: ${Buffer.from(symbol.text, "latin1").toString("utf8")}`);
}

/**
 * The text a scanner reads: the primary message's postal code comes back at its fixed width, a
 * mode 2 ZIP with zeros after it (ZIP5 + 0000, as UPS prints it), a mode 3 code with spaces.
 */
function asScanned(message: MaxiCodeMessage): string {
  const postalCode = message.mode === 2 ? message.postalCode.padEnd(9, "0") : message.postalCode.padEnd(6, " ");
  return `MaxiCode: ${upsText(postalCode, message.countryCode, message.serviceClass, message.fields)}`;
}

function encodes(text: string, mode: MaxiCodeMode): boolean {
  try {
    maxiCodeDarkModules(text, mode);
    return true;
  } catch {
    return false;
  }
}

describe("MaxiCode encoder", () => {
  it("encodes generated UPS messages exactly as bwip-js does", () => {
    const g = generator(20240611);
    const outcomes = { encoded: 0, refused: 0 };
    for (let i = 0; i < 600; i++) {
      const { text, mode } = upsMessage(g);
      outcomes[expectSameAsBwip(text, mode)]++;
    }
    expect(outcomes.encoded).toBeGreaterThan(400);
    expect(outcomes.refused).toBeGreaterThan(0);
  });

  it("encodes generated messages of any characters (code sets B–E, numeric runs) as bwip-js does", () => {
    const g = generator(7);
    const alphabets = [
      `${LETTERS}${DIGITS} -.,/#`,
      "abcdefghijklmnopqrstuvwxyz ABC 012 {}~;<=>?[]^_@!|`",
      DIGITS,
      `${DIGITS}A -`,
      Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join(""),
      Array.from({ length: 96 }, (_, i) => String.fromCharCode(160 + i)).join(""),
    ];
    for (let i = 0; i < 600; i++) {
      const alphabet = alphabets[i % alphabets.length] as string;
      const mode: MaxiCodeMode = i % 2 === 0 ? 2 : 3;
      const postalCode = mode === 2 ? g.chars(DIGITS, 1 + g.int(9)) : g.chars(`${LETTERS}${DIGITS} `, 1 + g.int(6));
      const text = `${g.next() < 0.8 ? HEADER : ""}${postalCode}${GS}${g.chars(DIGITS, 3)}${GS}${g.chars(DIGITS, 3)}${GS}${g.chars(alphabet, g.int(110))}`;
      expectSameAsBwip(text, mode);
    }
  });

  it("encodes hand-picked messages exactly as bwip-js does", () => {
    const fullStreet = "1234 NORTH EXTRAORDINARILY LONG BOULEVARD SUITE 500";
    // BWIPP's own example shipment, to a street of the test's choosing.
    const pittsburghShipment = (street: string) =>
      upsText("152382802", "840", "001", [
        "1Z00004951",
        "UPSN",
        "06X610",
        "159",
        "1234567",
        "1/1",
        "",
        "Y",
        street,
        "PITTSBURGH",
        "PA",
      ]);
    const cases: Array<[string, MaxiCodeMode]> = [
      // BWIPP's own example
      [pittsburghShipment("634 ALPHA DR"), 2],
      [upsText("15238", "840", "001", ["1Z00004951", "UPSN"]), 2],
      [upsText("15238", "840", "001", []), 2],
      [upsText("1", "840", "001", ["X"]), 2],
      [upsText("000000000", "840", "000", ["1Z999AA10123456784"]), 2],
      [upsText("999999999", "840", "999", ["1Z999AA10123456784", "UPSN", "999AA1", "365", "", "12/12", "150", "Y"]), 2],
      [upsText("12345", "124", "001", ["1Z999AA10123456784"]), 2],
      [
        upsText("K1A0B1", "124", "011", [
          "1Z4W2V990398765432",
          "UPSN",
          "4W2V99",
          "087",
          "",
          "1/1",
          "3",
          "Y",
          "24 SUSSEX DR",
          "OTTAWA",
          "ON",
        ]),
        3,
      ],
      [
        upsText("SW1A1A", "826", "065", [
          "1Z4W2V990398765432",
          "UPSN",
          "4W2V99",
          "200",
          "",
          "2/3",
          "10",
          "Y",
          "10 DOWNING ST.",
          "LONDON",
          "",
        ]),
        3,
      ],
      [upsText("M11AE", "826", "065", ["1Z4W2V990398765432"]), 3],
      [upsText("A", "250", "007", ["1Z4W2V990398765432"]), 3],
      [upsText("K1A 0B", "124", "011", ["#12-34, 5/6 RUE ST.-DENIS"]), 3],
      // Long numeric runs (numeric shift) and mixed case (code set B)
      [upsText("902101234", "840", "003", ["123456789012345678901234567", "Main Street", "suite #4"]), 2],
      // Latin-1 text reaches sets C and D as UTF-8, as bwip-js sends it
      [upsText("10115", "276", "011", ["MÜNCHENER STRAẞE", "KÖLN", "ÉÈÀ"]), 3],
      // A message that ends in set C or D latches back to A before padding
      [`${HEADER}12345${GS}840${GS}001${GS}ÀÁÂÃÄÅ`, 2],
      [`${HEADER}12345${GS}840${GS}001${GS}àáâãäå`, 2],
      [`12345${GS}840${GS}001${GS}NO HEADER`, 2],
      // Filling the secondary message, and one character too many
      [pittsburghShipment(fullStreet), 2],
      [upsText("152382802", "840", "001", ["A".repeat(69)]), 2],
      [upsText("152382802", "840", "001", ["A".repeat(70)]), 2],
      [upsText("152382802", "840", "001", ["a".repeat(60)]), 2],
    ];
    for (const [text, mode] of cases) expectSameAsBwip(text, mode);
  });

  it("refuses what bwip-js refuses, with a RangeError", () => {
    for (const [text, mode] of [
      [upsText("152382802", "840", "001", ["A".repeat(71)]), 2],
      [upsText("152382802", "840", "001", ["A".repeat(200)]), 2],
      [upsText("152382802", "840", "001", ["a".repeat(100)]), 2],
      [upsText("1234567890", "840", "001", ["X"]), 2],
      [upsText("1234A", "840", "001", ["X"]), 2],
      [upsText("K1A0B1X", "124", "001", ["X"]), 3],
      [upsText("k1a0b1", "124", "001", ["X"]), 3],
      [upsText("12345", "84", "001", ["X"]), 2],
      [upsText("12345", "840", "1", ["X"]), 2],
      [`${HEADER}12345${GS}840`, 2],
      [`12345${GS}840${GS}001${GS}`, 2],
      ["", 2],
    ] as Array<[string, MaxiCodeMode]>) {
      expect(() => reference(text, mode)).toThrow();
      expect(() => maxiCodeDarkModules(text, mode), JSON.stringify(text)).toThrow(RangeError);
    }
  });
});

describe("MaxiCode round trip (ZXing reads what the encoder wrote)", () => {
  it("generated UPS messages, mode 2 and 3", async () => {
    const g = generator(20240611);
    let checked = 0;
    const modes = new Set<MaxiCodeMode>();
    while (checked < 60) {
      const { text, mode, message } = upsMessage(g);
      if (!encodes(text, mode)) continue;
      expect(await readBack(message), JSON.stringify(text)).toEqual([asScanned(message)]);
      modes.add(mode);
      checked++;
    }
    expect([...modes].sort()).toEqual([2, 3]);
  });

  it("every code set: lower case, punctuation, long digit runs, Latin-1 and a full secondary message", async () => {
    const base = { mode: 2, postalCode: "152382802", countryCode: "840", serviceClass: "001" } as const;
    const messages: MaxiCodeMessage[] = [
      {
        ...base,
        fields: ["1Z00004951", "UPSN", "06X610", "159", "1234567", "1/1", "", "Y", "634 ALPHA DR", "PITTSBURGH", "PA"],
      },
      { ...base, fields: ["123456789012345678901234567", "Main Street", "suite #4"] },
      { ...base, fields: ["abc {}~;<=>?[]^_@!|`"] },
      { ...base, fields: ["A".repeat(69)] },
      {
        ...base,
        mode: 3,
        postalCode: "10115",
        countryCode: "276",
        serviceClass: "011",
        fields: ["MÜNCHENER STRAẞE", "KÖLN", "ÉÈÀ"],
      },
      {
        ...base,
        mode: 3,
        postalCode: "K1A0B1",
        countryCode: "124",
        serviceClass: "011",
        fields: ["24 SUSSEX DR", "OTTAWA", "ON"],
      },
    ];
    for (const message of messages) expect(await readBack(message)).toEqual([asScanned(message)]);
  });
});
