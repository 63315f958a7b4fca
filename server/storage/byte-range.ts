// Range requests on output files (RFC 9110 §14), so players can seek in a video without
// downloading it. One byte range is served as 206; a range no byte of the file satisfies is 416;
// a malformed header is ignored (the whole file, 200), as the RFC asks. Several ranges also get
// the whole file: multipart/byteranges buys a player nothing, and the RFC lets a server do that.

/** Inclusive, as in Content-Range. */
export type ByteRange = { start: number; end: number };

export type RangeDecision = { kind: "whole" } | { kind: "partial"; range: ByteRange } | { kind: "unsatisfiable" };

const WHOLE: RangeDecision = { kind: "whole" };
const UNSATISFIABLE: RangeDecision = { kind: "unsatisfiable" };
const rangeSpec = /^(\d*)-(\d*)$/;

export function decideRange(header: string | null, size: number): RangeDecision {
  if (header === null) return WHOLE;
  const equals = header.indexOf("=");
  if (equals < 0 || header.slice(0, equals).trim().toLowerCase() !== "bytes") return WHOLE;
  // Empty list elements (", ,") are allowed and skipped.
  const specs = header
    .slice(equals + 1)
    .split(",")
    .map((spec) => spec.trim())
    .filter(Boolean);
  if (specs.length !== 1) return WHOLE;
  const match = rangeSpec.exec(specs[0]!);
  if (!match) return WHOLE;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return WHOLE;

  if (first === "") {
    // bytes=-n: the last n bytes (all of them when n is larger).
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return UNSATISFIABLE;
    return { kind: "partial", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return WHOLE; // invalid range-spec: ignored
  if (start >= size) return UNSATISFIABLE;
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: "partial", range: { start, end } };
}

/**
 * If-Range: serve the range only when the validator is our current strong ETag. A date never
 * matches (no Last-Modified is sent), nor a weak tag; then the whole file goes out, so a client
 * never stitches bytes of two versions together.
 */
export function ifRangeAllows(ifRange: string | null, etag: string | null): boolean {
  if (ifRange === null) return true;
  const value = ifRange.trim();
  return etag !== null && !etag.startsWith("W/") && value === etag;
}

export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}

/**
 * For a store that answered a ranged GET with more than the range (the whole object, or a wider
 * part starting at byte `bodyStart`): skip to the range, stop after it.
 */
export function sliceStream(body: ReadableStream<Uint8Array>, range: ByteRange, bodyStart = 0): ReadableStream<Uint8Array> {
  let position = bodyStart;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (position > range.end) {
          await reader.cancel().catch(() => undefined);
          controller.close();
          return;
        }
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        const chunkStart = position;
        position += value.byteLength;
        const from = Math.max(range.start - chunkStart, 0);
        const to = Math.min(range.end + 1 - chunkStart, value.byteLength);
        if (to > from) {
          controller.enqueue(value.subarray(from, to));
          return;
        }
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}
