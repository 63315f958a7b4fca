import { defineModels } from "../model-data";

// Kuaishou's Kling. Image-to-video only: both providers require a start image, and the video
// keeps its ratio (neither input takes one). The standard tier renders 720p and the pro tier
// 1080p: a Replicate `mode`, a fal endpoint of its own.

export default defineModels([
  {
    identifier: "kwaivgi/kling-v2.1",
    name: "Kling 2.1",
    type: "video",
    providers: [
      {
        id: "replicate",
        model: "kwaivgi/kling-v2.1",
        input: {
          prompt: "prompt",
          start_image: "input_file",
          mode: { from: "resolution", map: { "720p": "standard", "1080p": "pro" } },
          duration: "duration",
        },
        ignores: ["ratio"],
        cost: { per: "second", usd: { "720p": "0.05", "1080p": "0.09" } },
      },
      {
        id: "fal",
        model: "fal-ai/kling-video/v2.1/standard/image-to-video",
        model_by: { from: "resolution", map: { "720p": "fal-ai/kling-video/v2.1/standard/image-to-video", "1080p": "fal-ai/kling-video/v2.1/pro/image-to-video" } },
        input: { prompt: "prompt", image_url: "input_file", duration: { from: "duration", as: "string" } },
        ignores: ["ratio"],
        cost: { per: "second", usd: { "720p": "0.05", "1080p": "0.09" } },
      },
    ],
    ratios: ["16:9", "9:16", "1:1"],
    input_files: { max: 1, required: true },
    timeout_seconds: 900,
    durations: [5, 10],
    resolutions: ["720p", "1080p"],
    price: { per: "second", usd: { "720p": "0.050", "1080p": "0.090" } },
  },
]);
