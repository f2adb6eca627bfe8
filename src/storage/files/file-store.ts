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
}
