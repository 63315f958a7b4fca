import { randomUUID } from "node:crypto";
import { mkdir, open as openFile, readFile, rename, rmdir, stat, unlink, writeFile, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { env } from "../base/env";
import {
  assertContentType,
  assertStorageKey,
  InvalidStorageKeyError,
  OUTPUT_EXTENSIONS,
  type ObjectInfo,
  type ObjectRange,
  type ObjectStream,
  type OutputStorage,
  type StorageProbe,
} from "./storage";
import { probeStorage } from "./probe-storage";

// Objects are plain files under the root, named by their key. The content type sits beside each
// file as ".<name>.content-type" (keys never have dot-led segments, so the sidecars, temporary
// files and object names cannot collide), unless the put made the object's folder and the key's
// extension names the type.

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
    assertContentType(key, contentType);
    // A concurrent delete may prune the directory between mkdir and the write: try once more.
    for (let attempt = 1; ; attempt++) {
      try {
        const created = await mkdir(path.dirname(file), { recursive: true });
        // The type first: a reader that sees the object also sees its type. A directory this put
        // created holds no earlier sidecar, so a type the key's extension names needs none (every
        // generation's outputs: four file operations fewer per output).
        if (created === undefined || typeOfExtension(file) !== contentType) await writeAtomically(contentTypeFile(file), contentType);
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
    return { bytes, contentType: await readContentType(file) };
  }

  async function head(key: string): Promise<ObjectInfo | null> {
    const file = fileFor(key);
    try {
      const stats = await stat(file);
      if (!stats.isFile()) return null;
      return { contentType: await readContentType(file), size: stats.size, etag: etagOf(stats) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  // The descriptor is opened first: a delete after that unlinks the name, not the open file.
  async function open(key: string, range?: ObjectRange): Promise<ObjectStream | null> {
    const file = fileFor(key);
    let handle: FileHandle;
    try {
      handle = await openFile(file, "r");
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return null;
      }
      const contentType = await readContentType(file);
      const start = range?.start ?? 0;
      const end = Math.min(range?.end ?? Infinity, stats.size - 1);
      return { contentType, size: stats.size, etag: etagOf(stats), body: fileStream(handle, start, end + 1) };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
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

  function probe(): Promise<StorageProbe> {
    return probeStorage({ put, get, delete: remove }, "local-disk");
  }

  return { driver: "local-disk", bucket: localBucketLabel(base), put, get, head, open, delete: remove, probe };
}

const CHUNK_BYTES = 64 * 1024;

// Outputs are written once under a fresh key: length and write time tell versions apart.
function etagOf(stats: { size: number; mtimeMs: number }): string {
  return `"${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}"`;
}

/** Bytes [start, stop), pull-based, so a slow client holds back the reads; the handle closes at the end or on cancel. */
function fileStream(handle: FileHandle, start: number, stop: number): ReadableStream<Uint8Array> {
  let position = start;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const want = Math.min(CHUNK_BYTES, stop - position);
        const { bytesRead, buffer } =
          want > 0 ? await handle.read(Buffer.alloc(want), 0, want, position) : { bytesRead: 0, buffer: Buffer.alloc(0) };
        if (bytesRead === 0) {
          await handle.close();
          controller.close();
          return;
        }
        position += bytesRead;
        controller.enqueue(buffer.subarray(0, bytesRead));
      } catch (error) {
        await handle.close().catch(() => undefined);
        controller.error(error);
      }
    },
    async cancel() {
      await handle.close().catch(() => undefined);
    },
  });
}

// The type an output's extension names, from the table outputs are named by.
const extensionTypes = new Map(Object.entries(OUTPUT_EXTENSIONS).map(([type, extension]) => [`.${extension}`, type]));

function typeOfExtension(file: string): string | undefined {
  return extensionTypes.get(path.extname(file).toLowerCase());
}

/** The sidecar's type; without one, the type the extension names, else application/octet-stream. */
async function readContentType(file: string): Promise<string> {
  try {
    return (await readFile(contentTypeFile(file), "utf8")).trim() || DEFAULT_CONTENT_TYPE;
  } catch (error) {
    if (isMissing(error)) return typeOfExtension(file) ?? DEFAULT_CONTENT_TYPE;
    throw error;
  }
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

/** `local:<directory>`, relative to the working directory when inside it: no absolute server paths in health answers. */
export function localBucketLabel(directory: string): string {
  const relative = path.relative(/*turbopackIgnore: true*/ process.cwd(), directory);
  const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  return `local:${inside ? relative.split(path.sep).join("/") : path.basename(directory)}`;
}
