/**
 * The hand-written replacements of libraries on Porter's hot paths, each timed against the library
 * it replaces, in the benchmark process (no server): the PDF writer (pdfkit) and reader (MuPDF),
 * Code 128 and MaxiCode (bwip-js), the log destination (pino's, sonic-boom), the access log (a pino
 * logger's line), the latency histogram (prom-client's histogram, and Node's `createHistogram`).
 * Ours and the library alternate in rounds; each figure is the median of the rounds.
 * Porter's parts are the built ones (dist/), as a server runs them: under tsx every closure made
 * in a hot function is also named at run time, which made Code 128 ten times slower than built.
 * `npm run bench -- libraries`, or alone after `npm run build`:
 * `node --import tsx scripts/bench-libraries.ts`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHistogram } from "node:perf_hooks";
import bwipjs from "bwip-js";
import * as mupdf from "mupdf";
import PDFDocument from "pdfkit";
import pino from "pino";
import { Histogram, Registry } from "prom-client";
import type { LabelDrawing } from "../src/labels/drawing.js";
import { labelRequest, UPS_1Z } from "../test/unit/labels/label-requests.js";

/** A module of Porter as built into dist/, typed by its source. */
const built = <T>(module: string): Promise<T> =>
  import(new URL(`../dist/${module}`, import.meta.url).href) as Promise<T>;
const { accessLogWriter } = await built<typeof import("../src/http/access-log.js")>("http/access-log.js");
const { LatencyHistogram } =
  await built<typeof import("../src/http/latency-histogram.js")>("http/latency-histogram.js");
const { LogDestination } = await built<typeof import("../src/http/log-destination.js")>("http/log-destination.js");
const { code128Widths } = await built<typeof import("../src/labels/barcodes/code128.js")>("labels/barcodes/code128.js");
const { placeBars } = await built<typeof import("../src/labels/barcodes/linear-symbol.js")>(
  "labels/barcodes/linear-symbol.js",
);
const { maxiCodeDarkModules } =
  await built<typeof import("../src/labels/barcodes/maxicode.js")>("labels/barcodes/maxicode.js");
const { hexagonCorners, maxiCodeGeometry } = await built<typeof import("../src/labels/barcodes/maxicode-geometry.js")>(
  "labels/barcodes/maxicode-geometry.js",
);
const { darkRuns, matrixSymbol, placeGrid } = await built<typeof import("../src/labels/barcodes/matrix-symbol.js")>(
  "labels/barcodes/matrix-symbol.js",
);
const { labelFrame } = await built<typeof import("../src/labels/label-frame.js")>("labels/label-frame.js");
const { layoutLabel } = await built<typeof import("../src/labels/layout/layout-label.js")>(
  "labels/layout/layout-label.js",
);
const { readPages } = await built<typeof import("../src/labels/pdf/pdf-reader.js")>("labels/pdf/pdf-reader.js");
const { writePdf } = await built<typeof import("../src/labels/pdf/pdf-writer.js")>("labels/pdf/pdf-writer.js");

/** Milliseconds each side runs per round. */
const ROUND_MS = Number(process.env.BENCH_LIBRARY_ROUND_MS ?? 200);
const ROUNDS = 5;

export interface LibraryRow {
  part: string;
  library: string;
  oursUs: number;
  libraryUs: number;
  /** The library's time over ours: how many times faster ours is. */
  speedup: number;
}

/**
 * CPU µs per call of `run` over one round of about ROUND_MS: CPU time, because other work on a
 * shared machine stretches wall time. A promise is awaited; a plain value is not (a wait per call
 * would cost more than the smallest parts measured).
 */
async function timeRound(run: () => unknown): Promise<number> {
  let calls = 0;
  const cpu = process.cpuUsage();
  const deadline = process.hrtime.bigint() + BigInt(ROUND_MS) * 1_000_000n;
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 10; i++) {
      const result = run();
      if (result instanceof Promise) await result;
    }
    calls += 10;
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / calls;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function compare(part: string, library: string, ours: () => unknown, theirs: () => unknown): Promise<LibraryRow> {
  // One warm-up round each, so both are compiled before they are timed.
  await timeRound(ours);
  await timeRound(theirs);
  const oursUs: number[] = [];
  const libraryUs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    oursUs.push(await timeRound(ours));
    libraryUs.push(await timeRound(theirs));
  }
  const row = { part, library, oursUs: median(oursUs), libraryUs: median(libraryUs), speedup: 0 };
  row.speedup = median(libraryUs.map((us, round) => us / oursUs[round]!));
  return row;
}

const FONT_FILES = {
  regular: "node_modules/@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf",
  bold: "node_modules/@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf",
};

