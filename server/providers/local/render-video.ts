import "server-only";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { captionSvg } from "./caption";
import { videoSize } from "./frame-size";
import { readMp4Summary } from "./mp4-summary";
import { RenderInputError } from "./render-errors";
import { inputLayer, renderBackground } from "./render-image";
import { runFfmpeg } from "./run-ffmpeg";
import { seededRandom, seedFrom } from "./seeded-random";

// The local provider's video model: a seeded background larger than the frame, panned by ffmpeg
// from one corner region to another, with the prompt fixed on top, optionally fading into the
// caller's last frame and carrying a sine tone. H.264 + AAC in MP4, 24 fps, exact duration.

export type RenderVideoParams = {
  prompt: string;
  ratio: string;
  durationSeconds: number;
  /** "480p" or "720p": the output height. */
  resolution: string;
  generateAudio: boolean;
  seed: number;
  /** Image-to-video: blended into the background. */
  startImage?: Uint8Array;
  /** The end frame: faded in over the last second. */
  endImage?: Uint8Array;
  signal?: AbortSignal;
  timeoutMs?: number;
};

export type RenderedVideo = { bytes: Uint8Array; contentType: "video/mp4"; width: number; height: number; durationSeconds: number };

export const FRAME_RATE = 24;
const DEFAULT_TIMEOUT_MS = 60_000;
const AUDIO_RATE = 48_000;
// The AAC encoder prepends 1024 priming samples that count toward the track's media duration,
// so the tone is that much shorter and the movie (mvhd) duration stays exactly the request.
const AAC_PRIMING_SAMPLES = 1024;
// The background is this much larger than the frame on each axis, for the pan to travel over.
const PAN_MARGIN = 1.2;

export async function renderVideo(params: RenderVideoParams): Promise<RenderedVideo> {
  const size = videoSize(params.ratio, params.resolution);
  const frames = Math.round(params.durationSeconds * FRAME_RATE);
  if (!Number.isFinite(params.durationSeconds) || frames < 1 || params.durationSeconds > 60) {
    throw new RenderInputError(`unsupported duration ${params.durationSeconds} s`);
  }
  const duration = frames / FRAME_RATE;
  const random = seededRandom(seedFrom("video-motion", params.prompt, params.seed));
  const canvas = { width: even(size.width * PAN_MARGIN), height: even(size.height * PAN_MARGIN) };

  const workdir = await mkdtemp(join(tmpdir(), "darkroom-video-"));
  try {
    const background = join(workdir, "background.png");
    const caption = join(workdir, "caption.png");
    const end = join(workdir, "end.png");
    const output = join(workdir, "video.mp4");
    await Promise.all([
      renderBackground(["video", params.prompt, params.seed], canvas, params.startImage).then((png) => writeFile(background, png)),
      sharp(Buffer.from(captionSvg(params.prompt, size.width, size.height)))
        .png()
        .toBuffer()
        .then((png) => writeFile(caption, png)),
      params.endImage ? inputLayer(params.endImage, size, 1).then((png) => writeFile(end, png)) : undefined,
    ]);
    params.signal?.throwIfAborted();

    // Pan from one random point of the margin to another; n counts frames from 0.
    const [fromX, toX, fromY, toY] = [random.next(), random.next(), random.next(), random.next()];
    const step = frames > 1 ? 1 / (frames - 1) : 0;
    const pan = (from: number, to: number, axis: "iw-ow" | "ih-oh") =>
      `'(${axis})*(${from.toFixed(4)}+${(to - from).toFixed(4)}*n*${step.toFixed(6)})'`;
    const still = `loop=loop=${frames - 1}:size=1:start=0,setpts=N/${FRAME_RATE}/TB`;
    // Converted to yuv420p once, before the loop, rather than once per frame.
    const graph = [
      `[0:v]format=yuv420p,${still},crop=${size.width}:${size.height}:x=${pan(fromX, toX, "iw-ow")}:y=${pan(fromY, toY, "ih-oh")}[moving]`,
      `[1:v]format=yuva420p[caption]`,
    ];
    let picture = "moving";
    const inputs = ["-i", background, "-i", caption];
    if (params.endImage) {
      const fade = Math.min(1, duration / 3);
      inputs.push("-i", end);
      graph.push(`[2:v]${still},format=rgba,fade=t=in:st=${(duration - fade).toFixed(3)}:d=${fade.toFixed(3)}:alpha=1[end]`);
      graph.push(`[moving][end]overlay=0:0:format=yuv420[ending]`);
      picture = "ending";
    }
    graph.push(`[${picture}][caption]overlay=0:0:format=yuv420,format=yuv420p[video]`);

    const audio: string[] = [];
    if (params.generateAudio) {
      const toneSeconds = duration - AAC_PRIMING_SAMPLES / AUDIO_RATE;
      const frequency = random.int(220, 660);
      inputs.push("-f", "lavfi", "-i", `sine=frequency=${frequency}:sample_rate=${AUDIO_RATE}:duration=${toneSeconds.toFixed(6)}`);
      const tone = params.endImage ? 3 : 2;
      const fadeOut = Math.min(0.25, toneSeconds / 4);
      graph.push(`[${tone}:a]afade=t=in:d=0.05,afade=t=out:st=${(toneSeconds - fadeOut).toFixed(4)}:d=${fadeOut.toFixed(4)}[audio]`);
      audio.push("-map", "[audio]", "-c:a", "aac", "-b:a", "96k", "-flags:a", "+bitexact");
    }

    await runFfmpeg(
      [
        ...inputs,
        "-filter_complex",
        graph.join(";"),
        "-map",
        "[video]",
        ...audio,
        "-r",
        String(FRAME_RATE),
        // A fixed thread count: x264's output depends on it, and outputs must not depend on the machine.
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-crf",
        "23",
        "-pix_fmt",
        "yuv420p",
        "-threads",
        "2",
        "-flags:v",
        "+bitexact",
        "-fflags",
        "+bitexact",
        "-map_metadata",
        "-1",
        "-movflags",
        "+faststart",
        "-y",
        output,
      ],
      { timeoutMs: params.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: params.signal },
    );
    const bytes = new Uint8Array(await readFile(output));
    // Reading our own header back: a broken file fails here, not in a customer's player.
    const summary = readMp4Summary(bytes);
    return { bytes, contentType: "video/mp4", ...size, durationSeconds: summary.durationSeconds };
  } finally {
    await rm(workdir, { recursive: true, force: true });
  }
}

function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}
