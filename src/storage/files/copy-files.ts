import type { DiskFileStore } from "./disk-file-store.js";
import type { S3FileStore } from "./s3-file-store.js";

export interface CopyReport {
  /** Files written to the target by this run. */
  copied: number;
  /** Files the target already held with the same size (an earlier run's work). */
  skipped: number;
  bytesCopied: number;
  /** What stopped the run, when something did; the counts are what was done before. */
  failure?: string;
}

/** Uploads at once: enough to hide each request's latency, few enough not to flood the store. */
const PARALLEL_UPLOADS = 4;

/**
 * Copies every file of a local store into an S3 store, streaming each one. Safe to run again:
 * a file the target already holds at the same size is skipped, so a run stopped part-way (an
 * outage, ^C) is finished by the next. The first failure stops the run and is reported.
 */
export async function copyFilesToS3(from: DiskFileStore, to: S3FileStore): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, skipped: 0, bytesCopied: 0 };
  const files = from.list()[Symbol.asyncIterator]();
  let failure: unknown;
  const copyNext = async (): Promise<void> => {
    while (failure === undefined) {
      const next = await files.next();
      if (next.done) return;
      const { name, size } = next.value;
      try {
        if ((await to.sizeOf(name)) === size) {
          report.skipped++;
          continue;
        }
        const opened = await from.open(name);
        if (!opened) continue; // removed since it was listed
        await to.putChunks(name, opened.body);
        report.copied++;
        report.bytesCopied += size;
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_UPLOADS }, copyNext));
  if (failure !== undefined) report.failure = failure instanceof Error ? failure.message : String(failure);
  return report;
}
