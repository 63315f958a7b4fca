import type { InputMapping } from "../input-mapping";
import { defineModels, type ModelData } from "../model-data";
import { falNamedSizes } from "./hosted-image-input";

// Ideogram's models on Replicate (ideogram-ai/*) and fal (fal-ai/ideogram/*): one PNG a request
// (Replicate's schemas have no output count or format). Magic Prompt is off on both, so the
// prompt is drawn as written wherever the request lands (Replicate's magic_prompt_option "Off",
// fal's expand_prompt false). Ideogram 3.0 on fal is one endpoint whose rendering_speed picks the
// tier; it takes fal's named sizes, so 3.0 offers the five ratios fal names. 2.0 and 2a take an
// aspect_ratio enum on both hosts.

const replicateInput: InputMapping = { prompt: "prompt", aspect_ratio: "ratio", magic_prompt_option: { const: "Off" }, seed: "seed" };
const falV2Input: InputMapping = { prompt: "prompt", aspect_ratio: "ratio", expand_prompt: { const: false }, seed: "seed" };
const falV3Input = (speed: "TURBO" | "BALANCED" | "QUALITY"): InputMapping => ({
  prompt: "prompt",
  image_size: { from: "ratio", map: falNamedSizes },
  rendering_speed: { const: speed },
  expand_prompt: { const: false },
  seed: "seed",
});

type Tier = { slug: string; name: string; usd: string };

function ideogram(tier: Tier, fal: { model: string; input: InputMapping }, ratios: string[]): ModelData {
  return {
    identifier: `ideogram-ai/${tier.slug}`,
    name: tier.name,
    type: "image",
    providers: [
      { id: "replicate", model: `ideogram-ai/${tier.slug}`, input: replicateInput, cost: { per: "image", usd: tier.usd } },
      { id: "fal", model: fal.model, input: fal.input, cost: { per: "image", usd: tier.usd } },
    ],
    ratios,
    formats: ["png"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd: tier.usd },
  };
}

const v3Ratios = Object.keys(falNamedSizes);
// In both Replicate's and fal's 2.0 / 2a aspect_ratio enums.
const v2Ratios = ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"];

export default defineModels([
  ideogram(
    { slug: "ideogram-v3-turbo", name: "Ideogram 3.0 Turbo", usd: "0.03" },
    { model: "fal-ai/ideogram/v3", input: falV3Input("TURBO") },
    v3Ratios,
  ),
  ideogram(
    { slug: "ideogram-v3-balanced", name: "Ideogram 3.0 Balanced", usd: "0.06" },
    { model: "fal-ai/ideogram/v3", input: falV3Input("BALANCED") },
    v3Ratios,
  ),
  ideogram(
    { slug: "ideogram-v3-quality", name: "Ideogram 3.0 Quality", usd: "0.09" },
    { model: "fal-ai/ideogram/v3", input: falV3Input("QUALITY") },
    v3Ratios,
  ),
  ideogram({ slug: "ideogram-v2", name: "Ideogram 2.0", usd: "0.08" }, { model: "fal-ai/ideogram/v2", input: falV2Input }, v2Ratios),
  ideogram(
    { slug: "ideogram-v2-turbo", name: "Ideogram 2.0 Turbo", usd: "0.05" },
    { model: "fal-ai/ideogram/v2/turbo", input: falV2Input },
    v2Ratios,
  ),
  ideogram({ slug: "ideogram-v2a", name: "Ideogram 2a", usd: "0.04" }, { model: "fal-ai/ideogram/v2a", input: falV2Input }, v2Ratios),
  ideogram(
    { slug: "ideogram-v2a-turbo", name: "Ideogram 2a Turbo", usd: "0.025" },
    { model: "fal-ai/ideogram/v2a/turbo", input: falV2Input },
    v2Ratios,
  ),
]);
