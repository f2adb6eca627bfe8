import { createHash, randomBytes } from "node:crypto";

export const KEY_MODES = ["test", "production"] as const;
export type KeyMode = (typeof KEY_MODES)[number];

const PREFIX: Record<KeyMode, string> = { test: "pk_test_", production: "pk_live_" };
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** 32 base62 characters: about 190 bits of randomness. */
function randomToken(length = 32): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (const byte of bytes) {
    // 248 = 4 × 62: rejecting the top values keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
    if (out.length === length) return out;
  }
  return out + randomToken(length - out.length);
}

export interface IssuedKey {
  mode: KeyMode;
  /** Shown to the user once; never stored. */
  plaintext: string;
  hash: string;
  prefix: string;
  last4: string;
}

export function hashApiKey(plaintext: string): string {
  return createHash("sha256").update(plaintext).digest("hex");
}

export function issueApiKey(mode: KeyMode): IssuedKey {
  const plaintext = PREFIX[mode] + randomToken();
  return { mode, plaintext, hash: hashApiKey(plaintext), prefix: PREFIX[mode], last4: plaintext.slice(-4) };
}

/** The form shown after creation: prefix, an ellipsis and the last four characters. */
export function maskApiKey(prefix: string, last4: string): string {
  return `${prefix}…${last4}`;
}

/** A key as shown after creation (`pk_test_…Ab3x`), or undefined when the text is not one of ours. */
export function maskPlaintextKey(plaintext: string): string | undefined {
  const mode = modeOfKey(plaintext);
  return mode ? maskApiKey(PREFIX[mode], plaintext.slice(-4)) : undefined;
}

/** Which mode a presented key claims, from its prefix; undefined when it is not ours. */
export function modeOfKey(plaintext: string): KeyMode | undefined {
  if (plaintext.startsWith(PREFIX.test)) return "test";
  if (plaintext.startsWith(PREFIX.production)) return "production";
  return undefined;
}
