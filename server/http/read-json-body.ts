import "server-only";
import { invalidRequest } from "../errors";
import { MAX_BODY_BYTES, readCappedBody } from "./read-capped-body";

// Request bodies: size-capped (ERR1011) before parsing, JSON objects only (ERR1001).

export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<{ body: unknown; raw: string }> {
  const bytes = await readCappedBody(request, maxBytes);
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
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
