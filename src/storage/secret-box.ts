import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Seals secrets (carrier credentials, webhook secrets) at rest with AES-256-GCM. The sealed form
 * is `v1.<iv>.<tag>.<ciphertext>` in base64url, so a key change later can add `v2`.
 */
export class SecretBox {
  /** A key of its own for fingerprints, so no fingerprint ever helps against the sealing key. */
  readonly #fingerprintKey: Buffer;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("the secret key must be 32 bytes");
    this.#fingerprintKey = createHmac("sha256", key).update("porter request fingerprint").digest();
  }

  /**
   * A keyed fingerprint (HMAC-SHA256, hex) of text that may hold secrets: equal texts match, and
   * without the key a stored fingerprint cannot be used to guess a secret.
   */
  fingerprint(text: string): string {
    return createHmac("sha256", this.#fingerprintKey).update(text).digest("hex");
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
      .join(".");
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  }
}

/** Where the key is kept in DATA_DIR when SECRET_KEY is not set. */
export const SECRET_KEY_FILE = "secret.key";

/**
 * The key from SECRET_KEY (64 hex characters or 32 bytes in base64), else from
 * `<dataDir>/secret.key`, made on first start. Every process of one deployment needs the same key.
 */
export function loadSecretKey(secretKey: string | undefined, dataDir: string): Buffer {
  if (secretKey) {
    const key = /^[0-9a-fA-F]{64}$/.test(secretKey) ? Buffer.from(secretKey, "hex") : Buffer.from(secretKey, "base64");
    if (key.length !== 32) throw new Error("SECRET_KEY must be 32 bytes, as 64 hex characters or base64");
    return key;
  }
  const file = path.join(dataDir, SECRET_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process made it first; use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
}
