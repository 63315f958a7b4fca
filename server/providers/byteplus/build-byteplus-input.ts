import "server-only";
import { withoutEmptyFields } from "../provider-input";
import type { ProviderJob } from "../types";

// A job as the request bodies of ModelArk's two APIs: the image generation API
// (POST /api/v3/images/generations: model, prompt, image, size, seed, response_format, watermark,
// and for Seedream 4.0 sequential_image_generation) and the video generation API's create task
// (POST /api/v3/contents/generations/tasks: model, content [text, image_url with role], and the
// parameters as body fields: ratio, duration, resolution, seed, watermark).

type Body = Record<string, unknown>;

// Seedream 4.0's recommended 2K pixel sizes per ratio (width x height).
const seedreamSizes: Record<string, string> = {
  "1:1": "2048x2048",
  "4:3": "2304x1728",
  "3:4": "1728x2304",
  "16:9": "2560x1440",
  "9:16": "1440x2560",
  "3:2": "2496x1664",
  "2:3": "1664x2496",
  "21:9": "3024x1296",
};

// Seedream 3.0's recommended sizes per ratio: it takes [512, 2048] pixels a side and no size tiers.
const seedream3Sizes: Record<string, string> = {
  "1:1": "1024x1024",
  "4:3": "1152x864",
  "3:4": "864x1152",
  "16:9": "1280x720",
  "9:16": "720x1280",
  "3:2": "1248x832",
  "2:3": "832x1248",
  "21:9": "1512x648",
};

/** Seed range ModelArk takes: [-1, 2147483647]. */
function arkSeed(seed: number): number {
  return Math.abs(Math.trunc(seed)) % 2_147_483_648;
}

export function buildByteplusImageBody(job: ProviderJob): Body {
  const common = { model: job.providerModelId, prompt: job.prompt, seed: arkSeed(job.seed), response_format: "b64_json", watermark: false };
  // SeedEdit 3.0 edits one picture and keeps its size ("adaptive", the only size it takes).
  if (job.providerModelId.startsWith("seededit-3-0")) return withoutEmptyFields({ ...common, image: job.inputFiles[0], size: "adaptive" });
  // Seedream 3.0 makes pictures from text only, one per call.
  if (job.providerModelId.startsWith("seedream-3-0"))
    return withoutEmptyFields({ ...common, size: seedream3Sizes[job.ratio] ?? seedream3Sizes["1:1"] });
  return withoutEmptyFields({
    ...common,
    image: job.inputFiles.length === 0 ? undefined : job.inputFiles.length === 1 ? job.inputFiles[0] : job.inputFiles,
    size: seedreamSizes[job.ratio] ?? seedreamSizes["1:1"],
    sequential_image_generation: "disabled",
  });
}

export function buildByteplusVideoBody(job: ProviderJob): Body {
  const content: Body[] = [];
  if (job.prompt) content.push({ type: "text", text: job.prompt });
  const first = job.inputFiles[0];
  if (first) content.push({ type: "image_url", image_url: { url: first }, role: "first_frame" });
  if (job.inputFileLastContent) content.push({ type: "image_url", image_url: { url: job.inputFileLastContent }, role: "last_frame" });
  return withoutEmptyFields({
    // Seedance 1.0 Lite has a model per mode: with a first frame its image-to-video twin runs.
    model: first ? job.providerModelId.replace("-t2v-", "-i2v-") : job.providerModelId,
    content,
    // With a first frame the video keeps the picture's ratio ("adaptive").
    ratio: first ? "adaptive" : job.ratio,
    duration: job.durationSeconds,
    resolution: job.resolution,
    seed: arkSeed(job.seed),
    watermark: false,
  });
}
