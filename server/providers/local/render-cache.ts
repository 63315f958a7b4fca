import "server-only";
import { createHash } from "node:crypto";

// Rendered outputs of the local provider by the hash of everything that decides their bytes
// (the render is deterministic), so a retried step or a failover to local-backup does not render
// the same picture twice. Bounded by total bytes; the least recently used go first. A hit returns
// a copy, so a caller can never change what the next caller gets.

const MAX_BYTES = 16 * 1024 * 1024;

type Cached<T> = { value: T; bytes: number };

export class RenderCache<T extends { bytes: Uint8Array }> {
  private readonly entries = new Map<string, Cached<T>>();
  private total = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes = MAX_BYTES) {}

  async getOrRender(key: string, render: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached) {
      this.hits += 1;
      this.entries.delete(key);
      this.entries.set(key, cached);
      return { ...cached.value, bytes: new Uint8Array(cached.value.bytes) };
    }
    this.misses += 1;
    const value = await render();
    const size = value.bytes.byteLength;
    if (size <= this.maxBytes) {
      this.entries.set(key, { value: { ...value, bytes: new Uint8Array(value.bytes) }, bytes: size });
      this.total += size;
      for (const [oldest, entry] of this.entries) {
        if (this.total <= this.maxBytes) break;
        this.entries.delete(oldest);
        this.total -= entry.bytes;
      }
    }
    return value;
  }
}

/** A stable hash of a render's inputs; byte inputs are hashed, not copied. */
export function renderKey(parts: Record<string, string | number | boolean | Uint8Array | undefined>): string {
  const hash = createHash("sha256");
  for (const name of Object.keys(parts).sort()) {
    const value = parts[name];
    hash.update(name).update("\u0000");
    if (value instanceof Uint8Array) hash.update("bytes:").update(createHash("sha256").update(value).digest("hex"));
    else hash.update(`${typeof value}:${String(value)}`);
    hash.update("\u0001");
  }
  return hash.digest("hex");
}
