import { defineModels, type ModelData } from "../model-data";
import { falMegapixelInput, falMegapixelSizes } from "./hosted-image-input";

// HiDream's open HiDream-I1 on fal, priced per megapixel (full $0.05, fast $0.01), every picture
// at most a megapixel. fal alone: Replicate's copies (prunaai/hidream-l1-*) take other inputs
// (speed modes, no aspect ratio enum of fal's), so they are not a failover of the same request.
// One picture a request: fal's pages give no upper bound for num_images.

function hidream(slug: string, name: string, usdPerMegapixel: string, timeoutSeconds: number): ModelData {
  return {
    identifier: `hidream-ai/${slug}`,
    name,
    type: "image",
    providers: [
      {
        id: "fal",
        model: `fal-ai/${slug}`,
        input: falMegapixelInput,
        cost: { per: "megapixel", usd: usdPerMegapixel, default_megapixels: 1 },
      },
    ],
    ratios: Object.keys(falMegapixelSizes),
    formats: ["png", "jpg"],
    max_outputs: 1,
    timeout_seconds: timeoutSeconds,
    price: { per: "image", usd: usdPerMegapixel },
  };
}

export default defineModels([
  hidream("hidream-i1-full", "HiDream-I1 Full", "0.05", 180),
  hidream("hidream-i1-fast", "HiDream-I1 Fast", "0.01", 120),
]);
