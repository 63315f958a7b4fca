import "server-only";
import { videoFields, withoutEmptyFields } from "../provider-input";
import type { ProviderJob } from "../types";

// A job as the request body of the fal endpoint it runs on, and which endpoint that is. Field
// names follow each endpoint's published input schema.

type FalInput = Record<string, unknown>;
type FalModel = { endpoint?: (job: ProviderJob) => string; input: (job: ProviderJob) => FalInput };

// fal's named sizes, else explicit pixels (multiples of 32, within FLUX1.1 [pro]'s 1440 limit).
const imageSizes: Record<string, string | { width: number; height: number }> = {
  "1:1": "square_hd",
  "16:9": "landscape_16_9",
  "9:16": "portrait_16_9",
  "4:3": "landscape_4_3",
  "3:4": "portrait_4_3",
  "3:2": { width: 1440, height: 960 },
  "2:3": { width: 960, height: 1440 },
};

const falModels: Record<string, FalModel> = {
  "fal-ai/veo3": {
    input: (job) => ({ ...videoInput(job), duration: job.durationSeconds === null ? null : `${job.durationSeconds}s` }),
  },
  // One endpoint per tier: standard renders 720p, pro 1080p.
  "fal-ai/kling-video/v2.1/standard/image-to-video": {
    endpoint: (job) => (job.resolution === "1080p" ? "fal-ai/kling-video/v2.1/pro/image-to-video" : job.providerModelId),
    input: (job) => ({
      prompt: job.prompt,
      image_url: job.inputFiles[0],
      duration: job.durationSeconds === null ? null : String(job.durationSeconds),
    }),
  },
};

/** The endpoint id the job is submitted to, e.g. `fal-ai/flux/schnell`. */
export function falEndpointId(job: ProviderJob): string {
  return falModels[job.providerModelId]?.endpoint?.(job) ?? job.providerModelId;
}

/** The queue addresses requests by app (`owner/app`), without the endpoint's sub-path. */
export function falAppId(endpointId: string): string {
  return endpointId.split("/").slice(0, 2).join("/");
}

export function buildFalInput(job: ProviderJob): FalInput {
  const build = falModels[job.providerModelId]?.input ?? (job.model.type === "image" ? imageInput : videoInput);
  return withoutEmptyFields(build(job));
}

function imageInput(job: ProviderJob): FalInput {
  return {
    prompt: job.prompt,
    image_size: imageSizes[job.ratio] ?? "square_hd",
    num_images: job.outputCount,
    output_format: job.outputFormat === "jpg" ? "jpeg" : job.outputFormat,
    seed: job.seed,
    enable_safety_checker: true,
    image_url: job.inputFiles[0],
  };
}

function videoInput(job: ProviderJob): FalInput {
  return { ...videoFields(job), image_url: job.inputFiles[0] };
}
