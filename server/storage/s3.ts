import { createHash } from "node:crypto";
import { AwsClient } from "aws4fetch";
import { env } from "../base/env";
import { sliceStream } from "./byte-range";
import {
  assertContentType,
  assertStorageKey,
  type ObjectInfo,
  type ObjectRange,
  type ObjectStream,
  type OutputStorage,
  type StorageProbe,
  type StoredObject,
} from "./storage";
import { probeStorage } from "./probe-storage";

// Output files in any S3-compatible store (AWS S3, MinIO, R2, Backblaze, s3rver in tests),
// spoken to over plain HTTP with SigV4 (aws4fetch). The credentials need GetObject, PutObject,
// DeleteObject and ListBucket: without ListBucket a missing key answers 403, not 404.

export type S3Config = {
  /** Unset: AWS (https://s3.<region>.amazonaws.com). */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** https://host/bucket/key rather than https://bucket.host/key. */
  forcePathStyle: boolean;
};

export function s3ConfigFromEnv(): S3Config {
  const config = env();
  if (!config.S3_BUCKET) throw new Error("Invalid configuration: S3_BUCKET is not set");
  if (!config.S3_ACCESS_KEY_ID || !config.S3_SECRET_ACCESS_KEY) {
    throw new Error("Invalid configuration: S3_BUCKET is set, so S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required");
  }
  return {
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE ?? Boolean(config.S3_ENDPOINT),
  };
}

export class S3RequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = "S3RequestError";
  }
}

const DEFAULT_CONTENT_TYPE = "application/octet-stream";
/** Until the response headers (open) or the whole body (everything else). */
const REQUEST_TIMEOUT_MS = 30_000;

/** How a signed request is sent: fetch (our own store), or the outbound address policy (an account's store). */
export type S3Transport = (request: Request) => Promise<Response>;

export type S3Storage = OutputStorage & {
  /** A GET link that works for `ttlSeconds` without credentials (SigV4 query signing). */
  presignGet(key: string, ttlSeconds: number): Promise<string>;
  /** The object's plain URL (for a public bucket behind its own base URL, the caller builds its own). */
  objectUrl(key: string): string;
  /** An object written from a stream, one part in memory at a time (multipart past PART_BYTES). */
  putStream(key: string, chunks: AsyncIterable<Uint8Array>, contentType: string): Promise<void>;
};

/** 8 MiB: S3's parts are 5 MiB to 5 GiB (but the last). */
export const PART_BYTES = 8 * 1024 * 1024;

