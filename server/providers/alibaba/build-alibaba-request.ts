import "server-only";
import { withoutEmptyFields } from "../provider-input";
import type { ProviderJob } from "../types";

// A job as the body of DashScope's two async task calls (Model Studio API references:
// https://www.alibabacloud.com/help/en/model-studio/text-to-video-api-reference, image-to-video-api-reference,
// text-to-image-v2-api-reference, qwen-image-api), and of Qwen-Image-Edit's synchronous call
// (qwen-image-edit). Each is `{model, input, parameters}`.

/** Qwen-Image's five published sizes, by ratio. */
const qwenImageSizes: Record<string, string> = {
  "16:9": "1664*928",
  "4:3": "1472*1140",
  "1:1": "1328*1328",
  "3:4": "1140*1472",
  "9:16": "928*1664",
};
/** Wan 2.2 text-to-image: width and height each within [512, 1440]. */
const wanImageSizes: Record<string, string> = {
  "1:1": "1024*1024",
  "16:9": "1440*810",
  "9:16": "810*1440",
  "4:3": "1280*960",
  "3:4": "960*1280",
};
/** Wan text-to-video `size` per resolution tier and ratio (image-to-video takes `resolution` instead). */
const wanVideoSizes: Record<string, Record<string, string>> = {
  "480p": { "16:9": "832*480", "9:16": "480*832", "1:1": "624*624" },
  "720p": { "16:9": "1280*720", "9:16": "720*1280", "1:1": "960*960" },
  "1080p": { "16:9": "1920*1080", "9:16": "1080*1920", "1:1": "1440*1440" },
};

/** POST /api/v1/services/aigc/text2image/image-synthesis. */
export function imageSynthesisBody(job: ProviderJob): Record<string, unknown> {
  const sizes = job.providerModelId.startsWith("qwen-image") ? qwenImageSizes : wanImageSizes;
  return {
    model: job.providerModelId,
    input: { prompt: job.prompt },
    parameters: withoutEmptyFields({ size: sizes[job.ratio], n: job.outputCount, seed: job.seed, prompt_extend: false, watermark: false }),
  };
}

/** Qwen-Image-Edit's call is synchronous: POST /api/v1/services/aigc/multimodal-generation/generation (qwen-image-edit API reference). */
export function isImageEdit(job: ProviderJob): boolean {
  return job.providerModelId.startsWith("qwen-image-edit");
}

/** One user message: the picture to edit, then the instruction; the answer keeps the picture's ratio. */
export function imageEditBody(job: ProviderJob): Record<string, unknown> {
  const content = [...job.inputFiles.slice(0, 1).map((url) => ({ image: url })), { text: job.prompt ?? "" }];
  return { model: job.providerModelId, input: { messages: [{ role: "user", content }] }, parameters: { watermark: false } };
}

/**
 * POST /api/v1/services/aigc/video-generation/video-synthesis. With a first frame the model's
 * image-to-video twin runs (wan2.2-t2v-plus → wan2.2-i2v-plus), sized by `resolution`; without,
 * text-to-video, sized by `size` from the ratio.
 */
export function videoSynthesisBody(job: ProviderJob): Record<string, unknown> {
  const firstFrame = job.inputFiles[0];
  const tier = job.resolution ?? "480p";
  const common = { duration: job.durationSeconds, seed: job.seed, prompt_extend: false, watermark: false };
  if (firstFrame) {
    return {
      model: job.providerModelId.replace("-t2v-", "-i2v-"),
      input: withoutEmptyFields({ prompt: job.prompt, img_url: firstFrame }),
      parameters: withoutEmptyFields({ resolution: tier.toUpperCase(), ...common }),
    };
  }
  return {
    model: job.providerModelId,
    input: { prompt: job.prompt },
    parameters: withoutEmptyFields({ size: wanVideoSizes[tier]?.[job.ratio], ...common }),
  };
}
