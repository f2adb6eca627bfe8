import { DomainError } from "../../domain/errors.js";

/** How deep a body may nest, in every format: real requests need fewer than ten levels. */
export const MAX_BODY_DEPTH = 32;

export const tooDeep = (what: string) =>
  new DomainError("request.too_deep", `The body nests ${what} deeper than ${MAX_BODY_DEPTH} levels.`);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text opens objects and arrays more than `limit` deep, read before parsing so a
 * megabyte of `[` costs a scan rather than a parse; braces inside strings do not count.
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
