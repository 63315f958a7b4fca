import { defineModels } from "../model-data";

// OpenAI: GPT Image and DALL·E on the Images API (https://platform.openai.com/docs/pricing), Sora 2 on the Videos API
// (https://platform.openai.com/docs/models/sora-2, prices per second as OpenAI publishes them).
// Sizes by model: sora-2 1280x720 / 720x1280 (720p); sora-2-pro those and 1792x1024 / 1024x1792
// (1024p). Audio always comes with a Sora video, priced in. Only OpenAI serves these.

export default defineModels([
  {
    identifier: "openai/gpt-image-1",
    name: "GPT Image 1",
    type: "image",
    // Priced at the medium-quality 1536px rate, so no ratio costs us more than we charge.
    providers: [{ id: "openai", model: "gpt-image-1", cost: { per: "image", usd: "0.063", by_ratio: { "1:1": "0.042" } } }],
    ratios: ["1:1", "3:2", "2:3"],
    formats: ["png", "jpg", "webp"],
    max_outputs: 10,
    input_files: { max: 16, required: false },
    timeout_seconds: 300,
    price: { per: "image", usd: "0.063" },
  },
  {
    // Medium quality, as GPT Image 1: $0.011 a 1024x1024 picture, $0.015 at 1536px.
    identifier: "openai/gpt-image-1-mini",
    name: "GPT Image 1 Mini",
    type: "image",
    providers: [{ id: "openai", model: "gpt-image-1-mini", cost: { per: "image", usd: "0.015", by_ratio: { "1:1": "0.011" } } }],
    ratios: ["1:1", "3:2", "2:3"],
    formats: ["png", "jpg", "webp"],
    max_outputs: 10,
    input_files: { max: 16, required: false },
    timeout_seconds: 300,
    price: { per: "image", usd: "0.015", by_ratio: { "1:1": "0.011" } },
  },
  {
    // Standard quality: $0.04 at 1024x1024, $0.08 at 1792x1024 (7:4) and 1024x1792 (4:7). One picture per call.
    identifier: "openai/dall-e-3",
    name: "DALL·E 3",
    type: "image",
    providers: [{ id: "openai", model: "dall-e-3", cost: { per: "image", usd: "0.08", by_ratio: { "1:1": "0.04" } } }],
    ratios: ["1:1", "7:4", "4:7"],
    formats: ["png"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd: "0.080", by_ratio: { "1:1": "0.040" } },
  },
  {
    // 1024x1024 squares at $0.02, up to ten per call. Its edits are multipart uploads, not offered here.
    identifier: "openai/dall-e-2",
    name: "DALL·E 2",
    type: "image",
    providers: [{ id: "openai", model: "dall-e-2", cost: { per: "image", usd: "0.02" } }],
    ratios: ["1:1"],
    formats: ["png"],
    max_outputs: 10,
    timeout_seconds: 120,
    price: { per: "image", usd: "0.020" },
  },
  {
    identifier: "openai/sora-2",
    name: "Sora 2",
    type: "video",
    providers: [{ id: "openai", model: "sora-2", cost: { per: "second", usd: { "720p": "0.10" } } }],
    ratios: ["16:9", "9:16"],
    timeout_seconds: 900,
    durations: [4, 8, 12],
    resolutions: ["720p"],
    price: { per: "second", usd: { "720p": "0.10" } },
  },
  {
    identifier: "openai/sora-2-pro",
    name: "Sora 2 Pro",
    type: "video",
    providers: [{ id: "openai", model: "sora-2-pro", cost: { per: "second", usd: { "720p": "0.30", "1024p": "0.50" } } }],
    ratios: ["16:9", "9:16"],
    timeout_seconds: 1800,
    durations: [4, 8, 12],
    resolutions: ["720p", "1024p"],
    price: { per: "second", usd: { "720p": "0.30", "1024p": "0.50" } },
  },
]);
