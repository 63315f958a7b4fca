import { errorResponse, newRequestId } from "./envelope";
import { ApiError } from "../../base/error-table";
import { log } from "../../base/log";
import { contentRange, decideRange, ifRangeAllows, type RangeDecision } from "../../storage/byte-range";
import { getStorage } from "../../storage/get-storage";
import { verifyFileSignature } from "../../storage/signed-url";
import { customerFileUrl } from "../../storage/destinations/customer-file-link";
import { CUSTOMER_FILE_PREFIX } from "../../generations/records/output-files";
import { InvalidStorageKeyError, type ObjectInfo, type ObjectStream, type OutputStorage } from "../../storage/storage";

// GET and HEAD /files/<key>?expires=&signature=: the signature first (nothing about a file is
// told to a caller without a valid link), then the object, streamed from whichever driver.
// Outputs are served from the app's own origin, so they are never sniffed as, or run as, pages.
// A GET with one byte range gets 206 and only those bytes (byte-range.ts); HEAD ignores Range.

export async function serveSignedFile(request: Request, key: string, storage: OutputStorage = getStorage()): Promise<Response> {
  const requestId = newRequestId();
  const query = new URL(request.url).searchParams;
  const expires = query.get("expires") ?? "";
  const now = new Date();
  if (!verifyFileSignature(key, expires, query.get("signature") ?? "", now)) {
    return errorResponse(new ApiError("ERR1001", "The file link has expired or is invalid."), requestId);
  }
  const notFound = () => errorResponse(new ApiError("ERR1006", "The file does not exist or was deleted."), requestId);
  // A file in the account's own bucket: a redirect to it, presigned now.
  if (key.startsWith(`${CUSTOMER_FILE_PREFIX}/`)) {
    const location = await customerFileUrl(key).catch(() => null);
    if (!location) return notFound();
    return new Response(null, { status: 302, headers: { location, "cache-control": "no-store", "x-request-id": requestId } });
  }

  try {
    const rangeHeader = request.method === "GET" ? request.headers.get("range") : null;
    let decision: RangeDecision = { kind: "whole" };
    let object: ObjectInfo | ObjectStream | null;
    if (request.method === "HEAD") {
      object = await storage.head(key);
    } else if (rangeHeader === null) {
      object = await storage.open(key);
    } else {
      // The size and validator decide the range before any byte is read.
      const info = await storage.head(key);
      if (!info) return notFound();
      if (ifRangeAllows(request.headers.get("if-range"), info.etag)) decision = decideRange(rangeHeader, info.size);
      if (decision.kind === "unsatisfiable") {
        const error = new ApiError("ERR1013", undefined, { range: rangeHeader, size: info.size });
        return errorResponse(error, requestId, { "content-range": `bytes */${info.size}`, "accept-ranges": "bytes" });
      }
      object = await storage.open(key, decision.kind === "partial" ? decision.range : undefined);
    }
    if (!object) return notFound();
    const remaining = Math.max(0, Number(expires) - Math.floor(now.getTime() / 1000));
    const headers: Record<string, string> = {
      "content-type": object.contentType,
      "content-length": String(object.size),
      "accept-ranges": "bytes",
      "cache-control": `private, max-age=${remaining}`,
      "content-disposition": "inline",
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
      "x-request-id": requestId,
    };
    if (object.etag) headers.etag = object.etag;
    if (decision.kind === "partial") {
      const { range } = decision;
      headers["content-range"] = contentRange(range, object.size);
      headers["content-length"] = String(range.end - range.start + 1);
      return new Response(isStream(object) ? object.body : null, { status: 206, headers });
    }
    return new Response(isStream(object) ? object.body : null, { status: 200, headers });
  } catch (error) {
    if (error instanceof InvalidStorageKeyError) return notFound();
    log.error("serving an output file failed", { error: error instanceof Error ? error.message : String(error) });
    return errorResponse(new ApiError("ERR5000"), requestId);
  }
}

function isStream(object: ObjectInfo | ObjectStream): object is ObjectStream {
  return "body" in object;
}
