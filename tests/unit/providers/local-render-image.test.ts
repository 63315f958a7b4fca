import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { layoutCaption, wrapText } from "@/server/providers/local/caption";
import { imageSize } from "@/server/providers/local/frame-size";
import { foldForFont } from "@/server/providers/local/pixel-font";
import { RenderInputError } from "@/server/providers/local/render-errors";
import { renderBackground, renderImage, type RenderImageParams } from "@/server/providers/local/render-image";

// The local provider's image renderer, with real sharp: sizes, formats, determinism, and the
// prompt visibly drawn.

const base: RenderImageParams = { prompt: "A lighthouse on a cliff at dusk", ratio: "1:1", format: "png", seed: 42, index: 0 };

const isPng = (b: Uint8Array) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const isWebp = (b: Uint8Array) =>
  Buffer.from(b.subarray(0, 4)).toString("latin1") === "RIFF" && Buffer.from(b.subarray(8, 12)).toString("latin1") === "WEBP";

describe("imageSize", () => {
  it.each([
    ["1:1", 1024, 1024],
    ["16:9", 1024, 576],
    ["9:16", 576, 1024],
    ["4:3", 1024, 768],
    ["3:4", 768, 1024],
    ["3:2", 1024, 683],
    ["2:3", 683, 1024],
  ])("%s is %i×%i with the longest side 1024", (ratio, width, height) => {
    expect(imageSize(ratio)).toEqual({ width, height });
  });

  it("takes an explicit width and derives the height", () => {
    expect(imageSize("16:9", 640)).toEqual({ width: 640, height: 360 });
  });

  it.each(["", "16x9", "0:1", "1:0", "a:b", "1:1:1"])("refuses ratio %j", (ratio) => {
    expect(() => imageSize(ratio)).toThrow(RenderInputError);
  });
});

