import { invalidRequest } from "../errors";

// The request log's page cursor: the (createdAt, id) of the last row shown, opaque to clients.
// Rows are ordered newest first by that pair, so a page never repeats or skips a row, even
// when new requests are logged between pages.

export type RequestLogPosition = { createdAt: Date; id: string };

export function encodeRequestLogCursor(position: RequestLogPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id]), "utf8").toString("base64url");
}

export function decodeRequestLogCursor(cursor: string): RequestLogPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && typeof parsed[1] === "string") {
      const createdAt = new Date(parsed[0]);
      if (!Number.isNaN(createdAt.getTime()) && /^[0-9a-f-]{36}$/i.test(parsed[1])) return { createdAt, id: parsed[1] };
    }
  } catch {
    // falls through to the error below
  }
  throw invalidRequest("The cursor is not one this list gave out.", [{ field: "cursor", message: "is not a valid cursor" }]);
}
