import { usd, type Millicredits } from "../money";
import type { ProviderId } from "./providers";

// The models Darkroom sells. A model's allowed values must hold on every provider listed for
// it, since failover may hand the same request to any of them.

export type NonEmpty<T> = readonly [T, ...T[]];

type ModelCommon = {
  /** `<vendor>/<model>`, the path segment clients use. */
  identifier: string;
  name: string;
  /** Supported providers in catalog order, the fallback when routing has no data. */
  providers: NonEmpty<ProviderId>;
  /** The provider's own id for this model, for every provider above. */
  providerModelIds: { readonly [P in ProviderId]?: string };
  /** The first entry is the default. */
  ratios: NonEmpty<string>;
  /** The first entry is the default. */
  formats: NonEmpty<string>;
  maxOutputs: number;
  promptRequired: boolean;
  /** Input images (image-to-image / image-to-video); null when the model takes none. */
  inputFiles: { max: number; required: boolean } | null;
  /** After this a generation is failed and refunded by the sweeper. */
  timeoutSeconds: number;
};

export type ImageModel = ModelCommon & {
  type: "image";
  pricePerOutputMillis: Millicredits;
};

export type VideoResolution = { id: string; perSecondMillis: Millicredits };

export type VideoModel = ModelCommon & {
  type: "video";
  durations: NonEmpty<number>;
  defaultDuration: number;
  resolutions: NonEmpty<VideoResolution>;
  defaultResolution: string;
  /** Added to the per-second price when audio is generated; null when not offered. */
  audioPerSecondMillis: Millicredits | null;
  /** Accepts `generation_input_file_last_content` (an end frame). */
  lastFrame: boolean;
};

export type ModelDefinition = ImageModel | VideoModel;
export type ModelType = ModelDefinition["type"];

const localProviders: NonEmpty<ProviderId> = ["local", "local-backup"];
const commonRatios: NonEmpty<string> = ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"];

const lumenImage: ImageModel = {
  identifier: "darkroom/lumen-image",
  name: "Lumen Image (built-in)",
  type: "image",
  providers: localProviders,
  providerModelIds: { local: "lumen-image", "local-backup": "lumen-image" },
  ratios: commonRatios,
  formats: ["png", "jpg", "webp"],
  maxOutputs: 4,
  promptRequired: true,
  inputFiles: { max: 1, required: false },
  timeoutSeconds: 60,
  pricePerOutputMillis: usd("0.002"),
};

const lumenVideo: VideoModel = {
  identifier: "darkroom/lumen-video",
  name: "Lumen Video (built-in)",
  type: "video",
  providers: localProviders,
  providerModelIds: { local: "lumen-video", "local-backup": "lumen-video" },
  ratios: ["16:9", "9:16", "1:1"],
  formats: ["mp4"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 1, required: false },
  timeoutSeconds: 180,
  durations: [2, 4, 6],
  defaultDuration: 4,
  resolutions: [
    { id: "480p", perSecondMillis: usd("0.010") },
    { id: "720p", perSecondMillis: usd("0.020") },
  ],
  defaultResolution: "480p",
  audioPerSecondMillis: usd("0.005"),
  lastFrame: true,
};

// fal takes jpeg and png only, so webp is not offered where fal is a failover target.
const fluxSchnell: ImageModel = {
  identifier: "black-forest-labs/flux-schnell",
  name: "FLUX.1 [schnell]",
  type: "image",
  providers: ["replicate", "fal"],
  providerModelIds: { replicate: "black-forest-labs/flux-schnell", fal: "fal-ai/flux/schnell" },
  ratios: commonRatios,
  formats: ["png", "jpg"],
  maxOutputs: 4,
  promptRequired: true,
  inputFiles: null,
  timeoutSeconds: 120,
  pricePerOutputMillis: usd("0.003"),
};

