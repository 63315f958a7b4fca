import "server-only";
import sharp, { type OverlayOptions, type Sharp } from "sharp";
import { backgroundSvg } from "./background";
import { captionPanel } from "./caption";
import { imageSize, type FrameSize } from "./frame-size";
import { RenderCache, renderKey } from "./render-cache";
import { RenderInputError } from "./render-errors";
import { seededRandom, seedFrom } from "./seeded-random";

// The local provider's image model: a seeded abstract background, optionally blended with the
// caller's input image, with the prompt drawn in, encoded as PNG, JPEG or WebP. Same inputs,
// same bytes.

export type RenderImageParams = {
  prompt: string;
  ratio: string;
  /** "png", "jpg" (or "jpeg"), "webp". */
  format: string;
  seed: number;
  /** Which of the N outputs of one request: each gets its own picture. */
  index: number;
  /** Output width; height follows the ratio. Default: longest side 1024. */
  width?: number;
  /** Image-to-image: blended over the background, under the caption. */
  inputImage?: Uint8Array;
};

export type RenderedImage = { bytes: Uint8Array; contentType: string; width: number; height: number };

// Every render is of new inputs (repeats come from the render cache), so libvips's operation cache
// would only hold memory (up to 50 MB by default); one thread per operation keeps a render from
// taking both cores from the API.
sharp.cache(false);
sharp.concurrency(1);

const encoders = {
  // zlib level 3: half the encode time of level 6 (7 vs 15 ms for 1024², a third of the render's
  // CPU) for files about a fifth larger (165 vs 134 KB).
  png: { contentType: "image/png", encode: (image: Sharp) => image.png({ compressionLevel: 3 }) },
  jpeg: { contentType: "image/jpeg", encode: (image: Sharp) => image.jpeg({ quality: 90 }) },
  webp: { contentType: "image/webp", encode: (image: Sharp) => image.webp({ quality: 90 }) },
} as const;

// A few MB of input is plenty for a blend; refuse decompression bombs outright.
const MAX_INPUT_PIXELS = 40_000_000;
const INPUT_OPACITY = 0.8;

export function encoderFor(format: string) {
  const key = format === "jpg" ? "jpeg" : format;
  if (key !== "png" && key !== "jpeg" && key !== "webp") throw new RenderInputError(`unsupported image format "${format}"`);
  return encoders[key];
}

const rendered = new RenderCache<RenderedImage>();

/** Same inputs, same bytes: served from the render cache when this process made them before. */
export async function renderImage(params: RenderImageParams): Promise<RenderedImage> {
  const key = renderKey({
    kind: "image",
    prompt: params.prompt,
    ratio: params.ratio,
    format: params.format,
    seed: params.seed,
    index: params.index,
    width: params.width,
    input: params.inputImage,
  });
  return rendered.getOrRender(key, () => renderImageUncached(params));
}

/** The render itself, never cached (tests compare it with the cached answer). */
export async function renderImageUncached(params: RenderImageParams): Promise<RenderedImage> {
  const encoder = encoderFor(params.format);
  const size = imageSize(params.ratio, params.width);
  const random = seededRandom(seedFrom("image", params.prompt, params.seed, params.index));
  const layers: OverlayOptions[] = [];
  if (params.inputImage) layers.push({ input: await inputLayer(params.inputImage, size) });
  const caption = captionPanel(params.prompt, size.width, size.height);
  if (caption) layers.push({ input: Buffer.from(caption.svg), left: caption.left, top: caption.top });
  const image = sharp(Buffer.from(backgroundSvg(random, size.width, size.height))).composite(layers);
  const bytes = await encoder.encode(image).toBuffer();
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType: encoder.contentType, ...size };
}

/**
 * The background alone (no caption), as PNG: the video renderer pans across it, and tests
 * compare it with the captioned image.
 */
export async function renderBackground(
  seedParts: ReadonlyArray<string | number>,
  size: FrameSize,
  inputImage?: Uint8Array,
): Promise<Buffer> {
  const random = seededRandom(seedFrom(...seedParts));
  const image = sharp(Buffer.from(backgroundSvg(random, size.width, size.height)));
  if (inputImage) image.composite([{ input: await inputLayer(inputImage, size) }]);
  return image.png({ compressionLevel: 1 }).toBuffer();
}

/** The caller's image cropped to cover the frame, made translucent so the picture shows through. */
export async function inputLayer(inputImage: Uint8Array, size: FrameSize, opacity = INPUT_OPACITY): Promise<Buffer> {
  try {
    return await sharp(inputImage, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .rotate()
      .resize(size.width, size.height, { fit: "cover" })
      .removeAlpha()
      .ensureAlpha(opacity)
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch (error) {
    throw new RenderInputError(`input image could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
