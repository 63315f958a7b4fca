import { defineModels } from "../model-data";

// Alibaba Cloud Model Studio (DashScope) models, at its international (Singapore) prices.

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
]);
