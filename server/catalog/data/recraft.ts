import type { InputMapping } from "../input-mapping";
import { defineModels, type ModelData } from "../model-data";
import { falNamedSizes } from "./hosted-image-input";

// Recraft's raster models on Replicate (recraft-ai/*) and fal: one WebP a request (neither schema
// has an output count, a format or a seed). Replicate takes an aspect_ratio enum, fal its named
// image sizes, so the five ratios fal names are offered. V3 and 20B are sent a raster style of
// their own default (vector styles cost twice as much on fal and answer SVG).

const ratios = Object.keys(falNamedSizes);

type Recraft = { slug: string; name: string; fal: string; usd: string; style?: string };

function recraft(model: Recraft): ModelData {
  const style: InputMapping = model.style ? { style: { const: model.style } } : {};
  return {
    identifier: `recraft-ai/${model.slug}`,
    name: model.name,
    type: "image",
    providers: [
      {
        id: "replicate",
        model: `recraft-ai/${model.slug}`,
        input: { prompt: "prompt", aspect_ratio: "ratio", ...style },
        cost: { per: "image", usd: model.usd },
      },
      {
        id: "fal",
        model: model.fal,
        input: { prompt: "prompt", image_size: { from: "ratio", map: falNamedSizes }, ...style, enable_safety_checker: { const: true } },
        cost: { per: "image", usd: model.usd },
      },
    ],
    ratios,
    formats: ["webp"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd: model.usd },
  };
}

export default defineModels([
  recraft({ slug: "recraft-v3", name: "Recraft V3", fal: "fal-ai/recraft/v3/text-to-image", usd: "0.04", style: "any" }),
  recraft({ slug: "recraft-20b", name: "Recraft 20B", fal: "fal-ai/recraft-20b", usd: "0.022", style: "realistic_image" }),
  recraft({ slug: "recraft-v4", name: "Recraft V4", fal: "fal-ai/recraft/v4/text-to-image", usd: "0.04" }),
  recraft({ slug: "recraft-v4-pro", name: "Recraft V4 Pro", fal: "fal-ai/recraft/v4/pro/text-to-image", usd: "0.25" }),
]);