export function s3Storage(config: S3Config, options: { transport?: S3Transport } = {}): S3Storage {
  // aws4fetch retries 5xx and 429 with backoff; two retries keep a probe within its check time.
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    service: "s3",
    region: config.region,
    retries: 2,
  });
  const endpoint = new URL(config.endpoint ?? `https://s3.${config.region}.amazonaws.com`);
  const basePath = endpoint.pathname.replace(/\/+$/, "");

  function objectUrl(key: string): string {
    assertStorageKey(key);
    const path = key.split("/").map(encodeURIComponent).join("/");
    return config.forcePathStyle
      ? `${endpoint.origin}${basePath}/${encodeURIComponent(config.bucket)}/${path}`
      : `${endpoint.protocol}//${config.bucket}.${endpoint.host}${basePath}/${path}`;
  }

  /** One signed request; `read` takes what it needs from the response within the timeout. */
  async function send<T>(
    method: string,
    key: string,
    init: { body?: Uint8Array; headers?: Record<string, string>; query?: string },
    read: (response: Response) => Promise<T>,
  ): Promise<T> {
    const url = init.query ? `${objectUrl(key)}?${init.query}` : objectUrl(key);
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`S3 ${method} ${key} timed out after ${REQUEST_TIMEOUT_MS} ms`)),
      REQUEST_TIMEOUT_MS,
    );
    try {
      // fetch takes views over an ArrayBuffer only; a SharedArrayBuffer-backed view is copied.
      const body =
        init.body && (init.body.buffer instanceof ArrayBuffer ? (init.body as Uint8Array<ArrayBuffer>) : new Uint8Array(init.body));
      const response = options.transport
        ? await options.transport(await client.sign(url, { method, headers: init.headers, body, signal: controller.signal }))
        : await client.fetch(url, { method, headers: init.headers, body, signal: controller.signal });
      return await read(response);
    } finally {
      clearTimeout(timer);
    }
  }

  async function put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertContentType(key, contentType);
    const headers = { "content-type": contentType, "x-amz-content-sha256": createHash("sha256").update(bytes).digest("hex") };
    await send("PUT", key, { body: bytes, headers }, async (response) => {
      if (!response.ok) throw await requestError(response, "PUT", key);
      await response.body?.cancel();
    });
  }

  async function get(key: string): Promise<StoredObject | null> {
    return send("GET", key, {}, async (response) => {
      if (await isMissing(response, "GET", key)) return null;
      return {
        bytes: new Uint8Array(await response.arrayBuffer()),
        contentType: response.headers.get("content-type") ?? DEFAULT_CONTENT_TYPE,
      };
    });
  }

  async function head(key: string): Promise<ObjectInfo | null> {
    return send("HEAD", key, {}, async (response) => {
      if (await isMissing(response, "HEAD", key)) return null;
      return objectInfo(response);
    });
  }

  // The timeout covers the response headers; the body then streams at the client's pace.
  async function open(key: string, range?: ObjectRange): Promise<ObjectStream | null> {
    const headers = range ? { range: `bytes=${range.start}-${range.end}` } : undefined;
    return send("GET", key, { headers }, async (response) => {
      if (await isMissing(response, "GET", key)) return null;
      if (!response.body) throw new S3RequestError(response.status, undefined, `S3 GET ${key} answered without a body`);
      if (response.status === 206 && range) {
        // Content-Length is the part's; the object's size is after the slash of Content-Range.
        const [, first, last, total] = (/^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get("content-range") ?? "") ?? []).map(Number);
        if (
          first === undefined ||
          last === undefined ||
          total === undefined ||
          first > range.start ||
          last < Math.min(range.end, total - 1)
        ) {
          await response.body.cancel();
          throw new S3RequestError(response.status, undefined, `S3 GET ${key} answered 206 without the range asked for`);
        }
        // Some stores (s3rver with bytes=0-0) send more than asked: keep only the range.
        const exact = first === range.start && last === range.end;
        return { ...objectInfo(response), size: total, body: exact ? response.body : sliceStream(response.body, range, first) };
      }
      // A store that ignores Range sends the whole object: cut the range out of it.
      return { ...objectInfo(response), body: range ? sliceStream(response.body, range) : response.body };
    });
  }

  // S3 answers 204 to a delete whether or not the key existed: a HEAD tells which.
  async function remove(key: string): Promise<boolean> {
    if (!(await head(key))) return false;
    await send("DELETE", key, {}, async (response) => {
      if (!response.ok && response.status !== 404) throw await requestError(response, "DELETE", key);
      await response.body?.cancel();
    });
    return true;
  }

  function probe(): Promise<StorageProbe> {
    return probeStorage({ put, get, delete: remove }, "s3");
  }

  /**
   * Writes an object from chunks as they come, never holding more than one part: under PART_BYTES
   * in all, one PUT; else a multipart upload of PART_BYTES parts, each PUT with its own SHA-256
   * (S3's checksum of every byte), aborted if anything fails.
   */
  async function putStream(key: string, chunks: AsyncIterable<Uint8Array>, contentType: string): Promise<void> {
    assertContentType(key, contentType);
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let uploadId: string | null = null;
    const parts: Array<{ number: number; etag: string }> = [];
    const take = () => {
      const part = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      return new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
    };
    const uploadPart = async (bytes: Uint8Array) => {
      uploadId ??= await send("POST", key, { query: "uploads", headers: { "content-type": contentType } }, async (response) => {
        if (!response.ok) throw await requestError(response, "POST uploads", key);
        const id = /<UploadId>([^<]+)<\/UploadId>/.exec(await response.text())?.[1];
        if (!id) throw new S3RequestError(response.status, undefined, `S3 multipart upload of ${key} answered without an UploadId`);
        return id;
      });
      const number = parts.length + 1;
      const headers = { "x-amz-content-sha256": createHash("sha256").update(bytes).digest("hex") };
      const query = `partNumber=${number}&uploadId=${encodeURIComponent(uploadId)}`;
      const etag = await send("PUT", key, { body: bytes, headers, query }, async (response) => {
        if (!response.ok) throw await requestError(response, `PUT part ${number}`, key);
        await response.body?.cancel();
        return response.headers.get("etag") ?? "";
      });
      parts.push({ number, etag });
    };
    try {
      for await (const chunk of chunks) {
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        if (pendingBytes >= PART_BYTES) await uploadPart(take());
      }
      if (uploadId === null) return await put(key, take(), contentType);
      if (pendingBytes > 0) await uploadPart(take());
      const body = new TextEncoder().encode(
        `<CompleteMultipartUpload>${parts.map((part) => `<Part><PartNumber>${part.number}</PartNumber><ETag>${part.etag}</ETag></Part>`).join("")}</CompleteMultipartUpload>`,
      );
      const headers = { "content-type": "application/xml", "x-amz-content-sha256": createHash("sha256").update(body).digest("hex") };
      await send("POST", key, { body, headers, query: `uploadId=${encodeURIComponent(uploadId)}` }, async (response) => {
        const text = await response.text();
        // S3 may answer 200 with an <Error> body to a complete that failed.
        if (!response.ok || text.includes("<Error>"))
          throw new S3RequestError(response.status, /<Code>([^<]+)<\/Code>/.exec(text)?.[1], `S3 complete of ${key} failed`);
      });
    } catch (error) {
      const started: string | null = uploadId;
      if (started !== null)
        await send("DELETE", key, { query: `uploadId=${encodeURIComponent(started)}` }, async (response) => {
          await response.body?.cancel();
        }).catch(() => undefined);
      throw error;
    }
  }

  async function presignGet(key: string, ttlSeconds: number): Promise<string> {
    const url = new URL(objectUrl(key));
    url.searchParams.set("X-Amz-Expires", String(ttlSeconds));
    return (await client.sign(url.toString(), { method: "GET", aws: { signQuery: true } })).url;
  }

  return { driver: "s3", bucket: config.bucket, put, get, head, open, delete: remove, probe, presignGet, objectUrl, putStream };
}

function objectInfo(response: Response): ObjectInfo {
  const etag = response.headers.get("etag");
  return {
    contentType: response.headers.get("content-type") ?? DEFAULT_CONTENT_TYPE,
    size: Number(response.headers.get("content-length") ?? 0),
    // Only a strong tag can validate a range (If-Range).
    etag: etag && !etag.startsWith("W/") ? etag : null,
  };
}

/** 404 for the key means no object; any other failure (a missing bucket included) throws. */
async function isMissing(response: Response, method: string, key: string): Promise<boolean> {
  if (response.ok) return false;
  const error = await requestError(response, method, key);
  if (response.status === 404 && error.code !== "NoSuchBucket") return true;
  throw error;
}

async function requestError(response: Response, method: string, key: string): Promise<S3RequestError> {
  const text = await response.text().catch(() => "");
  const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]+)<\/Message>/.exec(text)?.[1];
  return new S3RequestError(
    response.status,
    code,
    `S3 ${method} ${key} failed: HTTP ${response.status}${code ? ` ${code}` : ""}${message ? `: ${message}` : ""}`,
  );
}
