import { createHash, randomBytes } from "node:crypto";

// Key values: "dkr_" + 40 base62 characters (~238 bits). Only the SHA-256 hash
// is stored; the value is shown once. Never log a key or pass it to the activity feed.

export const API_KEY_PREFIX = "dkr_";
const RANDOM_LENGTH = 40;
/** Characters shown in logs and the dashboard to identify a key: "dkr_" + 5. */
export const DISPLAY_PREFIX_LENGTH = 9;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
// 248 = 4 × 62: bytes at or above it are discarded so every character is equally likely.
const UNBIASED_LIMIT = 256 - (256 % BASE62.length);

export const apiKeyPattern = /^dkr_[0-9A-Za-z]{40}$/;

export type NewApiKey = { key: string; hash: string; prefix: string };

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += BASE62[byte % BASE62.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function newApiKey(): NewApiKey {
  const key = API_KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return { key, hash: hashApiKey(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}
