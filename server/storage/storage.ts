// Where output files live. Local disk now (ARCHITECTURE §2); an S3 driver implements the same
// interface later, so callers never learn which one they hold.

export type StorageDriver = "local-disk" | "s3";

export type StoredObject = { bytes: Uint8Array; contentType: string };

export type StorageProbe = { healthy: boolean; latency_ms: number; driver: StorageDriver };

export interface OutputStorage {
  readonly driver: StorageDriver;
  /** Overwrites an existing object; readers never see a half-written one. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  /** True when an object was removed; deleting a missing key is not an error. */
  delete(key: string): Promise<boolean>;
  /** Writes, reads back and deletes a small random object. Never throws. */
  probe(): Promise<StorageProbe>;
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key.slice(0, 200))}`);
    this.name = "InvalidStorageKeyError";
  }
}

// Relative paths of plain segments ("outputs/<account>/<generation>/0.png"). A segment may not
// start with a dot, which rules out "." and ".." and leaves dot-names free for driver metadata.
const keyPattern = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
const MAX_KEY_LENGTH = 1024;

export function assertStorageKey(key: string): void {
  if (typeof key !== "string" || key.length > MAX_KEY_LENGTH || !keyPattern.test(key)) throw new InvalidStorageKeyError(String(key));
}