describe("renderImage", () => {
  it.each([
    ["1:1", 1024, 1024],
    ["16:9", 1024, 576],
    ["9:16", 576, 1024],
    ["3:2", 1024, 683],
  ])("renders %s at %i×%i, as the decoder sees it", async (ratio, width, height) => {
    const image = await renderImage({ ...base, ratio });
    expect({ width: image.width, height: image.height }).toEqual({ width, height });
    const metadata = await sharp(image.bytes).metadata();
    expect({ width: metadata.width, height: metadata.height, format: metadata.format }).toEqual({ width, height, format: "png" });
  });

  it.each([
    ["png", "image/png", isPng],
    ["jpg", "image/jpeg", isJpeg],
    ["jpeg", "image/jpeg", isJpeg],
    ["webp", "image/webp", isWebp],
  ] as const)("encodes %s with its magic bytes and content type", async (format, contentType, magic) => {
    const image = await renderImage({ ...base, format });
    expect(image.contentType).toBe(contentType);
    expect(magic(image.bytes)).toBe(true);
  });

  it("refuses an unknown format", async () => {
    await expect(renderImage({ ...base, format: "gif" })).rejects.toBeInstanceOf(RenderInputError);
  });

  it.each(["png", "jpg", "webp"])("is byte-identical for the same inputs (%s)", async (format) => {
    const [first, second] = await Promise.all([renderImage({ ...base, format }), renderImage({ ...base, format })]);
    expect(Buffer.from(first.bytes).equals(Buffer.from(second.bytes))).toBe(true);
  });

  it("differs when the prompt, the seed or the output index differs", async () => {
    const variants = await Promise.all([
      renderImage(base),
      renderImage({ ...base, prompt: `${base.prompt}!` }),
      renderImage({ ...base, seed: 43 }),
      renderImage({ ...base, index: 1 }),
    ]);
    const hashes = new Set(variants.map((image) => Buffer.from(image.bytes).toString("base64")));
    expect(hashes.size).toBe(4);
  });

  it("draws the prompt: only the caption panel differs from the bare background, with white ink in it", async () => {
    const size = { width: 1024, height: 1024 };
    const [captioned, background] = await Promise.all([
      renderImage(base).then((image) => sharp(image.bytes).removeAlpha().raw().toBuffer()),
      renderBackground(["image", base.prompt, base.seed, base.index], size).then((png) => sharp(png).removeAlpha().raw().toBuffer()),
    ]);
    let top = size.height;
    let bottom = -1;
    let white = 0;
    for (let pixel = 0; pixel < size.width * size.height; pixel++) {
      const at = pixel * 3;
      if (captioned[at] === background[at] && captioned[at + 1] === background[at + 1] && captioned[at + 2] === background[at + 2])
        continue;
      const row = Math.floor(pixel / size.width);
      top = Math.min(top, row);
      bottom = Math.max(bottom, row);
      if (captioned[at]! > 240 && captioned[at + 1]! > 240 && captioned[at + 2]! > 240) white++;
    }
    expect(bottom).toBeGreaterThan(top);
    // The panel sits in the lower part of the frame, and the text is there.
    expect(top).toBeGreaterThan(size.height / 2);
    expect(white).toBeGreaterThan(2_000);
  });

  it("draws markup-like and non-ASCII prompts without breaking the SVG", async () => {
    const prompt = `</svg><script>alert("x")</script> & Café — 日本語 🎉 ${"]]>".repeat(3)}`;
    const image = await renderImage({ ...base, prompt });
    expect(isPng(image.bytes)).toBe(true);
    expect(Buffer.from(image.bytes).equals(Buffer.from((await renderImage({ ...base, prompt: "" })).bytes))).toBe(false);
  });

  it("renders a very long prompt, cut to fit", async () => {
    const image = await renderImage({ ...base, ratio: "16:9", prompt: "word ".repeat(2_000) });
    expect(image.width).toBe(1024);
    expect(isPng(image.bytes)).toBe(true);
  });

  it("blends an input image (image-to-image), deterministically", async () => {
    const input = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#00ff00" } })
      .png()
      .toBuffer();
    const [plain, blended, again] = await Promise.all([
      renderImage(base),
      renderImage({ ...base, inputImage: input }),
      renderImage({ ...base, inputImage: input }),
    ]);
    expect(Buffer.from(blended.bytes).equals(Buffer.from(plain.bytes))).toBe(false);
    expect(Buffer.from(blended.bytes).equals(Buffer.from(again.bytes))).toBe(true);
    const { dominant } = await sharp(blended.bytes).stats();
    expect(dominant.g).toBeGreaterThan(dominant.r);
  });

  it("refuses an input that is not an image", async () => {
    await expect(renderImage({ ...base, inputImage: new TextEncoder().encode("not an image") })).rejects.toBeInstanceOf(RenderInputError);
  });
});

describe("caption layout", () => {
  it("wraps on words and breaks words longer than a line", () => {
    expect(wrapText("a lighthouse on a cliff", 12)).toEqual(["a lighthouse", "on a cliff"]);
    expect(wrapText("abcdefghij xy", 4)).toEqual(["abcd", "efgh", "ij", "xy"]);
  });

  it("uses big letters for a short prompt and smaller ones for a longer one", () => {
    const short = layoutCaption("Hi", 1024, 1024);
    const long = layoutCaption("word ".repeat(100), 1024, 1024);
    expect(short.lines).toEqual(["Hi"]);
    expect(short.scale).toBeGreaterThan(long.scale);
  });

  it("ends a prompt too long to fit with an ellipsis", () => {
    const { lines } = layoutCaption("word ".repeat(5_000), 854, 480);
    expect(lines.at(-1)?.endsWith("...")).toBe(true);
  });

  it("folds accents and punctuation, and boxes what the font cannot draw", () => {
    expect(foldForFont("Café “naïve” — ok… 日本")).toBe('Cafe "naive" - ok... \u25a1\u25a1');
    expect(foldForFont("🎉")).toBe("\u25a1");
  });
});
