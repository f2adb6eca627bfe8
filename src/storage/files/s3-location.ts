/** Where in the object store the files go: `s3://bucket/prefix`. */
export interface S3Location {
  bucket: string;
  /** Empty, or ending in "/": prepended to every file name to make its key. */
  prefix: string;
}

/** Reads `s3://bucket[/prefix]`; undefined when the URL is not an s3:// one. */
export function parseS3Url(url: string): S3Location | undefined {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match) return undefined;
  const path = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  return { bucket: match[1] as string, prefix: path ? `${path}/` : "" };
}
