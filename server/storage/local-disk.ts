import { randomBytes, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rmdir, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../env";
import { assertStorageKey, InvalidStorageKeyError, type OutputStorage, type StorageProbe } from "./storage";

// Objects are plain files under the root, named by their key. The content type sits beside each
// file as ".<name>.content-type": keys never have dot-led segments, so the sidecars, temporary
// files and object names cannot collide.

const DEFAULT_CONTENT_TYPE = "application/octet-stream";

export function localDiskStorage(root: string = path.resolve(/*turbopackIgnore: true*/ env().DATA_DIR, "files")): OutputStorage {
  const base = path.resolve(/*turbopackIgnore: true*/ root);

  function fileFor(key: string): string {
    assertStorageKey(key);
    const file = path.join(base, ...key.split("/"));
    // The key pattern already forbids escaping the root; this guards the pattern itself.
    if (!file.startsWith(base + path.sep)) throw new InvalidStorageKeyError(key);
    return file;
  }

  async function put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const file = fileFor(key);
    if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(contentType)) throw new TypeError(`Invalid content type for ${key}`);
    // A concurrent delete may prune the directory between mkdir and the write: try once more.
    for (let attempt = 1; ; attempt++) {
      try {
        await mkdir(path.dirname(file), { recursive: true });
        // The type first: a reader that sees the object also sees its type.
        await writeAtomically(contentTypeFile(file), contentType);
        await writeAtomically(file, bytes);
        return;
      } catch (error) {
        if (attempt >= 2 || errorCode(error) !== "ENOENT") throw error;
      }
    }
  }

  async function get(key: string) {
    const file = fileFor(key);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    let contentType = DEFAULT_CONTENT_TYPE;
    try {
      contentType = (await readFile(contentTypeFile(file), "utf8")).trim() || DEFAULT_CONTENT_TYPE;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    return { bytes, contentType };
  }

  async function remove(key: string): Promise<boolean> {
    const file = fileFor(key);
    let removed = true;
    try {
      await unlink(file);
    } catch (error) {
      if (!isMissing(error)) throw error;
      removed = false;
    }
    try {
      await unlink(contentTypeFile(file));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    await pruneEmptyDirectories(path.dirname(file));
    return removed;
  }

  // Per-generation directories would pile up forever as outputs expire.
  async function pruneEmptyDirectories(directory: string) {
    let current = directory;
    while (current.startsWith(base + path.sep)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty (or already gone): nothing further up can be empty either
      }
      current = path.dirname(current);
    }
  }

  async function probe(): Promise<StorageProbe> {
    const started = performance.now();
    const key = `probes/${randomUUID()}`;
    const payload = randomBytes(32);
    let healthy = false;
    try {
      await put(key, payload, DEFAULT_CONTENT_TYPE);
      const stored = await get(key);
      const roundTripped = stored !== null && Buffer.from(stored.bytes).equals(payload);
      healthy = (await remove(key)) && roundTripped;
    } catch {
      await remove(key).catch(() => false);
    }
    return { healthy, latency_ms: elapsedMs(started), driver: "local-disk" };
  }

  return { driver: "local-disk", put, get, delete: remove, probe };
}

async function writeAtomically(file: string, data: Uint8Array | string) {
  const temporary = path.join(path.dirname(file), `.tmp-${randomUUID()}`);
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

function contentTypeFile(file: string) {
  return path.join(path.dirname(file), `.${path.basename(file)}.content-type`);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

/** A key naming nothing, or naming a directory, holds no object. */
function isMissing(error: unknown) {
  const code = errorCode(error);
  return code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR";
}

function elapsedMs(started: number) {
  return Math.round((performance.now() - started) * 10) / 10;
}
