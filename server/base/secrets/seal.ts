import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { currentKey, keyById } from "./encryption-keys";

// Secrets at rest (webhook signing secrets): AES-256-GCM with a random 96-bit nonce, bound to
// where the value lives (`context`, e.g. "webhook_endpoint.secret:<id>") as associated data, so a
// sealed value copied to another row does not open there. Stored as `iv.tag.ciphertext`
// (base64url) with the key id beside it.

export type Sealed = { value: string; keyId: string };

export class SecretUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretUnavailable";
  }
}

export function seal(plaintext: string, context: string): Sealed {
  const key = currentKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return { value: [iv, tag, ciphertext].map((part) => part.toString("base64url")).join("."), keyId: key.id };
}

export function unseal(sealed: Sealed, context: string): string {
  const key = keyById(sealed.keyId);
  if (!key)
    throw new SecretUnavailable(`No encryption key with id ${sealed.keyId} is configured (ENCRYPTION_KEY, ENCRYPTION_KEYS_PREVIOUS)`);
  const [iv, tag, ciphertext] = sealed.value.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !ciphertext || iv.length !== 12 || tag.length !== 16) throw new SecretUnavailable("The sealed value is malformed");
  const decipher = createDecipheriv("aes-256-gcm", key.bytes, iv);
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnavailable("The sealed value does not open with its key here (altered, or moved from another row)");
  }
}
