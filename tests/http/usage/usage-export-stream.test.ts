import { describe, expect, it } from "vitest";
import { accountWithKey } from "@/tests/support/fixtures";
import { baseUrl } from "@/tests/support/http";
import { addGenerationSeries, utcDay } from "@/tests/support/usage-history";

// GET /v1/usage/export of a large history over real HTTP: the file comes as a chunked stream, in
// many pieces, without a length (it is never assembled first), and ends whole.

describe("usage export over HTTP: streamed", () => {
  it("a 40,000-row file arrives in many chunks without a Content-Length, every row there", async () => {
    const { key, accountId } = await accountWithKey({ plan: "pro" });
    for (let index = 0; index < 4; index += 1)
      await addGenerationSeries(accountId, { count: 10_000, day: utcDay(5 - index), keyId: null, offset: index * 10_000 });
    const response = await fetch(`${baseUrl()}/v1/usage/export?from=${utcDay(5)}&to=${utcDay(1)}`, {
      headers: { authorization: `Bearer ${key}`, "accept-encoding": "identity" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let chunks = 0;
    let rows = 0;
    let tail = "";
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks += 1;
      const text = tail + decoder.decode(next.value, { stream: true });
      const lines = text.split("\r\n");
      tail = lines.pop() ?? "";
      rows += lines.length;
    }
    expect(tail).toBe("");
    expect(rows).toBe(1 + 40_000);
    expect(chunks).toBeGreaterThan(10);
  }, 120_000);
});