// Replicate returns one image per prediction for this model.
const flux11Pro: ImageModel = {
  identifier: "black-forest-labs/flux-1.1-pro",
  name: "FLUX1.1 [pro]",
  type: "image",
  providers: ["replicate", "fal"],
  providerModelIds: { replicate: "black-forest-labs/flux-1.1-pro", fal: "fal-ai/flux-pro/v1.1" },
  ratios: commonRatios,
  formats: ["png", "jpg"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: null,
  timeoutSeconds: 180,
  pricePerOutputMillis: usd("0.040"),
};

// Priced at the medium-quality 1536px rate, so no ratio costs us more than we charge.
const gptImage1: ImageModel = {
  identifier: "openai/gpt-image-1",
  name: "GPT Image 1",
  type: "image",
  providers: ["openai"],
  providerModelIds: { openai: "gpt-image-1" },
  ratios: ["1:1", "3:2", "2:3"],
  formats: ["png", "jpg", "webp"],
  maxOutputs: 10,
  promptRequired: true,
  inputFiles: { max: 16, required: false },
  timeoutSeconds: 300,
  pricePerOutputMillis: usd("0.063"),
};

const veo3: VideoModel = {
  identifier: "google/veo-3",
  name: "Veo 3",
  type: "video",
  providers: ["replicate", "fal"],
  providerModelIds: { replicate: "google/veo-3", fal: "fal-ai/veo3" },
  ratios: ["16:9", "9:16"],
  formats: ["mp4"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: null,
  timeoutSeconds: 900,
  durations: [8],
  defaultDuration: 8,
  resolutions: [
    { id: "720p", perSecondMillis: usd("0.400") },
    { id: "1080p", perSecondMillis: usd("0.500") },
  ],
  defaultResolution: "720p",
  audioPerSecondMillis: usd("0.250"),
  lastFrame: false,
};

// Image-to-video only: both providers require a start image. The adapter picks the
// standard (720p) or pro (1080p) tier from the resolution.
const kling21: VideoModel = {
  identifier: "kwaivgi/kling-v2.1",
  name: "Kling 2.1",
  type: "video",
  providers: ["replicate", "fal"],
  providerModelIds: { replicate: "kwaivgi/kling-v2.1", fal: "fal-ai/kling-video/v2.1/standard/image-to-video" },
  ratios: ["16:9", "9:16", "1:1"],
  formats: ["mp4"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 1, required: true },
  timeoutSeconds: 900,
  durations: [5, 10],
  defaultDuration: 5,
  resolutions: [
    { id: "720p", perSecondMillis: usd("0.050") },
    { id: "1080p", perSecondMillis: usd("0.090") },
  ],
  defaultResolution: "720p",
  audioPerSecondMillis: null,
  lastFrame: false,
};

// Cloudflare Workers AI: JPEG pictures, one per call (so up to four calls per generation), with the
// built-in renderers as failover. FLUX.1 [schnell] there takes no size or format (1024×1024), so it
// is its own model rather than a third provider of black-forest-labs/flux-schnell, whose ratios,
// PNG and output count do not all hold here.
function workersAiImage(cloudflareModelId: string): Pick<ImageModel, "type" | "providers" | "providerModelIds" | "formats" | "maxOutputs" | "promptRequired" | "inputFiles"> {
  return {
    type: "image",
    providers: ["cloudflare", "local", "local-backup"],
    providerModelIds: { cloudflare: cloudflareModelId, local: "lumen-image", "local-backup": "lumen-image" },
    formats: ["jpg"],
    maxOutputs: 4,
    promptRequired: true,
    inputFiles: null,
  };
}

// Price: $0.000053 per 512×512 tile (4) + $0.00011 per step (4) ≈ $0.00065 per picture.
const cloudflareFluxSchnell: ImageModel = {
  ...workersAiImage("@cf/black-forest-labs/flux-1-schnell"),
  identifier: "cloudflare/flux-1-schnell",
  name: "FLUX.1 [schnell] (Workers AI)",
  ratios: ["1:1"],
  timeoutSeconds: 60,
  pricePerOutputMillis: usd("0.001"),
};

// Leonardo's Lucid Origin: width and height are free (up to 2500), so every common ratio holds.
// Price: at most 6 tiles of 512 (server/providers/cloudflare/build-cloudflare-input.ts) × $0.006996
// + 4 steps × $0.000132 ≈ $0.0425 per picture.
const lucidOrigin: ImageModel = {
  ...workersAiImage("@cf/leonardo/lucid-origin"),
  identifier: "leonardo/lucid-origin",
  name: "Lucid Origin (Workers AI)",
  ratios: commonRatios,
  timeoutSeconds: 90,
  pricePerOutputMillis: usd("0.043"),
};

/** Library order: built-ins first, then images, then videos; each provider block after. */
export const models: readonly ModelDefinition[] = [lumenImage, lumenVideo, fluxSchnell, flux11Pro, gptImage1, veo3, kling21, cloudflareFluxSchnell, lucidOrigin];
