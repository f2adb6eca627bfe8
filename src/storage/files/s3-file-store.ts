import { Readable } from "node:stream";
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { checkFileName, contentTypeOf, type FileStore, FileStoreUnavailable, type OpenedFile } from "./file-store.js";
import type { S3Location } from "./s3-location.js";

export interface S3ClientSettings {
  /** AWS_REGION (or AWS_DEFAULT_REGION); R2 takes "auto". */
  region: string;
  /** Path-style addressing (`endpoint/bucket/key`), which MinIO, Ceph RGW and test servers expect. */
  forcePathStyle: boolean;
  /** How long one request to the store may take before it counts as failed. */
  timeoutMs: number;
}

/**
 * A client for AWS S3 or an S3-compatible store. The endpoint (AWS_ENDPOINT_URL_S3 or
 * AWS_ENDPOINT_URL) and credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, an
 * instance role) are found by the SDK's own chain, the way every AWS tool finds them.
 */
export function s3Client(settings: S3ClientSettings, overrides: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: the SDK's default trailing CRC checksums (and their
    // aws-chunked uploads) are not understood by every S3-compatible store.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Two tries: an outage must become a 503 within a bounded time, not a long retry ladder.
    maxAttempts: 2,
    // Connecting, then the answer's headers, then each pause in its body: a store that accepts
    // connections but never answers fails too (the request timeout only warns unless told to throw).
    requestHandler: {
      connectionTimeout: settings.timeoutMs,
      requestTimeout: settings.timeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: settings.timeoutMs,
    },
    ...overrides,
  });
}

/** Multipart parts for streamed writes; S3's smallest part is 5 MiB. */
const PART_SIZE = 5 * 1024 * 1024;

/**
 * Files as objects in one bucket under a prefix. Objects are private: downloads are streamed
 * through Porter's /files route (see docs/files.md for why not presigned redirects).
 */
export class S3FileStore implements FileStore {
  constructor(
    private readonly client: S3Client,
    private readonly location: S3Location,
  ) {}

  get description(): string {
    return `s3://${this.location.bucket}/${this.location.prefix}`;
  }

  async put(name: string, bytes: Buffer): Promise<void> {
    const key = this.#keyOf(name);
    await this.#calling(`storing ${name}`, () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.location.bucket,
          Key: key,
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: contentTypeOf(name) ?? "application/octet-stream",
        }),
      ),
    );
  }

  async putChunks(name: string, chunks: AsyncIterable<Buffer>): Promise<void> {
    const key = this.#keyOf(name);
    // A failure of the producer (the document's renderer) is the caller's, not the store's: it is
    // rethrown as it is, whatever the upload reports after it (an abort the store refused).
    const source: { failure?: { error: unknown } } = {};
    async function* watched(): AsyncIterable<Buffer> {
      try {
        yield* chunks;
      } catch (error) {
        source.failure = { error };
        throw error;
      }
    }
    try {
      // A multipart upload once the bytes pass one part, a single PUT below that; a failed
      // multipart upload is aborted, so no half object is ever visible under the key.
      await new Upload({
        client: this.client,
        params: {
          Bucket: this.location.bucket,
          Key: key,
          Body: Readable.from(watched()),
          ContentType: contentTypeOf(name) ?? "application/octet-stream",
        },
        partSize: PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      }).done();
    } catch (error) {
      if (source.failure) throw source.failure.error;
      throw new FileStoreUnavailable(`storing ${name} in ${this.description} failed: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  async get(name: string): Promise<Buffer | undefined> {
    const opened = await this.open(name);
    if (!opened) return undefined;
    const parts: Buffer[] = [];
    try {
      for await (const chunk of opened.body) parts.push(chunk as Buffer);
    } catch (error) {
      throw new FileStoreUnavailable(`reading ${name} from ${this.description} failed: ${messageOf(error)}`, {
        cause: error,
      });
    }
    return Buffer.concat(parts);
  }

  async open(name: string): Promise<OpenedFile | undefined> {
    const key = this.#keyOf(name);
    const answer = await this.#calling(`reading ${name}`, () =>
      this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key })).catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      }),
    );
    if (!answer?.Body) return undefined;
    return { body: answer.Body as Readable, size: answer.ContentLength };
  }

  /** The stored object's size, or undefined when there is none: what copying a store skips. */
  async sizeOf(name: string): Promise<number | undefined> {
    const key = this.#keyOf(name);
    return this.#calling(`looking up ${name}`, async () => {
      try {
        const head = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    });
  }

  #keyOf(name: string): string {
    return `${this.location.prefix}${checkFileName(name)}`;
  }

  /** Every failure to reach or use the store becomes FileStoreUnavailable, its cause kept for the log. */
  async #calling<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new FileStoreUnavailable(`${what} in ${this.description} failed: ${messageOf(error)}`, { cause: error });
    }
  }
}

function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  // Only a missing key: a missing bucket (NoSuchBucket, also a 404) is a broken store, not a missing file.
  return error.name === "NoSuchKey" || error.name === "NotFound";
}

function messageOf(error: unknown): string {
  if (error instanceof S3ServiceException)
    return `${error.name} (HTTP ${error.$metadata.httpStatusCode}): ${error.message}`;
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}
