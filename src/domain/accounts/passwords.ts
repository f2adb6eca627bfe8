import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { DomainError } from "../errors.js";

/**
 * scrypt's cost (N = 2^15, r = 8, p = 1: OWASP's recommended minimum), kept in each stored string so
 * a later, higher cost still reads the old ones.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** 128 · N · r bytes are needed; twice that leaves room. */
const MAX_MEMORY = 256 * COST.N * COST.r;
export const PASSWORD_MIN_LENGTH = 12;
/** Long enough for any passphrase, short enough that hashing it costs nothing extra. */
export const PASSWORD_MAX_LENGTH = 256;

const derive = (password: string, salt: Buffer, cost: typeof COST) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, { ...cost, maxmem: 256 * cost.N * cost.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export function checkPasswordStrength(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw new DomainError(
      "user.invalid_password",
      `A password has ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
    );
  }
}

/** `scrypt$N$r$p$salt$key`, salt and key in base64url: one string for the `password_hash` column. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/**
 * Whether `password` is the one `stored` was made from. With nothing stored (no such user, or no
 * password set) a hash is still computed, so the answer takes as long either way.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = stored?.split("$") ?? [];
  const [scheme, n, r, p, salt, key] = parts;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const readable =
    parts.length === 6 && scheme === "scrypt" && [cost.N, cost.r, cost.p].every(Number.isSafeInteger) && salt && key;
  if (!readable || 256 * cost.N * cost.r > MAX_MEMORY * 4) {
    await derive(password, randomBytes(SALT_BYTES), COST);
    return false;
  }
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
