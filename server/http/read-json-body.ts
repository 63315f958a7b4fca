import "server-only";
import { ApiError, invalidRequest } from "../errors";

// Request bodies: size-capped (ERR1011) before parsing, JSON objects only (ERR1001).

export const MAX_BODY_BYTES = 256 * 1024;

export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<{ body: unknown; raw: string }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new ApiError("ERR1011", `The body may be at most ${maxBytes} bytes.`, { max_bytes: maxBytes });
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ApiError("ERR1011", `The body may be at most ${maxBytes} bytes.`, { max_bytes: maxBytes });
    }
    chunks.push(value);
  }
  const raw = Buffer.concat(chunks).toString("utf8");
  if (raw.trim() === "") throw invalidRequest("The request body must be a JSON object.", [{ field: "body", message: "is required" }]);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw invalidRequest("The request body is not valid JSON.", [{ field: "body", message: "is not valid JSON" }]);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidRequest("The request body must be a JSON object.", [{ field: "body", message: "must be a JSON object" }]);
  }
  return { body, raw };
}
