import "server-only";
import { RenderInputError } from "./render-errors";

// Output dimensions from the request: images by ratio (longest side 1024 unless a width is
// given), videos by resolution height with an even width (yuv420p needs even sides).

export const DEFAULT_LONG_SIDE = 1024;

export type FrameSize = { width: number; height: number };

export function parseRatio(ratio: string): { across: number; down: number } {
  const match = /^(\d{1,3}):(\d{1,3})$/.exec(ratio);
  const across = Number(match?.[1]);
  const down = Number(match?.[2]);
  if (!match || across < 1 || down < 1) throw new RenderInputError(`unsupported aspect ratio "${ratio}"`);
  return { across, down };
}

export function imageSize(ratio: string, width?: number): FrameSize {
  const { across, down } = parseRatio(ratio);
  if (width !== undefined) {
    if (!Number.isInteger(width) || width < 16 || width > 4096) throw new RenderInputError(`unsupported image width ${width}`);
    return { width, height: Math.max(1, Math.round((width * down) / across)) };
  }
  return across >= down
    ? { width: DEFAULT_LONG_SIDE, height: Math.round((DEFAULT_LONG_SIDE * down) / across) }
    : { width: Math.round((DEFAULT_LONG_SIDE * across) / down), height: DEFAULT_LONG_SIDE };
}

/** "480p" → height 480, "720p" → 720; width from the ratio, rounded to an even number. */
export function videoSize(ratio: string, resolution: string): FrameSize {
  const { across, down } = parseRatio(ratio);
  const height = Number(/^(\d{3,4})p$/.exec(resolution)?.[1]);
  if (!Number.isInteger(height) || height < 144 || height > 1080) throw new RenderInputError(`unsupported resolution "${resolution}"`);
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
  return { width: even((height * across) / down), height: even(height) };
}
