/**
 * Where label, customs and manifest files live. Names are chosen by the caller (a random token
 * and an extension) and are public: anyone with the URL can fetch the file, like a public bucket.
 */
export interface FileStore {
  put(name: string, bytes: Buffer): Promise<void>;
  /** undefined when there is no such file. */
  get(name: string): Promise<Buffer | undefined>;
}
