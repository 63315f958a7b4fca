import "server-only";
import { videoFields, withoutEmptyFields } from "../provider-input";
import type { ProviderJob } from "../types";

// A job in the `input` shape of the Replicate model it runs on. The common image (FLUX) and video
// (Veo) field names cover most models; the ones whose published schema differs are listed.

type ReplicateInput = Record<string, unknown>;

const modelInputs: Record<string, (job: ProviderJob) => ReplicateInput> = {
  // One image per prediction: this model has no num_outputs (the catalog caps outputs at 1).
  "black-forest-labs/flux-1.1-pro": (job) => ({
    prompt: job.prompt,
    aspect_ratio: job.ratio,
    output_format: job.outputFormat,
    seed: job.seed,
  }),
  // Image-to-video: the ratio follows the start image; `mode` is the 720p or 1080p tier, and
  // only the pro tier takes an end frame.
  "kwaivgi/kling-v2.1": (job) => {
    const pro = job.resolution === "1080p";
    return {
      prompt: job.prompt,
      start_image: job.inputFiles[0],
      mode: pro ? "pro" : "standard",
      duration: job.durationSeconds,
      end_image: pro ? job.inputFileLastContent : null,
    };
  },
  // MiniMax's models: their own field names (number_of_images; first_frame_image, lower-case resolution).
  "minimax/image-01": (job) => ({ prompt: job.prompt, aspect_ratio: job.ratio, number_of_images: job.outputCount, prompt_optimizer: false }),
  "minimax/hailuo-02": hailuoInput,
  "minimax/hailuo-2.3": hailuoInput,
  // Runway's models: reference_images (up to three) and the 1080p tier the catalog prices; Gen-4
  // Turbo's start image is `image`. Both take Runway's six ratios as aspect_ratio strings.
  "runwayml/gen4-image": (job) => ({ prompt: job.prompt, aspect_ratio: job.ratio, resolution: "1080p", reference_images: job.inputFiles.length ? job.inputFiles : null, seed: job.seed }),
  "runwayml/gen4-turbo": (job) => ({ prompt: job.prompt, image: job.inputFiles[0], aspect_ratio: job.ratio, duration: job.durationSeconds, seed: job.seed }),
  // Qwen-Image: one picture per prediction (no num_outputs in its schema).
  "qwen/qwen-image": (job) => ({ prompt: job.prompt, aspect_ratio: job.ratio, output_format: job.outputFormat, seed: job.seed }),
  // ByteDance's models (their Replicate schemas): image_input and a size tier for Seedream; Seedance's own video fields.
  "bytedance/seedream-4": (job) => ({
    prompt: job.prompt,
    image_input: job.inputFiles.length > 0 ? job.inputFiles : null,
    size: "2K",
    aspect_ratio: job.ratio,
    sequential_image_generation: "disabled",
  }),
  "bytedance/seedance-1-pro": (job) => ({
    prompt: job.prompt,
    image: job.inputFiles[0],
    duration: job.durationSeconds,
    resolution: job.resolution,
    aspect_ratio: job.ratio,
    seed: job.seed,
  }),
};

export function buildReplicateInput(job: ProviderJob): ReplicateInput {
  const build = modelInputs[modelName(job.providerModelId)] ?? (job.model.type === "image" ? imageInput : videoInput);
  return withoutEmptyFields(build(job));
}

/** `owner/name` without a pinned `:version`. */
export function modelName(providerModelId: string): string {
  return providerModelId.split(":")[0] ?? providerModelId;
}

function imageInput(job: ProviderJob): ReplicateInput {
  return {
    prompt: job.prompt,
    aspect_ratio: job.ratio,
    num_outputs: job.outputCount,
    output_format: job.outputFormat,
    seed: job.seed,
    image: job.inputFiles[0],
  };
}

function videoInput(job: ProviderJob): ReplicateInput {
  return { ...videoFields(job), image: job.inputFiles[0], last_frame: job.inputFileLastContent };
}

function hailuoInput(job: ProviderJob): ReplicateInput {
  return {
    prompt: job.prompt,
    duration: job.durationSeconds,
    resolution: job.resolution,
    first_frame_image: job.inputFiles[0],
    prompt_optimizer: false,
  };
}
