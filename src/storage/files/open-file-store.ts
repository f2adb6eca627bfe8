import type { FileStoreSetting } from "../../config.js";
import { DiskFileStore } from "./disk-file-store.js";
import type { FileStore } from "./file-store.js";
import type { S3FileStore } from "./s3-file-store.js";

/** The file store the configuration names. */
export async function openFileStore(setting: FileStoreSetting): Promise<FileStore> {
  return setting.kind === "disk" ? new DiskFileStore(setting.directory) : openS3FileStore(setting);
}

/** The AWS SDK is loaded only by deployments that keep their files in S3. */
export async function openS3FileStore(setting: Extract<FileStoreSetting, { kind: "s3" }>): Promise<S3FileStore> {
  const { S3FileStore, s3Client } = await import("./s3-file-store.js");
  return new S3FileStore(s3Client(setting), setting.location);
}
