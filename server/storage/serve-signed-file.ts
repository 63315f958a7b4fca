import { errorResponse, newRequestId } from "../http/envelope";
import { ApiError } from "../errors";
import { log } from "../runtime/log";
import { getStorage } from "./get-storage";
import { verifyFileSignature } from "./signed-url";
import { InvalidStorageKeyError, type ObjectInfo, type ObjectStream, type OutputStorage } from "./storage";

// GET and HEAD /files/<key>?expires=&signature=: the signature first (nothing about a file is
// told to a caller without a valid link), then the object, streamed from whichever driver.
// Outputs are served from the app's own origin, so they are never sniffed as, or run as, pages.

export async function serveSignedFile(request: Request, key: string, storage: OutputStorage = getStorage()): Promise<Response> {
  const requestId = newRequestId();
  const query = new URL(request.url).searchParams;
  const expires = query.get("expires") ?? "";
  const now = new Date();
  if (!verifyFileSignature(key, expires, query.get("signature") ?? "", now)) {
    return errorResponse(new ApiError("ERR1001", "The file link has expired or is invalid."), requestId);
  }
  const notFound = () => errorResponse(new ApiError("ERR1006", "The file does not exist or was deleted."), requestId);

  try {
    const object = request.method === "HEAD" ? await storage.head(key) : await storage.open(key);
    if (!object) return notFound();
    const remaining = Math.max(0, Number(expires) - Math.floor(now.getTime() / 1000));
    const headers = {
      "content-type": object.contentType,
      "content-length": String(object.size),
      "cache-control": `private, max-age=${remaining}`,
      "content-disposition": "inline",
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
      "x-request-id": requestId,
    };
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
