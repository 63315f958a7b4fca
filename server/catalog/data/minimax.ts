import type { InputMapping } from "../input-mapping";
import { defineModels, type ModelData } from "../model-data";

// MiniMax's own models, on its API and on Replicate's official copies of them (the failover).
// Priced at the dearer of the two: Replicate's $0.01 per image-01 picture (MiniMax: $0.0035), and
// MiniMax's 10 s rate for Hailuo 02 at 768P ($0.56, Replicate $0.045/s). 1080P takes 6 s only, so
// it is a model of its own (Hailuo 02 Pro). No ratio for Hailuo: 16:9 from text, a first frame's
// own otherwise. Video-01 runs on fal too (one endpoint from text, one from an image).

const hailuoOnReplicate = {
  prompt: "prompt",
  duration: "duration",
  resolution: "resolution",
  first_frame_image: "input_file",
  prompt_optimizer: { const: false },
} as const;

function hailuo(identifier: string, name: string, minimaxModel: string) {
  return {
    identifier,
    name,
    type: "video" as const,
    providers: [
      { id: "minimax" as const, model: minimaxModel, cost: { per: "second" as const, usd: { "768p": "0.056" } } },
      { id: "replicate" as const, model: identifier, input: hailuoOnReplicate, cost: { per: "second" as const, usd: { "768p": "0.045" } } },
    ],
    ratios: ["16:9"],
    input_files: { max: 1, required: false },
    timeout_seconds: 900,
    durations: [6, 10],
    resolutions: ["768p"],
    price: { per: "second" as const, usd: { "768p": "0.056" } },
  };
}

/**
 * Video-01 (T2V-01 / I2V-01 and their Director variants, which read camera moves in [brackets]):
 * 6 s at 720P only. Replicate runs each as one model that takes an optional first frame; MiniMax
 * and fal split text from image. Replicate and fal bill $0.50 a video (0.083334/s over 6 s);
 * MiniMax's own rate for these is not listed in the reference we read, so no cost is recorded.
 */
function video01(
  identifier: string,
  name: string,
  ids: { minimax: string; replicate: string; fal: string },
  fromImage: boolean,
): ModelData {
  const plain: InputMapping = { prompt: "prompt", prompt_optimizer: { const: false } };
  const perVideo = { per: "second" as const, usd: { "720p": "0.083334" } };
  return {
    identifier,
    name,
    type: "video" as const,
    providers: [
      { id: "minimax" as const, model: ids.minimax },
      {
        id: "replicate" as const,
        model: ids.replicate,
        input: fromImage ? { ...plain, first_frame_image: "input_file" } : plain,
        cost: perVideo,
      },
      {
        id: "fal" as const,
        model: ids.fal,
        input: fromImage ? { ...plain, image_url: "input_file" } : plain,
        cost: perVideo,
      },
    ],
    ratios: ["16:9"],
    ...(fromImage ? { input_files: { max: 1, required: true } } : {}),
    timeout_seconds: 900,
    durations: [6],
    resolutions: ["720p"],
    price: { per: "second" as const, usd: { "720p": "0.084" } },
    note: fromImage ? "The video keeps the first frame's ratio." : undefined,
  };
}

export default defineModels([
  {
    identifier: "minimax/image-01",
    name: "MiniMax Image-01",
    type: "image",
    providers: [
      { id: "minimax", model: "image-01", cost: { per: "image", usd: "0.0035" } },
      {
        id: "replicate",
        model: "minimax/image-01",
        input: { prompt: "prompt", aspect_ratio: "ratio", number_of_images: "output_count", prompt_optimizer: { const: false } },
        cost: { per: "image", usd: "0.01" },
      },
    ],
    ratios: ["1:1", "16:9", "4:3", "3:2", "2:3", "3:4", "9:16", "21:9"],
    formats: ["jpg"],
    max_outputs: 9,
    timeout_seconds: 120,
    price: { per: "image", usd: "0.010" },
  },
  hailuo("minimax/hailuo-02", "Hailuo 02", "MiniMax-Hailuo-02"),
  hailuo("minimax/hailuo-2.3", "Hailuo 2.3", "MiniMax-Hailuo-2.3"),
  video01(
    "minimax/video-01",
    "MiniMax Video-01",
    { minimax: "T2V-01", replicate: "minimax/video-01", fal: "fal-ai/minimax/video-01" },
    false,
  ),
  video01(
    "minimax/video-01-director",
    "MiniMax Video-01-Director",
    { minimax: "T2V-01-Director", replicate: "minimax/video-01-director", fal: "fal-ai/minimax/video-01-director" },
    false,
  ),
  video01(
    "minimax/i2v-01",
    "MiniMax I2V-01",
    { minimax: "I2V-01", replicate: "minimax/video-01", fal: "fal-ai/minimax/video-01/image-to-video" },
    true,
  ),
  video01(
    "minimax/i2v-01-director",
    "MiniMax I2V-01-Director",
    { minimax: "I2V-01-Director", replicate: "minimax/video-01-director", fal: "fal-ai/minimax/video-01-director/image-to-video" },
    true,
  ),
  {
    // Hailuo 02 at 1080P, which MiniMax renders for 6 s only ($0.49 a video, 0.081667/s).
    identifier: "minimax/hailuo-02-pro",
    name: "Hailuo 02 Pro (1080P)",
    type: "video",
    providers: [
      { id: "minimax", model: "MiniMax-Hailuo-02", cost: { per: "second", usd: { "1080p": "0.081667" } } },
      { id: "replicate", model: "minimax/hailuo-02", input: hailuoOnReplicate, cost: { per: "second", usd: { "1080p": "0.08" } } },
    ],
    ratios: ["16:9"],
    input_files: { max: 1, required: false },
    timeout_seconds: 900,
    durations: [6],
    resolutions: ["1080p"],
    price: { per: "second", usd: { "1080p": "0.082" } },
  },
]);
