import "server-only";
import { withoutEmptyFields } from "../provider-input";
import type { ProviderJob } from "../types";

// A job as the request body of the BFL endpoint it runs on (`POST /v1/{model}`), per the
// published inputs: FluxPro11Inputs and FluxDevInputs (width/height), FluxUltraInput and
// FluxKontextProInputs (aspect_ratio, input_image … input_image_4). Output formats are `jpeg` or `png`.

type BflInput = Record<string, unknown>;

// FLUX1.1 [pro] and FLUX.1 [dev] take pixels: 256–1440, multiples of 32, about one megapixel.
const pixelSizes: Record<string, { width: number; height: number }> = {
  "1:1": { width: 1024, height: 1024 },
  "16:9": { width: 1344, height: 768 },
  "9:16": { width: 768, height: 1344 },
  "4:3": { width: 1152, height: 864 },
  "3:4": { width: 864, height: 1152 },
  "3:2": { width: 1216, height: 832 },
  "2:3": { width: 832, height: 1216 },
};

const pixelModels = new Set(["flux-pro-1.1", "flux-dev"]);

const inputImageFields = ["input_image", "input_image_2", "input_image_3", "input_image_4"] as const;

export function buildBflInput(job: ProviderJob, webhook: { url: string; secret: string } | null): BflInput {
  const common: BflInput = {
    prompt: job.prompt,
    seed: job.seed,
    output_format: job.outputFormat === "jpg" ? "jpeg" : job.outputFormat,
    webhook_url: webhook?.url,
    webhook_secret: webhook?.secret,
  };
  if (pixelModels.has(job.providerModelId)) return withoutEmptyFields({ ...common, ...(pixelSizes[job.ratio] ?? pixelSizes["1:1"]) });
  const images = Object.fromEntries(inputImageFields.map((field, index) => [field, job.inputFiles[index]]));
  return withoutEmptyFields({ ...common, aspect_ratio: job.ratio, ...images });
}
