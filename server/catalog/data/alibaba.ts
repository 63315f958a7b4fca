import { defineModels, type ModelData } from "../model-data";

// Alibaba Cloud Model Studio (DashScope) models, at its international (Singapore) prices, and
// Alibaba's open Wan models hosted on fal.

// fal's Wan 2.2 A14B: a length in frames (81 at 16 fps, 5 s).
const wan22OnFal = {
  prompt: "prompt",
  num_frames: { const: 81 },
  frames_per_second: { const: 16 },
  resolution: "resolution",
  aspect_ratio: "ratio",
  seed: "seed",
} as const;

/** Wan text-to-image on DashScope: five ratios, up to four pictures a task, priced as DashScope charges. */
function wanTextToImage(identifier: string, name: string, model: string, usd: string): ModelData {
  return {
    identifier,
    name,
    type: "image",
    providers: [{ id: "alibaba", model, cost: { per: "image", usd } }],
    ratios: ["1:1", "16:9", "9:16", "4:3", "3:4"],
    formats: ["png"],
    max_outputs: 4,
    timeout_seconds: 300,
    price: { per: "image", usd },
  };
}

export default defineModels([
  {
    // Five published sizes, one picture per task; Replicate's qwen/qwen-image (the failover)
    // takes the same ratios. Priced at DashScope's $0.035 (Replicate $0.025).
    identifier: "qwen/qwen-image",
    name: "Qwen-Image",
    type: "image",
    providers: [
      { id: "alibaba", model: "qwen-image", cost: { per: "image", usd: "0.035" } },
      {
        id: "replicate",
        model: "qwen/qwen-image",
        input: { prompt: "prompt", aspect_ratio: "ratio", output_format: "output_format", seed: "seed" },
        cost: { per: "image", usd: "0.025" },
      },
    ],
    ratios: ["1:1", "16:9", "9:16", "4:3", "3:4"],
    formats: ["png"],
    max_outputs: 1,
    timeout_seconds: 300,
    price: { per: "image", usd: "0.035" },
  },
  {
    // Up to four pictures per task, $0.025 each.
    identifier: "alibaba/wan-2.2-t2i-flash",
    name: "Wan 2.2 Image Flash",
    type: "image",
    providers: [{ id: "alibaba", model: "wan2.2-t2i-flash", cost: { per: "image", usd: "0.025" } }],
    ratios: ["1:1", "16:9", "9:16", "4:3", "3:4"],
    formats: ["png"],
    max_outputs: 4,
    timeout_seconds: 300,
    price: { per: "image", usd: "0.025" },
  },
  {
    // Text-to-video (wan2.2-t2v-plus), or image-to-video from a first frame (the adapter runs
    // wan2.2-i2v-plus). 5 s clips at 480P ($0.02/s) or 1080P ($0.10/s), silent.
    identifier: "alibaba/wan-2.2-plus",
    name: "Wan 2.2 Plus",
    type: "video",
    providers: [{ id: "alibaba", model: "wan2.2-t2v-plus", cost: { per: "second", usd: { "480p": "0.02", "1080p": "0.10" } } }],
    ratios: ["16:9", "9:16", "1:1"],
    input_files: { max: 1, required: false },
    timeout_seconds: 900,
    durations: [5],
    resolutions: ["480p", "1080p"],
    price: { per: "second", usd: { "480p": "0.020", "1080p": "0.100" } },
  },
  {
    // $0.045 a picture on DashScope, $0.03 on Replicate and fal. The edit keeps the input's ratio.
    identifier: "qwen/qwen-image-edit",
    name: "Qwen-Image-Edit",
    type: "image",
    note: "Edits one input picture and keeps its ratio; 1:1 is listed as the single nominal ratio.",
    providers: [
      { id: "alibaba", model: "qwen-image-edit", cost: { per: "image", usd: "0.045" } },
      {
        id: "replicate",
        model: "qwen/qwen-image-edit",
        input: { prompt: "prompt", image: "input_file", output_format: { const: "png" }, seed: "seed" },
        cost: { per: "image", usd: "0.03" },
      },
      {
        id: "fal",
        model: "fal-ai/qwen-image-edit",
        input: { prompt: "prompt", image_url: "input_file", num_images: { const: 1 }, output_format: { const: "png" }, seed: "seed" },
        cost: { per: "image", usd: "0.03" },
      },
    ],
    ratios: ["1:1"],
    formats: ["png"],
    max_outputs: 1,
    input_files: { max: 1, required: true },
    timeout_seconds: 180,
    price: { per: "image", usd: "0.045" },
  },
  wanTextToImage("alibaba/wan-2.2-t2i-plus", "Wan 2.2 Image Plus", "wan2.2-t2i-plus", "0.05"),
  wanTextToImage("alibaba/wan-2.1-t2i-turbo", "Wan 2.1 Image Turbo", "wanx2.1-t2i-turbo", "0.025"),
  wanTextToImage("alibaba/wan-2.1-t2i-plus", "Wan 2.1 Image Plus", "wanx2.1-t2i-plus", "0.05"),
  {
    // Text-to-video (wan2.1-t2v-turbo), or from a first frame (the adapter runs wan2.1-i2v-turbo).
    identifier: "alibaba/wan-2.1-turbo",
    name: "Wan 2.1 Turbo",
    type: "video",
    providers: [{ id: "alibaba", model: "wan2.1-t2v-turbo", cost: { per: "second", usd: { "480p": "0.036", "720p": "0.036" } } }],
    ratios: ["16:9", "9:16", "1:1"],
    input_files: { max: 1, required: false },
    timeout_seconds: 900,
    durations: [5],
    resolutions: ["720p", "480p"],
    price: { per: "second", usd: { "720p": "0.036", "480p": "0.036" } },
  },
  {
    // 720p only; from a first frame the adapter runs wan2.1-i2v-plus.
    identifier: "alibaba/wan-2.1-plus",
    name: "Wan 2.1 Plus",
    type: "video",
    providers: [{ id: "alibaba", model: "wan2.1-t2v-plus", cost: { per: "second", usd: { "720p": "0.10" } } }],
    ratios: ["16:9", "9:16", "1:1"],
    input_files: { max: 1, required: false },
    timeout_seconds: 900,
    durations: [5],
    resolutions: ["720p"],
    price: { per: "second", usd: { "720p": "0.100" } },
  },
  {
    // $0.05, $0.10 and $0.15 a second on DashScope and fal alike; the soundtrack Wan 2.5 adds on
    // its own is priced in. 480p and 1080p: the tiers fal publishes for its text-to-video.
    identifier: "alibaba/wan-2.5-preview",
    name: "Wan 2.5 Preview",
    type: "video",
    providers: [
      { id: "alibaba", model: "wan2.5-t2v-preview", cost: { per: "second", usd: { "1080p": "0.15", "480p": "0.05" } } },
      {
        id: "fal",
        model: "fal-ai/wan-25-preview/text-to-video",
        input: {
          prompt: "prompt",
          aspect_ratio: "ratio",
          resolution: "resolution",
          duration: { from: "duration", as: "string" },
          seed: "seed",
        },
        cost: { per: "second", usd: { "1080p": "0.15", "480p": "0.05" } },
      },
    ],
    ratios: ["16:9", "9:16", "1:1"],
    timeout_seconds: 900,
    durations: [5, 10],
    resolutions: ["1080p", "480p"],
    price: { per: "second", usd: { "1080p": "0.150", "480p": "0.050" } },
  },
  {
    identifier: "alibaba/wan-2.5-preview-image-to-video",
    name: "Wan 2.5 Preview Image to Video",
    type: "video",
    note: "Animates the input image, whose ratio the video keeps; 16:9 is listed as the single nominal ratio.",
    providers: [
      { id: "alibaba", model: "wan2.5-i2v-preview", cost: { per: "second", usd: { "1080p": "0.15", "720p": "0.10", "480p": "0.05" } } },
      {
        id: "fal",
        model: "fal-ai/wan-25-preview/image-to-video",
        input: {
          prompt: "prompt",
          image_url: "input_file",
          resolution: "resolution",
          duration: { from: "duration", as: "string" },
          seed: "seed",
        },
        cost: { per: "second", usd: { "1080p": "0.15", "720p": "0.10", "480p": "0.05" } },
      },
    ],
    ratios: ["16:9"],
    input_files: { max: 1, required: true },
    timeout_seconds: 900,
    durations: [5, 10],
    resolutions: ["1080p", "720p", "480p"],
    price: { per: "second", usd: { "1080p": "0.150", "720p": "0.100", "480p": "0.050" } },
  },
  {
    // fal bills video seconds at 16 frames a second: 81 frames are 5.0625 s, so a 5 s clip costs
    // $0.0405/s at 480p and $0.081/s at 720p.
    identifier: "alibaba/wan-2.2-a14b",
    name: "Wan 2.2 A14B",
    type: "video",
    providers: [
      {
        id: "fal",
        model: "fal-ai/wan/v2.2-a14b/text-to-video",
        input: wan22OnFal,
        cost: { per: "second", usd: { "720p": "0.081", "480p": "0.0405" } },
      },
    ],
    ratios: ["16:9", "9:16", "1:1"],
    timeout_seconds: 900,
    durations: [5],
    resolutions: ["720p", "480p"],
    price: { per: "second", usd: { "720p": "0.081", "480p": "0.041" } },
  },
  {
    identifier: "alibaba/wan-2.2-a14b-image-to-video",
    name: "Wan 2.2 A14B Image to Video",
    type: "video",
    note: "The input image is resized and center-cropped to the ratio asked for.",
    providers: [
      {
        id: "fal",
        model: "fal-ai/wan/v2.2-a14b/image-to-video",
        input: { ...wan22OnFal, image_url: "input_file" },
        cost: { per: "second", usd: { "720p": "0.081", "480p": "0.0405" } },
      },
    ],
    ratios: ["16:9", "9:16", "1:1"],
    input_files: { max: 1, required: true },
    timeout_seconds: 900,
    durations: [5],
    resolutions: ["720p", "480p"],
    price: { per: "second", usd: { "720p": "0.081", "480p": "0.041" } },
  },
]);
