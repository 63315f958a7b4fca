import { describe, expect, it } from "vitest";
import { contentRange, decideRange, ifRangeAllows, sliceStream } from "@/server/storage/byte-range";

// RFC 9110 §14 range rules on a 1,000-byte file.

const size = 1_000;
const partial = (start: number, end: number) => ({ kind: "partial", range: { start, end } });

describe("decideRange", () => {
  it("serves the whole file without a Range header", () => {
    expect(decideRange(null, size)).toEqual({ kind: "whole" });
  });

  it.each([
    ["bytes=0-99", partial(0, 99)],
    ["bytes=500-", partial(500, 999)],
    ["bytes=-100", partial(900, 999)],
    ["bytes=-5000", partial(0, 999)],
    ["bytes=990-5000", partial(990, 999)],
    ["bytes=999-999", partial(999, 999)],
    ["BYTES=1-2", partial(1, 2)],
    ["bytes=, 3-4 ,", partial(3, 4)],
  ])("%s is one satisfiable range", (header, expected) => {
    expect(decideRange(header, size)).toEqual(expected);
  });

  it.each(["bytes=1000-", "bytes=1000-1001", "bytes=-0", `bytes=${"9".repeat(30)}-`])("%s is unsatisfiable", (header) => {
    expect(decideRange(header, size)).toEqual({ kind: "unsatisfiable" });
  });

  it("finds nothing satisfiable in an empty file", () => {
    expect(decideRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
    expect(decideRange("bytes=-1", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it.each(["bytes=abc", "bytes=5-3", "bytes=", "bytes=-", "bytes=1-2-3", "items=0-1", "0-99", "bytes=0x1-2", "bytes=+1-2", "bytes=1 -2"])(
    "ignores the malformed %s",
    (header) => {
      expect(decideRange(header, size)).toEqual({ kind: "whole" });
    },
  );

  it("serves the whole file for several ranges", () => {
    expect(decideRange("bytes=0-1,5-6", size)).toEqual({ kind: "whole" });
    expect(decideRange("bytes=0-1, 2000-", size)).toEqual({ kind: "whole" });
  });
});

describe("ifRangeAllows", () => {
  const etag = '"abc-123"';
  it("allows the range without If-Range or with the current strong ETag", () => {
    expect(ifRangeAllows(null, etag)).toBe(true);
    expect(ifRangeAllows(etag, etag)).toBe(true);
  });
  it("refuses another tag, a weak tag, a date, or any validator when there is no ETag", () => {
    expect(ifRangeAllows('"other"', etag)).toBe(false);
    expect(ifRangeAllows(`W/${etag}`, etag)).toBe(false);
    expect(ifRangeAllows("Tue, 24 Nov 2026 12:00:00 GMT", etag)).toBe(false);
    expect(ifRangeAllows(etag, null)).toBe(false);
  });
});

describe("contentRange and sliceStream", () => {
  it("writes Content-Range", () => {
    expect(contentRange({ start: 0, end: 99 }, size)).toBe("bytes 0-99/1000");
  });

  it("cuts a range out of a whole object streamed in uneven chunks", async () => {
    const bytes = Uint8Array.from({ length: size }, (_, index) => index % 251);
    const chunked = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let offset = 0; offset < size; offset += 97) controller.enqueue(bytes.subarray(offset, Math.min(offset + 97, size)));
          controller.close();
        },
      });
    for (const [start, end] of [
      [0, 0],
      [96, 97],
      [100, 899],
      [970, 999],
    ] as const) {
      const sliced = Buffer.from(await new Response(sliceStream(chunked(), { start, end })).arrayBuffer());
      expect(sliced.equals(Buffer.from(bytes.subarray(start, end + 1))), `${start}-${end}`).toBe(true);
    }
  });

  it("cuts a range out of a wider part that starts later in the object", async () => {
    const part = Uint8Array.from({ length: 500 }, (_, index) => (index + 300) % 251);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(part.subarray(0, 120));
        controller.enqueue(part.subarray(120));
        controller.close();
      },
    });
    // The part holds bytes 300..799 of the object; bytes 400..409 are part[100..110).
    const sliced = Buffer.from(await new Response(sliceStream(stream, { start: 400, end: 409 }, 300)).arrayBuffer());
    expect(sliced.equals(Buffer.from(part.subarray(100, 110)))).toBe(true);
  });
});
