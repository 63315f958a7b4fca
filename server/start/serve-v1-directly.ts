import type http from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { RouteHandler } from "../edge/http/direct-routes";
import { errorResponse, newRequestId } from "../edge/http/envelope";
import { toApiError } from "../base/error-table";
import { log } from "../base/log";

// A /v1 request answered by its route's own handler, registered when Next loaded the route
// (http/direct-routes.ts), without Next's router: the Web Request a route handler gets, built from
// the Node request, and its Response written back. What Next would add is added here too: the
// parameters as the route's context, the body as a stream, an abort signal when the client hangs
// up before the answer, gzip for a client that accepts it; and Content-Length, for a body read
// whole. Not added: Next's `Vary: rsc, next-router-*` (for its own pages, not JSON).

const gzip = promisify(zlib.gzip);
/** As Next's compression: bodies of 1 KiB or more, gzipped for a client that accepts it. */
const COMPRESS_FROM_BYTES = 1024;

/** Whether Accept-Encoding allows gzip: named with q > 0, or through `*` when gzip is not named. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    weights.set(coding.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return (weights.get("gzip") ?? weights.get("*") ?? 0) > 0;
}

/**
 * An event stream (the live /v1 streams) or a download is written as it is produced, chunk by chunk, never
 * gzipped or buffered; the client hanging up cancels it. The next chunk is read only once the
 * socket took the last (`drain`), so what the client has not read stays counted in the stream's
 * queue, which ends a client too far behind by erroring: its connection is dropped then.
 */
async function writeEventStream(response: Response, headers: Record<string, string | string[]>, res: http.ServerResponse) {
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const body = response.body;
  if (!body) return void res.end();
  const reader = body.getReader();
  const gone = new Promise<void>((resolve) => res.once("close", resolve));
  void gone.then(() => reader.cancel().catch(() => undefined));
  for (;;) {
    const next = await reader.read().catch(() => null);
    if (next === null) return void res.destroy();
    if (next.done || res.destroyed) break;
    if (!res.write(next.value)) await Promise.race([new Promise((resolve) => res.once("drain", resolve)), gone]);
  }
  res.end();
}

/** Event streams and file downloads (`Content-Disposition: attachment`, the exports) go out as they are produced. */
function isStreamed(response: Response): boolean {
  return (
    response.headers.get("content-type")?.startsWith("text/event-stream") === true ||
    response.headers.get("content-disposition")?.startsWith("attachment") === true
  );
}

/** Registered route handlers answer JSON envelopes: small enough to send whole, with a length. */
async function writeResponse(response: Response, req: http.IncomingMessage, res: http.ServerResponse, head = false) {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (isStreamed(response)) {
    if (!head) return writeEventStream(response, headers, res);
    // A HEAD gets the headers only: the stream (a whole export, say) is never produced.
    await response.body?.cancel();
    res.writeHead(response.status, headers);
    return void res.end();
  }
  let body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
  if (body && body.length >= COMPRESS_FROM_BYTES && !headers["content-encoding"] && acceptsGzip(req.headers["accept-encoding"])) {
    body = await gzip(body);
    headers["content-encoding"] = "gzip";
    delete headers["content-length"];
  }
  if (body && headers["content-length"] === undefined) headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined); // Node leaves the body out of a HEAD answer
}

/**
 * The request body as a Web stream, read from the socket as the handler pulls (back-pressure).
 * Our own rather than Readable.toWeb: once the answer is out, what the handler left unread (a
 * body refused for its size) must be read and dropped, or the parser stops there and the next
 * request on the connection is never read (`discardUnread`).
 */
function bodyOf(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        // (A stream the handler cancelled is closed already; nothing to tell it then.)
        req.once("end", () => ignoreClosed(() => controller.close()));
        req.once("error", (error) => ignoreClosed(() => controller.error(error)));
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        discardUnread(req);
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

function ignoreClosed(action: () => void) {
  try {
    action();
  } catch {
    // the stream was cancelled or closed
  }
}

/** As Node does for a body no one reads: the rest is read and dropped; the connection stays usable. */
function discardUnread(req: http.IncomingMessage) {
  if (req.complete) return;
  req.removeAllListeners("data");
  req.on("data", () => {});
  req.resume();
}

function requestOf(req: http.IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, { method, headers, signal, ...(hasBody ? { body: bodyOf(req), duplex: "half" } : {}) } as RequestInit);
}

/** `params` as the edge bound them from the path (v1-edge.ts). */
export async function serveV1Directly(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  handler: RouteHandler,
  params: Record<string, string>,
  /** A HEAD served as GET: no body is sent, and a stream is not read. */
  head = false,
) {
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  try {
    const response = await handler(requestOf(req, aborted.signal), { params: Promise.resolve(params) });
    await writeResponse(response, req, res, head);
  } catch (error) {
    // Route handlers answer their own errors in the envelope; this is what escaped them.
    log.error("unhandled error serving a /v1 route directly", {
      path: req.url,
      error: error instanceof Error ? error.stack : String(error),
    });
    if (res.headersSent) return void res.destroy();
    await writeResponse(errorResponse(toApiError(error), newRequestId()), req, res);
  } finally {
    discardUnread(req);
  }
}
