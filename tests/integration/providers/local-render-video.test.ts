import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readMp4Summary } from "@/server/providers/local/mp4-summary";
import { RenderInputError, RenderTimeoutError } from "@/server/providers/local/render-errors";
import { renderVideo, type RenderVideoParams } from "@/server/providers/local/render-video";

// The local provider's video renderer with the real ffmpeg from @ffmpeg-installer/ffmpeg.
// Durations are read from the MP4 header (mvhd), not from ffmpeg's own report.

const base: RenderVideoParams = {
  prompt: "A lighthouse on a cliff at dusk",
  ratio: "16:9",
  durationSeconds: 4,
  resolution: "480p",
  generateAudio: false,
  seed: 7,
};

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** Independent of the summary reader: `ftyp` opens the file, as the first box. */
const startsWithFtyp = (bytes: Uint8Array) => text(bytes.subarray(4, 8)) === "ftyp";

describe("renderVideo", () => {
  it("renders a 4 s 480p H.264 MP4 with the exact duration and no audio track", async () => {
    const started = performance.now();
    const video = await renderVideo(base);
    console.info(`video 4 s 480p without audio: ${Math.round(performance.now() - started)} ms`);
    expect(video).toMatchObject({ contentType: "video/mp4", width: 854, height: 480, durationSeconds: 4 });
    expect(startsWithFtyp(video.bytes)).toBe(true);
    const summary = readMp4Summary(video.bytes);
    expect(summary.durationSeconds).toBe(4);
    expect(summary.tracks).toEqual([{ handler: "vide", durationSeconds: 4, sampleEntry: "avc1", width: 854, height: 480 }]);
    expect(text(video.bytes)).not.toContain("mp4a");
    expect(text(video.bytes)).not.toContain("soun");
  });

  it("adds an AAC tone track when asked, without changing the duration", async () => {
    const started = performance.now();
    const video = await renderVideo({ ...base, generateAudio: true });
    console.info(`video 4 s 480p with audio: ${Math.round(performance.now() - started)} ms`);
    const summary = readMp4Summary(video.bytes);
    expect(summary.durationSeconds).toBe(4);
    expect(summary.tracks.map((track) => [track.handler, track.sampleEntry])).toEqual([
      ["vide", "avc1"],
      ["soun", "mp4a"],
    ]);
    expect(summary.tracks[1]?.durationSeconds).toBe(4);
    expect(text(video.bytes)).toContain("mp4a");
  });

  it.each([
    ["9:16", "720p", 6, 406, 720],
    ["1:1", "480p", 2, 480, 480],
    ["16:9", "720p", 2, 1280, 720],
  ] as const)("renders %s at %s for %i s as %i×%i", async (ratio, resolution, durationSeconds, width, height) => {
    const video = await renderVideo({ ...base, ratio, resolution, durationSeconds });
    expect({ width: video.width, height: video.height, durationSeconds: video.durationSeconds }).toEqual({
      width,
      height,
      durationSeconds,
    });
    const summary = readMp4Summary(video.bytes);
    expect(summary.durationSeconds).toBe(durationSeconds);
    expect(summary.tracks[0]).toMatchObject({ width, height });
  });

  it("is byte-identical for the same inputs and differs for another seed or prompt", async () => {
    const params = { ...base, durationSeconds: 2, generateAudio: true };
    const first = await renderVideo(params);
    const second = await renderVideo(params);
    const otherSeed = await renderVideo({ ...params, seed: 8 });
    const otherPrompt = await renderVideo({ ...params, prompt: "Another prompt" });
    expect(Buffer.from(first.bytes).equals(Buffer.from(second.bytes))).toBe(true);
    expect(Buffer.from(first.bytes).equals(Buffer.from(otherSeed.bytes))).toBe(false);
    expect(Buffer.from(first.bytes).equals(Buffer.from(otherPrompt.bytes))).toBe(false);
  });

  it("uses a start image and fades into an end frame", async () => {
    const red = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    const blue = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#0000ff" } })
      .png()
      .toBuffer();
    const plain = await renderVideo({ ...base, durationSeconds: 2 });
    const framed = await renderVideo({ ...base, durationSeconds: 2, startImage: red, endImage: blue });
    expect(readMp4Summary(framed.bytes).durationSeconds).toBe(2);
    expect(Buffer.from(framed.bytes).equals(Buffer.from(plain.bytes))).toBe(false);
  });

  it.each([[{ resolution: "4k" }], [{ ratio: "wide" }], [{ durationSeconds: 0 }], [{ durationSeconds: 600 }]])(
    "refuses %j",
    async (change) => {
      await expect(renderVideo({ ...base, ...change })).rejects.toBeInstanceOf(RenderInputError);
    },
  );

  it("stops ffmpeg on abort and on timeout, and leaves no temp files", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "darkroom-video-test-"));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      const controller = new AbortController();
      const aborted = renderVideo({ ...base, durationSeconds: 6, resolution: "720p", signal: controller.signal });
      setTimeout(() => controller.abort(new Error("stop")), 100);
      await expect(aborted).rejects.toThrow("stop");
      await expect(renderVideo({ ...base, timeoutMs: 1 })).rejects.toBeInstanceOf(RenderTimeoutError);
      expect(await readdir(scratch)).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
