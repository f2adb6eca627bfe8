import type { Readable } from "node:stream";

/**
 * Where label, customs and manifest files live. Names are chosen by the caller (a random token
 * and an extension) and are public: anyone with the URL can fetch the file, like a public bucket.
 */
export interface FileStore {
  put(name: string, bytes: Buffer): Promise<void>;
  /**
   * Writes a file from chunks as they are produced, so a document of thousands of pages never
   * sits in memory whole. The name is published (recorded) by the caller only once this resolves.
   */
  putChunks(name: string, chunks: AsyncIterable<Buffer>): Promise<void>;
  /** undefined when there is no such file. */
  get(name: string): Promise<Buffer | undefined>;
  /** The file as a stream, for answering a download without holding it whole; undefined when there is no such file. */
  open(name: string): Promise<OpenedFile | undefined>;
}

export interface OpenedFile {
  body: Readable;
  /** Bytes, when the store knows them before reading. */
  size: number | undefined;
}

/**
 * The store cannot be reached or refused to work (a network failure, a timeout, the object
 * store's own 5xx, wrong credentials). Requests that need a file answer 503 and are retried; the
 * cause says which for the operator's log.
 */
export class FileStoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FileStoreUnavailable";
  }
}

const SAFE_NAME = /^[A-Za-z0-9_-]+\.[a-z0-9]+$/;

export function isStoredFileName(name: string): boolean {
  return SAFE_NAME.test(name);
}

/** Names are public tokens; anything else (a path, a traversal) is a caller's bug. */
export function checkFileName(name: string): string {
  if (!SAFE_NAME.test(name)) throw new RangeError(`not a stored file name: ${name}`);
  return name;
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  tiff: "image/tiff",
  zpl: "application/zpl",
  epl: "application/epl2",
};

/** What a stored file is, by its extension; undefined for an extension no file is stored with. */
export function contentTypeOf(name: string): string | undefined {
  const extension = name.slice(name.lastIndexOf(".") + 1);
  return Object.hasOwn(CONTENT_TYPES, extension) ? CONTENT_TYPES[extension] : undefined;
}
