import type { InputMapping } from "../input-mapping";
import { defineModels } from "../model-data";
import { falMegapixelInput, falOutputFormat, replicateAspectRatioInput } from "./hosted-image-input";

// Black Forest Labs' FLUX models. Their own API (https://docs.bfl.ai/api-reference) makes one
// picture per task, jpeg or png, any ratio between 21:9 and 9:21; Kontext edits up to four input
// images. fal takes jpeg and png only, so webp is not offered where fal is a failover target.

const commonRatios = ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"];
const bflRatios = [...commonRatios, "21:9", "9:21"];

/** fal's FLUX.1 [dev] family (FluxDevInput: flux/dev, flux/krea): at most a megapixel a picture, as fal prices it. */
const falDevInput: InputMapping = { ...falMegapixelInput, num_images: "output_count" };

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
    providers: [
      { id: "bfl", model: "flux-pro-1.1-ultra", cost: { per: "image", usd: "0.06" } },
      // Replicate's aspect_ratio enum and fal's both span 21:9 … 9:21; both answer jpg or png.
      {
        id: "replicate",
        model: "black-forest-labs/flux-1.1-pro-ultra",
        input: replicateAspectRatioInput,
        cost: { per: "image", usd: "0.06" },
      },
      {
        id: "fal",
        model: "fal-ai/flux-pro/v1.1-ultra",
        input: { prompt: "prompt", aspect_ratio: "ratio", output_format: falOutputFormat, seed: "seed" },
        cost: { per: "image", usd: "0.06" },
      },
    ],
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
    // BFL only: Replicate's flux-kontext-pro and fal's flux-pro/kontext take one input image (this
    // model offers four), and fal serves text-only requests on another endpoint.
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
    // BFL only, for the same reason as Kontext [pro]: one input image on Replicate and fal.
    providers: [{ id: "bfl", model: "flux-kontext-max", cost: { per: "image", usd: "0.08" } }],
    ratios: bflRatios,
    formats: ["png", "jpg"],
    max_outputs: 1,
    input_files: { max: 4, required: false },
    timeout_seconds: 180,
    price: { per: "image", usd: "0.080" },
  },
  {
    identifier: "black-forest-labs/flux-dev",
    name: "FLUX.1 [dev]",
    type: "image",
    // One picture a request: BFL's /v1/flux-dev makes one per task (FluxDevInputs, width/height).
    providers: [
      { id: "bfl", model: "flux-dev", cost: { per: "image", usd: "0.025" } },
      { id: "replicate", model: "black-forest-labs/flux-dev", cost: { per: "image", usd: "0.025" } },
      { id: "fal", model: "fal-ai/flux/dev", input: falDevInput, cost: { per: "megapixel", usd: "0.025", default_megapixels: 1 } },
    ],
    ratios: commonRatios,
    formats: ["png", "jpg"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd: "0.025" },
  },
  {
    identifier: "black-forest-labs/flux-krea-dev",
    name: "FLUX.1 Krea [dev]",
    type: "image",
    // Replicate's flux-krea-dev takes flux-dev's inputs (up to four outputs); fal's flux/krea takes FluxDevInput.
    providers: [
      { id: "replicate", model: "black-forest-labs/flux-krea-dev", cost: { per: "image", usd: "0.025" } },
      { id: "fal", model: "fal-ai/flux/krea", input: falDevInput, cost: { per: "megapixel", usd: "0.025", default_megapixels: 1 } },
    ],
    ratios: commonRatios,
    formats: ["png", "jpg"],
    max_outputs: 4,
    timeout_seconds: 180,
    price: { per: "image", usd: "0.025" },
  },
  {
    identifier: "black-forest-labs/flux-pro",
    name: "FLUX.1 [pro]",
    type: "image",
    note: "Replicate only: fal's flux-pro endpoints are FLUX1.1 and later, and BFL's current API reference lists no /v1/flux-pro.",
    providers: [
      { id: "replicate", model: "black-forest-labs/flux-pro", input: replicateAspectRatioInput, cost: { per: "image", usd: "0.055" } },
    ],
    ratios: commonRatios,
    formats: ["png", "jpg"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd: "0.055" },
  },
  {
    identifier: "black-forest-labs/flux-kontext-dev",
    name: "FLUX.1 Kontext [dev]",
    type: "image",
    // An edit of one required picture: Replicate's input_image, fal's image_url; the output ratio
    // is Replicate's aspect_ratio and fal's resolution_mode, which both take these ratios by name.
    providers: [
      {
        id: "replicate",
        model: "black-forest-labs/flux-kontext-dev",
        input: { prompt: "prompt", input_image: "input_file", aspect_ratio: "ratio", output_format: "output_format", seed: "seed" },
        cost: { per: "image", usd: "0.025" },
      },
      {
        id: "fal",
        model: "fal-ai/flux-kontext/dev",
        input: {
          prompt: "prompt",
          image_url: "input_file",
          resolution_mode: "ratio",
          output_format: falOutputFormat,
          seed: "seed",
          enable_safety_checker: { const: true },
        },
        cost: { per: "megapixel", usd: "0.025", default_megapixels: 1 },
      },
    ],
    ratios: commonRatios,
    formats: ["png", "jpg"],
    max_outputs: 1,
    input_files: { max: 1, required: true },
    timeout_seconds: 180,
    price: { per: "image", usd: "0.025" },
  },
]);
