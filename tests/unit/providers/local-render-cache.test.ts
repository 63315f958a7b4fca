import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { RenderCache, renderKey } from "@/server/providers/local/render-cache";
import { renderImage, renderImageUncached, type RenderImageParams } from "@/server/providers/local/render-image";

// The local renderer keeps outputs by the hash of their inputs: a cached answer must be the very
// bytes a fresh render makes, and any input that changes the picture must change the key.

describe("local render cache", () => {
  it("answers a repeated render with the bytes an uncached render makes", async () => {
    const input = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 200, g: 40, b: 90 } } })
      .png()
      .toBuffer();
    for (const params of [
      { prompt: "cache me", ratio: "1:1", format: "png", seed: 7, index: 0 },
      { prompt: "cache me", ratio: "16:9", format: "webp", seed: 7, index: 1 },
      { prompt: "with input", ratio: "3:2", format: "jpg", seed: 11, index: 0, inputImage: new Uint8Array(input) },
    ] satisfies RenderImageParams[]) {
      const first = await renderImage(params);
      const second = await renderImage(params);
      const fresh = await renderImageUncached(params);
      expect(Buffer.from(second.bytes).equals(Buffer.from(fresh.bytes))).toBe(true);
      expect(Buffer.from(first.bytes).equals(Buffer.from(fresh.bytes))).toBe(true);
      expect(second.contentType).toBe(fresh.contentType);
      expect([second.width, second.height]).toEqual([fresh.width, fresh.height]);
    }
  });

  it("hits only for identical inputs and hands out copies", async () => {
    const cache = new RenderCache<{ bytes: Uint8Array }>(1024);
    let renders = 0;
    const render = async () => ({ bytes: new Uint8Array([++renders, 2, 3]) });
    const a = await cache.getOrRender(renderKey({ prompt: "a", seed: 1 }), render);
    a.bytes[0] = 99;
    const again = await cache.getOrRender(renderKey({ seed: 1, prompt: "a" }), render);
    expect([...again.bytes]).toEqual([1, 2, 3]);
    await cache.getOrRender(renderKey({ prompt: "a", seed: 2 }), render);
    await cache.getOrRender(renderKey({ prompt: "a", seed: 1, input: new Uint8Array([1]) }), render);
    expect(renders).toBe(3);
    expect(cache.hits).toBe(1);
  });

  it("stays within its byte bound, evicting the least recently used", async () => {
    const cache = new RenderCache<{ bytes: Uint8Array }>(10);
    let renders = 0;
    const render = async () => ({ bytes: new Uint8Array(4).fill(++renders) });
    await cache.getOrRender("one", render);
    await cache.getOrRender("two", render);
    await cache.getOrRender("one", render);
    await cache.getOrRender("three", render);
    await cache.getOrRender("one", render);
    expect(renders).toBe(3);
    await cache.getOrRender("two", render);
    expect(renders).toBe(4);
  });
});
