import { createHash } from "node:crypto";
import { env } from "../env";

// The keys that seal secrets at rest: ENCRYPTION_KEY seals, and it or any of
// ENCRYPTION_KEYS_PREVIOUS opens (so a rotated key keeps working until every row is re-sealed).
// A key is 32 bytes written as 64 hex digits or as base64/base64url; its id is a digest, stored
// beside each sealed value, so the right key is found without trying them all.

export type EncryptionKey = { id: string; bytes: Buffer };

function parseKey(text: string, name: string): Buffer {
  const trimmed = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length !== 32) throw new Error(`${name} must be 32 bytes, written as 64 hex digits or base64 (openssl rand -hex 32)`);
  return bytes;
}

export function keyIdOf(bytes: Buffer): string {
  return createHash("sha256").update("darkroom encryption key id\0").update(bytes).digest("hex").slice(0, 16);
}

let cached: { source: string; current: EncryptionKey; all: Map<string, EncryptionKey> } | undefined;

function keyring() {
  const config = env();
  const source = `${config.ENCRYPTION_KEY ?? ""}|${config.ENCRYPTION_KEYS_PREVIOUS ?? ""}`;
  if (cached?.source === source) return cached;
  if (!config.ENCRYPTION_KEY) throw new Error("ENCRYPTION_KEY is not set: boot code sets it (generated into DATA_DIR outside production)");
  const toKey = (text: string, name: string): EncryptionKey => {
    const bytes = parseKey(text, name);
    return { id: keyIdOf(bytes), bytes };
  };
  const current = toKey(config.ENCRYPTION_KEY, "ENCRYPTION_KEY");
  const previous = (config.ENCRYPTION_KEYS_PREVIOUS ?? "")
    .split(",")
    .filter((entry) => entry.trim() !== "")
    .map((entry) => toKey(entry, "ENCRYPTION_KEYS_PREVIOUS"));
  cached = { source, current, all: new Map([current, ...previous].map((key) => [key.id, key])) };
  return cached;
}

/** The key new values are sealed with. */
export function currentKey(): EncryptionKey {
  return keyring().current;
}

/** Every configured key, the current one first. */
export function allKeys(): EncryptionKey[] {
  return [...keyring().all.values()];
}

/** The key with this id, current or previous; null when none is configured. */
export function keyById(id: string): EncryptionKey | null {
  return keyring().all.get(id) ?? null;
}
