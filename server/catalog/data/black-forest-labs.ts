import { defineModels } from "../model-data";

// Black Forest Labs' FLUX models. Their own API (https://docs.bfl.ai/api-reference) makes one
// picture per task, jpeg or png, any ratio between 21:9 and 9:21; Kontext edits up to four input
// images. fal takes jpeg and png only, so webp is not offered where fal is a failover target.

const commonRatios = ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"];
const bflRatios = [...commonRatios, "21:9", "9:21"];

export default defineModels([
  {
    identifier: "black-forest-labs/flux-schnell",
    name: "FLUX.1 [schnell]",
    type: "image",
    providers: [
      { id: "replicate", model: "black-forest-labs/flux-schnell", cost: { per: "image", usd: "0.003" } },
      { id: "fal", model: "fal-ai/flux/schnell", cost: { per: "megapixel", usd: "0.003", default_megapixels: 1 } },
    ],
    ratios: commonRatios,
    formats: ["png", "jpg"],
    max_outputs: 4,
    timeout_seconds: 120,
    price: { per: "image", usd: "0.003" },
  },
  {
    identifier: "black-forest-labs/flux-1.1-pro",
    name: "FLUX1.1 [pro]",
    type: "image",
    providers: [
      {
        id: "replicate",
        model: "black-forest-labs/flux-1.1-pro",
        // One image per prediction: this model has no num_outputs (the catalog caps outputs at 1).
        input: { prompt: "prompt", aspect_ratio: "ratio", output_format: "output_format", seed: "seed" },
        cost: { per: "image", usd: "0.04" },
      },
      { id: "fal", model: "fal-ai/flux-pro/v1.1", cost: { per: "megapixel", usd: "0.04", default_megapixels: 1 } },
      { id: "bfl", model: "flux-pro-1.1", cost: { per: "image", usd: "0.04" } },
    ],
    ratios: commonRatios,
    formats: ["png", "jpg"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd: "0.040" },
  },
  {
    identifier: "black-forest-labs/flux-1.1-pro-ultra",
    name: "FLUX1.1 [pro] Ultra",
    type: "image",
    providers: [{ id: "bfl", model: "flux-pro-1.1-ultra", cost: { per: "image", usd: "0.06" } }],
    ratios: bflRatios,
    formats: ["jpg", "png"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd: "0.060" },
  },
  {
    identifier: "black-forest-labs/flux-kontext-pro",
    name: "FLUX.1 Kontext [pro]",
    type: "image",
    providers: [{ id: "bfl", model: "flux-kontext-pro", cost: { per: "image", usd: "0.04" } }],
    ratios: bflRatios,
    formats: ["png", "jpg"],
    max_outputs: 1,
    input_files: { max: 4, required: false },
    timeout_seconds: 180,
    price: { per: "image", usd: "0.040" },
  },
  {
    identifier: "black-forest-labs/flux-kontext-max",
    name: "FLUX.1 Kontext [max]",
    type: "image",
    providers: [{ id: "bfl", model: "flux-kontext-max", cost: { per: "image", usd: "0.08" } }],
    ratios: bflRatios,
    formats: ["png", "jpg"],
    max_outputs: 1,
    input_files: { max: 4, required: false },
    timeout_seconds: 180,
    price: { per: "image", usd: "0.080" },
  },
]);
