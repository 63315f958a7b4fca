import "server-only";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, timingSafeEqual } from "node:crypto";
import { allKeys, currentKey, type EncryptionKey } from "../base/secrets/encryption-keys";

// The `id:` of a stream's events (issue #43): the global event id and a tag of its account, as one
// AES-256 block under a key derived from ENCRYPTION_KEY. The same event always gets the same id (on
// every instance, after restarts), two accounts' ids have no relation a client can compute, and a
// cursor opens only for its own account. Previous ENCRYPTION_KEYS still open the ids they made.

export const EVENT_CURSOR_PREFIX = "ev_";
const TAG_BYTES = 8;
const derived = new Map<string, Buffer>();
const tags = new Map<string, Buffer>();

function cursorKey(key: EncryptionKey): Buffer {
  let bytes = derived.get(key.id);
  if (!bytes) {
    bytes = Buffer.from(hkdfSync("sha256", key.bytes, Buffer.alloc(0), "darkroom event cursor", 32));
    derived.set(key.id, bytes);
  }
  return bytes;
}

function accountTag(accountId: string): Buffer {
  let tag = tags.get(accountId);
  if (!tag) {
    tag = createHash("sha256").update("darkroom event cursor account\0").update(accountId).digest().subarray(0, TAG_BYTES);
    if (tags.size > 10_000) tags.clear();
    tags.set(accountId, tag);
  }
  return tag;
}

function aes(key: EncryptionKey, block: Buffer, direction: "encrypt" | "decrypt"): Buffer {
  const cipher =
    direction === "encrypt" ? createCipheriv("aes-256-ecb", cursorKey(key), null) : createDecipheriv("aes-256-ecb", cursorKey(key), null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(block), cipher.final()]);
}

/** The id a client of `accountId` sees for the event `eventId`. */
export function eventCursor(accountId: string, eventId: bigint): string {
  const block = Buffer.alloc(16);
  block.writeBigUInt64BE(eventId, 0);
  accountTag(accountId).copy(block, TAG_BYTES);
  return EVENT_CURSOR_PREFIX + aes(currentKey(), block, "encrypt").toString("base64url");
}

/** The event id inside `cursor`, or null when it was not made for `accountId` (or is not a cursor). */
export function openEventCursor(accountId: string, cursor: string): bigint | null {
  if (!cursor.startsWith(EVENT_CURSOR_PREFIX)) return null;
  const sealed = Buffer.from(cursor.slice(EVENT_CURSOR_PREFIX.length), "base64url");
  if (sealed.length !== 16) return null;
  const tag = accountTag(accountId);
  for (const key of allKeys()) {
    const block = aes(key, sealed, "decrypt");
    if (timingSafeEqual(block.subarray(TAG_BYTES), tag)) return block.readBigUInt64BE(0);
  }
  return null;
}