/**
 * The same drawing through pdfkit: the same font embedded (pdfkit subsets it with fontkit), the
 * same symbols (encoded once per item by the same code), so only the PDF writing differs.
 */
function pdfkitLabel(drawing: LabelDrawing): Promise<Buffer> {
  const pt = (inches: number) => inches * 72;
  const doc = new PDFDocument({ size: [pt(drawing.widthIn), pt(drawing.heightIn)], margin: 0, compress: true });
  doc.registerFont("regular", FONT_FILES.regular);
  doc.registerFont("bold", FONT_FILES.bold);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  for (const item of drawing.items) {
    switch (item.kind) {
      case "text":
        if (item.reverse) doc.rect(pt(item.x), pt(item.y), pt(item.width), pt(item.lineHeight) * item.lines.length);
        doc
          .font(item.weight)
          .fontSize(item.sizePt)
          .fillColor(item.reverse ? "white" : "black");
        item.lines.forEach((line, index) => {
          doc.text(line, pt(item.x), pt(item.y + index * item.lineHeight), {
            width: pt(item.width),
            align: item.align,
            lineBreak: false,
          });
        });
        break;
      case "rect":
        doc.rect(pt(item.x), pt(item.y), pt(item.width), pt(item.height)).fill("black");
        break;
      case "box":
        doc
          .lineWidth(pt(item.thickness))
          .rect(
            pt(item.x + item.thickness / 2),
            pt(item.y + item.thickness / 2),
            pt(item.width - item.thickness),
            pt(item.height - item.thickness),
          )
          .stroke("black");
        break;
      case "linear-barcode":
        for (const [left, width] of placeBars(item, 72).bars) doc.rect(left, pt(item.y), width, pt(item.height));
        doc.fill("black");
        break;
      case "matrix-code": {
        const symbol = matrixSymbol(item);
        if (symbol.kind === "maxicode") {
          const geometry = maxiCodeGeometry(symbol, pt(item.width));
          for (const [x, y] of geometry.centres) {
            doc.polygon(
              ...hexagonCorners(pt(item.x) + x, pt(item.y) + y, geometry.hexagonRadius).map(
                ([cx, cy]) => [cx, cy] as [number, number],
              ),
            );
          }
          for (const [, outer] of geometry.rings) {
            doc.circle(pt(item.x) + geometry.finderX, pt(item.y) + geometry.finderY, outer);
          }
        } else {
          const placed = placeGrid(item, symbol, 72);
          for (const [column, row, length] of darkRuns(symbol)) {
            doc.rect(
              placed.x + column * placed.moduleWidth,
              placed.y + row * placed.moduleHeight,
              length * placed.moduleWidth,
              placed.moduleHeight,
            );
          }
        }
        doc.fill("black");
        break;
      }
      default:
        break;
    }
  }
  doc.end();
  return done;
}

/** What `readPages` reads, through MuPDF: every page and every object it reaches, streams raw. */
function mupdfPages(pdf: Buffer): number {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf") as mupdf.PDFDocument;
  const seen = new Set<number>();
  let bytes = 0;
  const visit = (object: mupdf.PDFObject) => {
    if (object.isIndirect()) {
      const number = object.asIndirect();
      if (seen.has(number)) return;
      seen.add(number);
    }
    const resolved = object.resolve();
    if (resolved.isStream()) bytes += resolved.readRawStream().getLength();
    if (resolved.isDictionary()) {
      resolved.forEach((value, key) => {
        if (key !== "Parent") visit(value);
      });
    } else if (resolved.isArray()) {
      resolved.forEach((value) => {
        visit(value);
      });
    }
  };
  for (let page = 0; page < doc.countPages(); page++) visit(doc.findPage(page));
  doc.destroy();
  return bytes;
}

const RS = "\x1e";
const GS = "\x1d";
const EOT = "\x04";
/** A UPS MaxiCode message as matrix-symbol.ts builds it. */
const UPS_MAXICODE = `[)>${RS}01${GS}96${["841706672", "840", "001", UPS_1Z.slice(0, 10), "UPSN", "999AA1", "330", "", "1/1", "3", "N", "", "SALT LAKE CITY", "UT"].join(GS)}${RS}${EOT}`;

async function measurePdf(): Promise<LibraryRow[]> {
  const drawing = layoutLabel(labelRequest("ups", { format: "pdf" }), labelFrame("4x6"));
  const pdf = await writePdf(drawing, 1);
  return [
    await compare(
      "PDF writer (UPS 4×6 label)",
      "pdfkit",
      () => writePdf(drawing, 1),
      () => pdfkitLabel(drawing),
    ),
    await compare(
      "PDF reader (the same label's pages and objects)",
      "MuPDF (mupdf)",
      () => readPages(pdf),
      () => mupdfPages(pdf),
    ),
  ];
}

