import "server-only";
import { ApiError, invalidRequest } from "../../base/error-table";
import { MAX_BODY_BYTES, readCappedBody } from "./read-capped-body";

// Request bodies: size-capped (ERR1011) before parsing, JSON objects only (ERR1001); a /v1 body
// must also say it is JSON (ERR1015, checked by operation-input.ts).

/**
 * application/json or a `+json` type, in UTF-8 (RFC 8259); a request without a Content-Type is
 * read as JSON too. Anything else is the client's mistake: ERR1015, never a parse attempt.
 */
export function assertJsonContentType(header: string | null): void {
  if (header === null || header.trim() === "") return;
  const [mediaType = "", ...parameters] = header.split(";").map((part) => part.trim().toLowerCase());
  const json = mediaType === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(mediaType);
  const charset = parameters
    .find((parameter) => parameter.startsWith("charset="))
    ?.slice("charset=".length)
    .replace(/^"|"$/g, "");
  if (json && (charset === undefined || charset === "utf-8" || charset === "utf8")) return;
  throw new ApiError("ERR1015", `The request body must be sent as Content-Type: application/json (UTF-8), not ${header.slice(0, 100)}.`, {
    content_type: header.slice(0, 200),
    supported: ["application/json"],
  });
}

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
