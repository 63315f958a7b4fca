import "server-only";
import { ApiError } from "../../base/error-table";

// A request body read whole, but never past a cap: a Content-Length over it is refused before a
// byte is read; a body without one (chunked) is counted as it arrives and cut at the cap.

export const MAX_BODY_BYTES = 256 * 1024;

function tooLarge(maxBytes: number) {
  return new ApiError("ERR1011", `The body may be at most ${maxBytes} bytes.`, { max_bytes: maxBytes });
}

/** Refuses (ERR1011) a body whose declared length is over the cap, before reading it. */
export function assertDeclaredLengthWithin(request: Request, maxBytes = MAX_BODY_BYTES) {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
}

/** The body's bytes, or ERR1011 as soon as they pass `maxBytes` (the rest is left unread). */
export async function readCappedBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Uint8Array<ArrayBuffer>> {
  assertDeclaredLengthWithin(request, maxBytes);
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
