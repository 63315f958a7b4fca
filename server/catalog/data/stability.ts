import { defineModels, type ModelData } from "../model-data";
import { falMegapixelInput, replicateAspectRatioInput } from "./hosted-image-input";

// Stability AI's Stable Diffusion 3.5 on Replicate (stability-ai/*: an aspect_ratio enum of eleven
// ratios, webp/jpg/png, one picture a prediction) and fal (image_size, jpeg/png, at most a
// megapixel a picture as fal prices it). Large Turbo has no fal endpoint. SDXL is left out: its
// Replicate and fal copies are billed by compute time, so no per-picture cost holds our price up,
// and Workers AI answers it as raw PNG bytes, which the cloudflare adapter does not read.

type Sd35 = { slug: string; name: string; usd: string; timeoutSeconds: number; fal?: { model: string; usdPerMegapixel: string } };

function sd35(model: Sd35): ModelData {
  const fal = model.fal
    ? [
        {
          id: "fal" as const,
          model: model.fal.model,
          input: falMegapixelInput,
          cost: { per: "megapixel" as const, usd: model.fal.usdPerMegapixel, default_megapixels: 1 },
        },
      ]
    : [];
  return {
    identifier: `stability-ai/${model.slug}`,
    name: model.name,
    type: "image",
    providers: [
      { id: "replicate", model: `stability-ai/${model.slug}`, input: replicateAspectRatioInput, cost: { per: "image", usd: model.usd } },
      ...fal,
    ],
    ratios: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"],
    formats: ["png", "jpg"],
    max_outputs: 1,
    timeout_seconds: model.timeoutSeconds,
    price: { per: "image", usd: model.usd },
  };
}

export default defineModels([
  sd35({
    slug: "stable-diffusion-3.5-large",
    name: "Stable Diffusion 3.5 Large",
    usd: "0.065",
    timeoutSeconds: 180,
    fal: { model: "fal-ai/stable-diffusion-v35-large", usdPerMegapixel: "0.065" },
  }),
  sd35({ slug: "stable-diffusion-3.5-large-turbo", name: "Stable Diffusion 3.5 Large Turbo", usd: "0.04", timeoutSeconds: 120 }),
  sd35({
    slug: "stable-diffusion-3.5-medium",
    name: "Stable Diffusion 3.5 Medium",
    usd: "0.035",
    timeoutSeconds: 120,
    fal: { model: "fal-ai/stable-diffusion-v35-medium", usdPerMegapixel: "0.02" },
  }),
]);
