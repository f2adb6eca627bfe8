import type { Command } from "commander";
import { type Output, print } from "./output.js";

export function addFilesCommands(program: Command, out: () => Output): void {
  const files = program.command("files").description("the stored label, customs and manifest files");
  files
    .command("migrate")
    .description("copy the files kept on this machine's disk into the S3 store FILE_STORE_URL names (safe to rerun)")
    .option("--from <directory>", "the local store to copy (default: $DATA_DIR/files)")
    .action(async (options: { from?: string }) => {
      const [{ ConfigError, loadConfig }, { copyFilesToS3 }, { DiskFileStore }, { openS3FileStore }] =
        await Promise.all([
          import("../config.js"),
          import("../storage/files/copy-files.js"),
          import("../storage/files/disk-file-store.js"),
          import("../storage/files/open-file-store.js"),
        ]);
      const config = loadConfig();
      if (config.fileStore.kind !== "s3") {
        throw new ConfigError("FILE_STORE_URL must name the S3 store to copy into (s3://bucket/prefix)");
      }
      const target = await openS3FileStore(config.fileStore);
      const source = options.from ?? `${config.dataDir}/files`;
      const report = await copyFilesToS3(new DiskFileStore(source), target);
      const summary = {
        from: source,
        to: target.description,
        copied: report.copied,
        already_there: report.skipped,
        bytes_copied: report.bytesCopied,
        ...(report.failure ? { failure: report.failure } : {}),
      };
      print(
        out(),
        summary,
        () =>
          `Copied ${report.copied} files (${report.bytesCopied} bytes) from ${source} to ${target.description}; ` +
          `${report.skipped} were already there.${report.failure ? ` Stopped: ${report.failure}` : ""}`,
      );
      // Counted work is kept: running the command again carries on where this run stopped.
      if (report.failure) throw new Error(`files migrate stopped: ${report.failure}; run it again to carry on`);
    });
}
