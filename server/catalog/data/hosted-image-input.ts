import type { InputMapping } from "../input-mapping";

// Hosted text-to-image inputs shared by several vendors' models: fal's `image_size` by name, or in
// pixels where fal names none (FLUX.1 [dev], Ideogram 3.0, Recraft, Stable Diffusion 3.5, HiDream),
// and Replicate's one-picture aspect_ratio schema (FLUX [pro] proxies, Stable Diffusion 3.5).

/** The five ratios fal names: square_hd 1024×1024, landscape_16_9 1024×576, landscape_4_3 1024×768 … */
export const falNamedSizes = {
  "1:1": "square_hd",
  "16:9": "landscape_16_9",
  "9:16": "portrait_16_9",
  "4:3": "landscape_4_3",
  "3:4": "portrait_4_3",
};

/** The named sizes plus 3:2 and 2:3 in pixels (multiples of 32), each at most a megapixel, the unit fal prices these endpoints by. */
export const falMegapixelSizes = {
  ...falNamedSizes,
  "3:2": { width: 1216, height: 832 },
  "2:3": { width: 832, height: 1216 },
};

/** fal's output_format takes jpeg and png. */
export const falOutputFormat = { from: "output_format", map: { jpg: "jpeg", png: "png" } } as const;

/** One picture of at most a megapixel (FluxDevInput, StableDiffusionV35*Input, HidreamI1*Input). */
export const falMegapixelInput: InputMapping = {
  prompt: "prompt",
  image_size: { from: "ratio", map: falMegapixelSizes },
  output_format: falOutputFormat,
  seed: "seed",
  enable_safety_checker: { const: true },
};

/** Replicate models with one picture a prediction, an aspect_ratio enum and webp/jpg/png (no num_outputs). */
export const replicateAspectRatioInput: InputMapping = {
  prompt: "prompt",
  aspect_ratio: "ratio",
  output_format: "output_format",
  seed: "seed",
};
