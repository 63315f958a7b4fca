import type { ProviderJob } from "../types";

// A job as the request body of the Gemini API method its model runs on (ai.google.dev/api):
// Imagen's :predict (`instances[].prompt`, `parameters.sampleCount` 1–4 and `aspectRatio`),
// :generateContent for Gemini image models (a text part, input images as `inlineData` parts,
// `generationConfig.responseModalities` and `imageConfig.aspectRatio`), and Veo's
// :predictLongRunning (`instances[].prompt`, `parameters.aspectRatio` and `resolution`).

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
  return { contents: [{ role: "user", parts }], generationConfig: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: job.ratio } } };
}

export function buildVeoInput(job: ProviderJob): Record<string, unknown> {
  return { instances: [{ prompt: job.prompt ?? "" }], parameters: { aspectRatio: job.ratio, resolution: job.resolution ?? "720p" } };
}
