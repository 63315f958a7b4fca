import { defineModels } from "../model-data";

// Other popular video models that only the hosts run, on fal (each endpoint's published schema
// and price). Only options every listed endpoint takes are offered; fal's prices per video become
// per-second prices over the clip's length.

/** PixVerse Fast: 5 s clips; fal bills $0.30 at 540p, $0.40 at 720p. */
const pixverseFast = {
  type: "video" as const,
  timeout_seconds: 600,
  durations: [5],
  resolutions: ["720p", "540p"],
  price: { per: "second" as const, usd: { "720p": "0.080", "540p": "0.060" } },
};
const pixverseFastCost = { per: "second" as const, usd: { "720p": "0.08", "540p": "0.06" } };

export default defineModels([
  {
    ...pixverseFast,
    identifier: "pixverse/pixverse-v4-fast",
    name: "PixVerse v4 Fast",
    providers: [
      {
        id: "fal",
        model: "fal-ai/pixverse/v4/text-to-video/fast",
        // Its published input lists no seed, so none is sent.
        input: { prompt: "prompt", aspect_ratio: "ratio", resolution: "resolution" },
        cost: pixverseFastCost,
      },
    ],
    ratios: ["16:9", "4:3", "1:1", "3:4", "9:16"],
  },
  {
    // PixVerse v4.5 Fast from a first frame, whose ratio the clip keeps (the endpoint takes none).
    ...pixverseFast,
    identifier: "pixverse/pixverse-v4.5-fast-i2v",
    name: "PixVerse v4.5 Fast (image-to-video)",
    providers: [
      {
        id: "fal",
        model: "fal-ai/pixverse/v4.5/image-to-video/fast",
        input: { prompt: "prompt", image_url: "input_file", resolution: "resolution", seed: "seed" },
        ignores: ["ratio"],
        cost: pixverseFastCost,
      },
    ],
    ratios: ["16:9"],
    input_files: { max: 1, required: true },
  },
  {
    // Tencent's HunyuanVideo from a first frame: 129 frames at 720p ($0.40 a video), listed as 5 s.
    identifier: "tencent/hunyuan-video-i2v",
    name: "HunyuanVideo (image-to-video)",
    type: "video",
    providers: [
      {
        id: "fal",
        model: "fal-ai/hunyuan-video-image-to-video",
        input: { prompt: "prompt", image_url: "input_file", aspect_ratio: "ratio", resolution: { const: "720p" }, seed: "seed" },
        cost: { per: "second", usd: { "720p": "0.08" } },
      },
    ],
    ratios: ["16:9", "9:16"],
    input_files: { max: 1, required: true },
    timeout_seconds: 900,
    durations: [5],
    resolutions: ["720p"],
    price: { per: "second", usd: { "720p": "0.080" } },
    note: "fal renders its default 129 frames (a little over 5 s); the price is fal's $0.40 a video.",
  },
]);
