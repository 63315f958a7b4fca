import "server-only";
import { withoutEmptyFields } from "../provider-input";
import type { ProviderJob } from "../types";

// A job as the body of MiniMax's two generation calls
// (https://platform.minimax.io/docs/api-reference/video-generation-t2v, -i2v, image-generation-t2i).

/** POST /v1/video_generation: Hailuo takes its resolution in capitals ("768P") and no ratio (16:9 from text, the image's own from a first frame). */
export function videoGenerationBody(job: ProviderJob): Record<string, unknown> {
  return withoutEmptyFields({
    model: job.providerModelId,
    prompt: job.prompt,
    duration: job.durationSeconds,
    resolution: job.resolution?.toUpperCase(),
    first_frame_image: job.inputFiles[0],
    prompt_optimizer: false,
  });
}

/** POST /v1/image_generation: image URLs back (response_format url), n pictures of one prompt. */
export function imageGenerationBody(job: ProviderJob): Record<string, unknown> {
  return withoutEmptyFields({
    model: job.providerModelId,
    prompt: job.prompt,
    aspect_ratio: job.ratio,
    response_format: "url",
    n: job.outputCount,
    seed: job.seed,
    prompt_optimizer: false,
  });
}
