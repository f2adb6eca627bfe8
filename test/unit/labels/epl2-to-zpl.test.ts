import { describe, expect, it } from "vitest";
import { eplToZpl } from "../../../src/labels/images/epl2-to-zpl.js";
import { labelPreviewPng } from "../../../src/labels/images/label-preview.js";
import { renderLabel } from "../../../src/labels/render-label.js";
import { sharp } from "../../../src/labels/sharp.js";
import { labelRequest, UPS_1Z } from "./label-requests.js";
import { scanImage } from "./label-tools.js";

/** Drawing a label takes seconds of CPU on a busy machine, loading the renderer more. */
const DRAWING_MS = 90_000;

const preview = (epl: Buffer | string, dpi = 203) =>
  labelPreviewPng({ bytes: Buffer.from(epl), format: "epl2", widthIn: 4, heightIn: 6, dpi });

describe("EPL2 drawn through ZPL", { timeout: DRAWING_MS }, () => {
  it("draws Porter's own UPS label: the tracking number and the postal code scan, the MaxiCode is ^BD", async () => {
    const epl = (await renderLabel(labelRequest("ups", { format: "epl2" }))).bytes;
    const zpl = eplToZpl(epl, 203);
    expect(zpl).toContain("^PW812\n^LL1218");
    expect(zpl).toMatch(/\^BD2,1,1\^FH\^FD001840940430000\[\)>/);
    const symbols = await scanImage(await preview(epl));
    expect(symbols).toContainEqual({ symbology: "Code 128", text: UPS_1Z });
    expect(symbols).toContainEqual({ symbology: "GS1-128", text: "42094043" });
  });

  it("draws Porter's FedEx PDF417 and USPS DataMatrix and GS1-128 so they scan", async () => {
    const fedex = (await renderLabel(labelRequest("fed_ex", { format: "epl2" }))).bytes;
    const fedexSymbols = (await scanImage(await preview(fedex))).map((symbol) => symbol.symbology);
    expect(fedexSymbols).toEqual(expect.arrayContaining(["Code 128", "PDF417"]));
    const usps = (await renderLabel(labelRequest("usps", { format: "epl2" }))).bytes;
    const uspsSymbols = await scanImage(await preview(usps));
    expect(uspsSymbols.map((symbol) => symbol.symbology)).toEqual(expect.arrayContaining(["DataMatrix", "GS1-128"]));
    expect(uspsSymbols.find((symbol) => symbol.symbology === "GS1-128")?.text).toMatch(/^42094043\d{22}$/);
  });

  it("draws a carrier's EPL2: setup commands skipped, turned bar codes, subsets, lines, boxes and a bitmap", async () => {
    // An 8 × 2 dot bitmap, 0 bits black: the first row black, the second white.
    const bitmap = Buffer.concat([
      Buffer.from("GW700,1100,1,2,", "latin1"),
      Buffer.from([0x00, 0xff]),
      Buffer.from("\n"),
    ]);
    const epl = Buffer.concat([
      Buffer.from(
        [
          "",
          "I8,A,001",
          "OD",
          "S4",
          "D10",
          "ZT",
          "N",
          "q812",
          "Q1218,24",
          'A40,40,0,4,2,2,N,"SHIP TO: JO \\"JJ\\" SMITH"',
          'A780,200,1,3,1,1,R,"ROUTE 12"',
          'B60,300,0,1C,3,6,120,B,"123456789012"',
          'B700,500,1,1,2,4,100,N,"1Z999AA10123456784"',
          'B60,500,0,3,2,5,80,B,"PORTER39"',
          'B60,700,0,2C,2,5,80,N,"1234567"',
          'B400,700,0,1B,2,4,60,N,"PO_123"',
          'B400,800,0,1B,2,4,60,N,"PO>3"',
          'b500,800,Q,m2,s4,eM,"https://example.com"',
          "LO20,20,772,4",
          "LE20,30,772,4",
          "LW20,30,100,4",
          "LS20,1000,3,200,900",
          "X20,1050,4,792,1198",
          "UN",
        ].join("\r\n"),
        "latin1",
      ),
      Buffer.from("\r\n"),
      bitmap,
      Buffer.from('P1\nN\nA0,0,0,1,1,1,N,"SECOND LABEL"\nP1\n'),
    ]);
    const zpl = eplToZpl(epl, 203);
    const expected = [
      '^FH^FDSHIP TO: JO "JJ" SMITH^FS', // escaped quotes
      "^BY3,2.0,120^BCN,120,Y,N,N,N^FH^FD>;123456789012^FS", // subset C, readable line
      "^FO600,500^BY2,2.0,100^BCR,100,N,N,N,A", // a quarter turn: the box left of the origin
      "^B3N,N,80,Y,N^FH^FDPORTER39",
      "^B2N,80,N,N,Y^FH^FD1234567", // with its check digit
      "^BCN,60,N,N,N,N^FH^FD>:PO_5F123^FS", // subset B, ^FH escapes
      "^BCN,60,N,N,N,A^FH^FDPO>3^FS", // `>` would start a code: automatic subsets
      "^BQN,2,4^FH^FDMA,https://example.com",
      "^FO20,30^FR^GB772,4,4^FS", // exclusive or
      "^FO20,30^GB100,4,4,W^FS", // white
      "^GD180,100,3,B,R^FS", // rising to the right
      "^FO20,1050^GB772,148,4^FS",
      "^FO700,1100^GFA,2,2,1,FF00^FS", // bits inverted: ZPL prints 1 bits
    ];
    for (const fragment of expected) expect(zpl).toContain(fragment);
    expect(zpl).not.toContain("SECOND LABEL");

    const png = await preview(epl);
    const symbols = await scanImage(png);
    expect(symbols).toContainEqual({ symbology: "Code 128", text: "123456789012" });
    expect(symbols).toContainEqual({ symbology: "Code 128", text: "1Z999AA10123456784" });
    expect(symbols).toContainEqual({ symbology: "Code 128", text: "PO_123" });
    expect(symbols).toContainEqual({ symbology: "Code 128", text: "PO>3" });
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const grey = (x: number, y: number) => data[y * info.width + x];
    expect([grey(703, 1100), grey(703, 1101)]).toEqual([0, 255]);
  });

  it("sizes resident fonts for the printer's resolution", () => {
    const text = 'N\nA10,10,0,2,1,1,N,"X"\nP1\n';
    expect(eplToZpl(Buffer.from(text), 203)).toContain("^A0N,16,");
    expect(eplToZpl(Buffer.from(text), 300)).toContain("^A0N,28,");
  });

  it("rejects what it cannot read, never drawing nonsense", async () => {
    for (const [epl, reason] of [
      ["not a label", /no EPL2 command/],
      ['N\nA10,10,0,2,1,1,N,"unterminated\nP1\n', /unterminated/],
      ['N\nB10,x,0,1,2,4,100,N,"123"\nP1\n', /whole number/],
      ['N\nA10,10,7,2,1,1,N,"X"\nP1\n', /rotation/],
      ["N\nGW10,10,4,100,\x00\x00\nP1\n", /GW bitmap/],
    ] as const) {
      await expect(preview(epl), epl).rejects.toThrow(reason);
    }
  });
});
