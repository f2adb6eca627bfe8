/**
 * ZPL drawn by Zebrash (compiled to WebAssembly, the `zpl-renderer-js` package) in a worker
 * thread: one label takes a second or more of CPU, which on the server's own thread would stall
 * every other request. One worker, started with the first label and not keeping the process
 * alive, draws one label at a time; a worker that dies fails what it was drawing and the next
 * label starts a new one.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** Plain CommonJS, evaluated as the worker: no file of Porter's to find in source and in a build. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const api = require(workerData.module).ready.then((loaded) => loaded.api);
parentPort.on("message", async ({ id, zpl, widthMm, heightMm, dpmm }) => {
  try {
    const png = await (await api).zplToBase64Async(zpl, widthMm, heightMm, dpmm);
    parentPort.postMessage({ id, png });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
});
`;

interface Answer {
  id: number;
  png?: string;
  error?: string;
}

interface Caller {
  resolve: (png: Buffer) => void;
  reject: (error: Error) => void;
}

/** The live worker and the labels it was handed and has not answered. */
let renderer: { worker: Worker; waiting: Map<number, Caller> } | undefined;
let nextId = 1;

function started(): NonNullable<typeof renderer> {
  if (renderer) return renderer;
  const module = createRequire(import.meta.url).resolve("zpl-renderer-js");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module } });
  worker.unref();
  const waiting = new Map<number, Caller>();
  worker.on("message", ({ id, png, error }: Answer) => {
    const caller = waiting.get(id);
    waiting.delete(id);
    if (png !== undefined) caller?.resolve(Buffer.from(png, "base64"));
    else caller?.reject(new Error(`The ZPL could not be drawn: ${error}`));
  });
  const died = (error: Error) => {
    if (renderer?.worker === worker) renderer = undefined;
    for (const caller of waiting.values()) caller.reject(error);
    waiting.clear();
  };
  worker.on("error", died);
  worker.on("exit", (code) => died(new Error(`The ZPL renderer stopped (exit code ${code}).`)));
  renderer = { worker, waiting };
  return renderer;
}

/** The first label of `zpl` as a PNG of widthMm × heightMm at dpmm dots a millimetre. */
export function drawZpl(zpl: string, widthMm: number, heightMm: number, dpmm: number): Promise<Buffer> {
  const id = nextId++;
  const { worker, waiting } = started();
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, zpl, widthMm, heightMm, dpmm });
  });
}
