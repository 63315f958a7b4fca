// Where output files live: local disk or any S3-compatible store, behind one
// interface, so callers never learn which one they hold.

export type StorageDriver = "local-disk" | "s3";

export type StoredObject = { bytes: Uint8Array; contentType: string };

/** What a download needs before the bytes: the type, the whole object's length, a strong validator. */
export type ObjectInfo = { contentType: string; size: number; etag: string | null };

/** Bytes `start` to `end` of an object, both included (as in Content-Range). */
export type ObjectRange = { start: number; end: number };

/** An object opened for streaming; the stream must be read or canceled. `size` is the whole object's. */
export type ObjectStream = ObjectInfo & { body: ReadableStream<Uint8Array> };

export type StorageProbe = { healthy: boolean; latency_ms: number; driver: StorageDriver };

export interface OutputStorage {
  readonly driver: StorageDriver;
  /** Where objects go: the S3 bucket's name, or `local:<directory>` for local disk. */
  readonly bucket: string;
  /** Overwrites an existing object; readers never see a half-written one. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  head(key: string): Promise<ObjectInfo | null>;
  /** For serving large files (videos) without holding them in memory; with a range, only those bytes. */
  open(key: string, range?: ObjectRange): Promise<ObjectStream | null>;
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

// One printable-ASCII header value, as both drivers store and serve it.
const contentTypePattern = /^[\x21-\x7e][\x20-\x7e]{0,254}$/;

export function assertContentType(key: string, contentType: string): void {
  if (!contentTypePattern.test(contentType)) throw new TypeError(`Invalid content type for ${key}`);
}

/** The media types outputs are stored as, each under its extension (server/generations/run/store-outputs.ts names keys so). */
export const OUTPUT_EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "image/gif": "gif",
};
