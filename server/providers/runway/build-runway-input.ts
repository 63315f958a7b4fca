import "server-only";
import { withoutEmptyFields } from "../provider-input";
import { ProviderError, type ProviderJob } from "../types";

// A job as the Runway API's create call for its model (https://docs.dev.runwayml.com/api/):
// Gen-4 Image and Gen-4 Image Turbo on POST /v1/text_to_image, Gen-4 Turbo and Gen-3 Alpha Turbo on
// /v1/image_to_video, Aleph on /v1/video_to_video. Runway names an output size as `width:height` in
// pixels, so our ratio maps to the model's published size for it.

export type RunwayCreateCall = { path: string; body: Record<string, unknown> };

/** gen4_image at 1080p (the published 1080p sizes; 720p ones exist too, priced lower). */
const imageSizes: Record<string, string> = {
  "16:9": "1920:1080",
  "9:16": "1080:1920",
  "1:1": "1080:1080",
  "4:3": "1440:1080",
  "3:4": "1080:1440",
  "21:9": "2112:912",
};
/** gen4_turbo and gen4_aleph: 720p. */
const videoSizes: Record<string, string> = {
  "16:9": "1280:720",
  "9:16": "720:1280",
  "4:3": "1104:832",
  "3:4": "832:1104",
  "1:1": "960:960",
  "21:9": "1584:672",
};
/** gen3a_turbo renders 1280×768 or 768×1280 only. */
const gen3aSizes: Record<string, string> = { "5:3": "1280:768", "3:5": "768:1280" };

const textToImage = (model: string) => (job: ProviderJob) => ({
  path: "/v1/text_to_image",
  body: {
    model,
    promptText: job.prompt,
    ratio: size(imageSizes, job),
    seed: job.seed,
    referenceImages: job.inputFiles.length > 0 ? job.inputFiles.map((uri) => ({ uri })) : null,
  },
});

const imageToVideo = (model: string, sizes: Record<string, string>) => (job: ProviderJob) => ({
  path: "/v1/image_to_video",
  body: {
    model,
    promptImage: job.inputFiles[0],
    promptText: job.prompt,
    ratio: size(sizes, job),
    duration: job.durationSeconds,
    seed: job.seed,
  },
});

const builders: Record<string, (job: ProviderJob) => RunwayCreateCall> = {
  gen4_image: textToImage("gen4_image"),
  // Same sizes as gen4_image; Runway requires at least one reference image (the catalog requires it).
  gen4_image_turbo: textToImage("gen4_image_turbo"),
  gen4_turbo: imageToVideo("gen4_turbo", videoSizes),
  gen3a_turbo: imageToVideo("gen3a_turbo", gen3aSizes),
  // The output is as long as the input video (up to its first 5 s); no duration is sent.
  gen4_aleph: (job) => ({
    path: "/v1/video_to_video",
    body: { model: "gen4_aleph", videoUri: job.inputFiles[0], promptText: job.prompt, ratio: size(videoSizes, job), seed: job.seed },
  }),
};

export function buildRunwayCreate(job: ProviderJob): RunwayCreateCall {
  const build = builders[job.providerModelId];
  if (!build)
    throw new ProviderError(
      "runway",
      "ERR4002",
      `runway: "${job.providerModelId}" is not a Runway model this adapter knows`,
      "unknown model",
    );
  const call = build(job);
  return { path: call.path, body: withoutEmptyFields(call.body) };
}

function size(sizes: Record<string, string>, job: ProviderJob): string {
  const pixels = sizes[job.ratio];
  if (!pixels)
    throw new ProviderError("runway", "ERR4002", `runway: no ${job.providerModelId} size for ratio ${job.ratio}`, "unmapped ratio");
  return pixels;
}
