import type http from "node:http";
import { Readable } from "node:stream";
import { serveSignedFile } from "../edge/http/serve-signed-file";

// Output files go straight from storage to the socket: Next's route handlers drop
// Content-Length from streamed bodies, and media players want it. Same checks, same answers as
// app/files/[...key]/route.ts (which serves them where this server is not in front).

export function isFileRequest(req: http.IncomingMessage) {
  return (req.method === "GET" || req.method === "HEAD") && (req.url ?? "").startsWith("/files/");
}

export async function serveFileDirectly(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", "http://internal");
  const key = decodeURIComponent(url.pathname.slice("/files/".length));
  // The headers the answer depends on, and nothing else.
  const headers = new Headers();
  for (const name of ["range", "if-range"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  const response = await serveSignedFile(new Request(url, { method: req.method, headers }), key);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel();
    res.end();
    return;
  }
  Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).pipe(res);
}
