import { createHmac, timingSafeEqual } from "node:crypto";
import { appUrl, env } from "../base/env";
import { assertStorageKey } from "./storage";

// Output-file links: ${APP_URL}/files/<key>?expires=<unix s>&signature=<hex>,
// signature = HMAC-SHA256(AUTH_SECRET, key + "\n" + expires). The app serves them from
// whichever driver is configured, S3 included: one link format, links that stop working when a
// file is deleted, and an S3 endpoint that need not be reachable by clients. A link is valid
// while now < expires.

function authSecret(): string {
  const secret = env().AUTH_SECRET;
  // Boot (ensureAuthSecret) sets it: generated into DATA_DIR locally, required in production.
  if (!secret) throw new Error("AUTH_SECRET is not set: signed file URLs need the runtime booted (ensureAuthSecret)");
  return secret;
}

export function fileSignature(key: string, expires: number): string {
  return createHmac("sha256", authSecret()).update(`${key}\n${expires}`).digest("hex");
}

/** The download link for an output file; it expires at expiresAt (rounded down to the second). */
export function signFileUrl(key: string, { expiresAt }: { expiresAt: Date }): string {
  assertStorageKey(key);
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const path = key.split("/").map(encodeURIComponent).join("/");
  return `${appUrl()}/files/${path}?expires=${expires}&signature=${fileSignature(key, expires)}`;
}

/** True for an untampered, unexpired link. Compares in constant time. */
export function verifyFileSignature(key: string, expires: string | number, signature: string, now: Date = new Date()): boolean {
  const expiresText = String(expires);
  if (!/^[0-9]{1,12}$/.test(expiresText) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expiresAt = Number(expiresText);
  if (now.getTime() >= expiresAt * 1000) return false;
  const expected = Buffer.from(fileSignature(key, expiresAt), "hex");
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}
