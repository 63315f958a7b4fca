import type { ProviderJob } from "../types";

// A job as the request body of the Gemini API method its model runs on (ai.google.dev/api):
// Imagen's :predict (`instances[].prompt`, `parameters.sampleCount` 1–4 and `aspectRatio`),
// :generateContent for Gemini image models (a text part, input images as `inlineData` parts,
// `generationConfig.responseModalities` and `imageConfig.aspectRatio`), and Veo's
// :predictLongRunning (`instances[].prompt`, a first frame as `image` and an end frame as
// `lastFrame`, each `{bytesBase64Encoded, mimeType}`; `parameters.aspectRatio`, `resolution`
// except on Veo 2 (720p only), and `durationSeconds` where the model offers several lengths).

export type InlineImage = { mimeType: string; data: string };

export type GoogleFamily = "imagen" | "gemini" | "veo";

/** Which method a model id runs on: imagen-* on :predict, veo-* on :predictLongRunning, the rest on :generateContent. */
export function googleFamily(providerModelId: string): GoogleFamily {
  if (providerModelId.startsWith("imagen-")) return "imagen";
  if (providerModelId.startsWith("veo-")) return "veo";
  return "gemini";
}

export function buildImagenInput(job: ProviderJob): Record<string, unknown> {
  return { instances: [{ prompt: job.prompt ?? "" }], parameters: { sampleCount: job.outputCount, aspectRatio: job.ratio } };
}

export function buildGeminiImageInput(job: ProviderJob, images: InlineImage[]): Record<string, unknown> {
  const parts = [{ text: job.prompt ?? "" }, ...images.map((image) => ({ inlineData: image }))];
  return {
    contents: [{ role: "user", parts }],
    generationConfig: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: job.ratio } },
  };
}

/** The start frame and the end frame a Veo job carries, already downloaded. */
export type VeoFrames = { image?: InlineImage; lastFrame?: InlineImage };

export function buildVeoInput(job: ProviderJob, frames: VeoFrames = {}): Record<string, unknown> {
  const instance: Record<string, unknown> = { prompt: job.prompt ?? "" };
  if (frames.image) instance.image = veoImage(frames.image);
  if (frames.lastFrame) instance.lastFrame = veoImage(frames.lastFrame);
  const parameters: Record<string, unknown> = { aspectRatio: job.ratio };
  if (!job.providerModelId.startsWith("veo-2.")) parameters.resolution = job.resolution ?? "720p";
  if (job.model.type === "video" && job.model.durations.length > 1 && job.durationSeconds !== null)
    parameters.durationSeconds = job.durationSeconds;
  return { instances: [instance], parameters };
}

function veoImage(image: InlineImage) {
  return { bytesBase64Encoded: image.data, mimeType: image.mimeType };
}

/** Why the Gemini API would refuse these Veo options, so another provider of the model takes them. */
export function veoUnsupported(job: ProviderJob): string | null {
  const veo31 = job.providerModelId.startsWith("veo-3.1");
  if (job.resolution === "1080p" && job.ratio !== "16:9" && !veo31) return "Veo 3 on the Gemini API makes 1080p in 16:9 only";
  if (job.resolution === "1080p" && veo31 && job.durationSeconds !== 8) return "Veo 3.1 on the Gemini API makes 1080p in 8 s clips only";
  if (job.inputFileLastContent && !veo31) return "only Veo 3.1 on the Gemini API takes a last frame";
  return null;
}