async function measureBarcodes(): Promise<LibraryRow[]> {
  return [
    await compare(
      "Code 128 (a UPS 1Z number)",
      "bwip-js",
      () => code128Widths(UPS_1Z),
      () => bwipjs.raw({ bcid: "code128", text: UPS_1Z } as bwipjs.RawOptions),
    ),
    await compare(
      "MaxiCode (a UPS mode 2 message)",
      "bwip-js",
      () => maxiCodeDarkModules(UPS_MAXICODE, 2),
      () => bwipjs.raw({ bcid: "maxicode", text: UPS_MAXICODE, mode: 2 } as bwipjs.RawOptions),
    ),
  ];
}

const ENTRY = {
  reqId: "0f8b6f62-4c2a-4d47-9d0c-2f6f3c1a9e55",
  method: "GET",
  url: "/api/v2/test/ping",
  route: "/api/v2/test/ping",
  status: 200,
  ms: 0.42,
  account: 1,
};

async function measureLogging(): Promise<LibraryRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "porter-bench-logs-"));
  const open = (name: string) => fs.openSync(path.join(dir, name), "w");
  // Both write the same 64 KiB chunks to a file of their own; the files are emptied between rounds.
  const ours = new LogDestination(open("ours.log"));
  const sonic = pino.destination({ dest: open("pino.log"), minLength: 64 * 1024, maxWrite: 128 * 1024, sync: true });
  const line = `{"level":30,"time":${Date.now()},"pid":1,"hostname":"porter","reqId":"${ENTRY.reqId}","msg":"request"}\n`;
  const rows = [
    await compare(
      "log destination (one 120-byte line)",
      "pino.destination (sonic-boom)",
      () => ours.write(line),
      () => sonic.write(line),
    ),
  ];
  const accessLog = accessLogWriter(new LogDestination(open("access.log")));
  const logger = pino(
    { base: { pid: process.pid, hostname: os.hostname() } },
    pino.destination({ dest: open("pino-access.log"), minLength: 64 * 1024, maxWrite: 128 * 1024, sync: true }),
  );
  rows.push(
    await compare(
      "access log (one request's line)",
      "pino logger",
      () => accessLog(ENTRY),
      () =>
        logger.info(
          {
            reqId: ENTRY.reqId,
            method: ENTRY.method,
            url: ENTRY.url,
            route: ENTRY.route,
            status: ENTRY.status,
            ms: ENTRY.ms,
            account: ENTRY.account,
          },
          "request",
        ),
    ),
  );
  fs.rmSync(dir, { recursive: true, force: true });
  return rows;
}

async function measureHistogram(): Promise<LibraryRow[]> {
  const ours = new LatencyHistogram("porter_bench_seconds", "bench");
  const labels = { method: "GET", route: "/api/v2/test/ping", status_code: "200" };
  const promClient = new Histogram({
    name: "porter_bench_prom_seconds",
    help: "bench",
    labelNames: ["method", "route", "status_code"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [new Registry()],
  });
  const node = createHistogram();
  let seconds = 0.0004;
  const next = () => {
    seconds = seconds > 0.05 ? 0.0004 : seconds * 1.01;
    return seconds;
  };
  // As the server does: the route's series found by a key, then one observation.
  const observe = () => ours.series("GET /api/v2/test/ping 200", labels).observe(next());
  return [
    await compare("latency histogram (one observation)", "prom-client Histogram", observe, () =>
      promClient.observe(labels, next()),
    ),
    await compare("latency histogram (one observation)", "perf_hooks.createHistogram", observe, () =>
      node.record(Math.round(next() * 1e9)),
    ),
  ];
}

export async function measureLibraries(): Promise<LibraryRow[]> {
  return [
    ...(await measurePdf()),
    ...(await measureBarcodes()),
    ...(await measureLogging()),
    ...(await measureHistogram()),
  ];
}

export function libraryTable(rows: readonly LibraryRow[]): string {
  const lines = [
    `Hand-written parts against the libraries they replace (${ROUNDS} alternating rounds of ${ROUND_MS} ms each; goal: ours at least 2× faster, else back to the library):`,
    "",
    "| part | library | ours µs | library µs | × faster | goal (≥ 2×) |",
    "|---|---|---|---|---|---|",
  ];
  const us = (value: number) => (value < 10 ? value.toFixed(3) : value.toFixed(1));
  for (const row of rows) {
    lines.push(
      `| ${row.part} | ${row.library} | ${us(row.oursUs)} | ${us(row.libraryUs)} | ${row.speedup.toFixed(2)} | ${row.speedup >= 2 ? "met" : "not met"} |`,
    );
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(libraryTable(await measureLibraries()));
