import type { FileStore } from "../../storage/files/file-store.js";

/**
 * A stored idempotent answer keeps a file's bytes (a label image asked for inline) as a reference
 * to the file instead: answers are kept a day, and a label image is tens of kilobytes per label.
 * The reference is the file's name, read from the public URL beside the inline copy
 * (`image_url` ends in `/files/<name>`); a replay reads the file again.
 */
const REFERENCE_PREFIX = "stored-file:";
/** The key beside an inline file's bytes that holds its public URL. */
const URL_KEY = "image_url";

function fileNameOf(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  const match = /\/files\/([^/?#]+)$/.exec(url);
  return match ? decodeURIComponent(match[1] as string) : undefined;
}

/** Every object in `value`, depth first. */
function* objectsIn(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) {
    for (const item of value) yield* objectsIn(item);
  } else if (value && typeof value === "object") {
    const object = value as Record<string, unknown>;
    yield object;
    for (const inner of Object.values(object)) yield* objectsIn(inner);
  }
}

/** The answer to store: each inline file under one of `keys` replaced by a reference to it. */
export function referenceInlineFiles(body: string, keys: readonly string[]): string {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return body;
  }
  let changed = false;
  for (const object of objectsIn(answer)) {
    const name = fileNameOf(object[URL_KEY]);
    for (const key of keys) {
      if (name !== undefined && typeof object[key] === "string" && object[key] !== "") {
        object[key] = `${REFERENCE_PREFIX}${name}`;
        changed = true;
      }
    }
  }
  return changed ? JSON.stringify(answer) : body;
}

/** A stored answer with its file references read back into inline (base64) bytes. */
export async function inlineReferencedFiles(body: string, keys: readonly string[], files: FileStore): Promise<string> {
  if (!body.includes(REFERENCE_PREFIX)) return body;
  const answer: unknown = JSON.parse(body);
  for (const object of objectsIn(answer)) {
    for (const key of keys) {
      const value = object[key];
      if (typeof value === "string" && value.startsWith(REFERENCE_PREFIX)) {
        const bytes = await files.get(value.slice(REFERENCE_PREFIX.length));
        object[key] = bytes?.toString("base64") ?? "";
      }
    }
  }
  return JSON.stringify(answer);
}
