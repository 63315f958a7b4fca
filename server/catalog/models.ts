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
  providers: ["replicate", "fal", "bfl"],
  providerModelIds: { replicate: "black-forest-labs/flux-1.1-pro", fal: "fal-ai/flux-pro/v1.1", bfl: "flux-pro-1.1" },
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
  providers: ["replicate", "fal", "google"],
  providerModelIds: { replicate: "google/veo-3", fal: "fal-ai/veo3", google: "veo-3.0-generate-001" },
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

// Black Forest Labs' own endpoints (https://docs.bfl.ai/api-reference): one image per task,
// jpeg or png, any ratio between 21:9 and 9:21; Kontext edits up to four input images.
const bflRatios: NonEmpty<string> = [...commonRatios, "21:9", "9:21"];

const flux11ProUltra: ImageModel = {
  identifier: "black-forest-labs/flux-1.1-pro-ultra",
  name: "FLUX1.1 [pro] Ultra",
  type: "image",
  providers: ["bfl"],
  providerModelIds: { bfl: "flux-pro-1.1-ultra" },
  ratios: bflRatios,
  formats: ["jpg", "png"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: null,
  timeoutSeconds: 180,
  pricePerOutputMillis: usd("0.060"),
};

const fluxKontextPro: ImageModel = {
  identifier: "black-forest-labs/flux-kontext-pro",
  name: "FLUX.1 Kontext [pro]",
  type: "image",
  providers: ["bfl"],
  providerModelIds: { bfl: "flux-kontext-pro" },
  ratios: bflRatios,
  formats: ["png", "jpg"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 4, required: false },
  timeoutSeconds: 180,
  pricePerOutputMillis: usd("0.040"),
};

const fluxKontextMax: ImageModel = {
  ...fluxKontextPro,
  identifier: "black-forest-labs/flux-kontext-max",
  name: "FLUX.1 Kontext [max]",
  providerModelIds: { bfl: "flux-kontext-max" },
  pricePerOutputMillis: usd("0.080"),
};

// MiniMax's own models, on its API and on Replicate's official copies of them (the failover).
// Priced at the dearer of the two: Replicate's $0.01 per image-01 picture (MiniMax: $0.0035), and
// MiniMax's 10 s rate for Hailuo 02 at 768P ($0.56, Replicate $0.045/s). 1080P is left out: it
// takes 6 s only. No ratio for Hailuo: 16:9 from text, a first frame's own otherwise.
const minimaxImage01: ImageModel = {
  identifier: "minimax/image-01",
  name: "MiniMax Image-01",
  type: "image",
  providers: ["minimax", "replicate"],
  providerModelIds: { minimax: "image-01", replicate: "minimax/image-01" },
  ratios: ["1:1", "16:9", "4:3", "3:2", "2:3", "3:4", "9:16", "21:9"],
  formats: ["jpg"],
  maxOutputs: 9,
  promptRequired: true,
  inputFiles: null,
  timeoutSeconds: 120,
  pricePerOutputMillis: usd("0.010"),
};

const hailuo02: VideoModel = {
  identifier: "minimax/hailuo-02",
  name: "Hailuo 02",
  type: "video",
  providers: ["minimax", "replicate"],
  providerModelIds: { minimax: "MiniMax-Hailuo-02", replicate: "minimax/hailuo-02" },
  ratios: ["16:9"],
  formats: ["mp4"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 1, required: false },
  timeoutSeconds: 900,
  durations: [6, 10],
  defaultDuration: 6,
  resolutions: [{ id: "768p", perSecondMillis: usd("0.056") }],
  defaultResolution: "768p",
  audioPerSecondMillis: null,
  lastFrame: false,
};

// Hailuo 2.3: the same options and prices as Hailuo 02 on both providers.
const hailuo23: VideoModel = {
  ...hailuo02,
  identifier: "minimax/hailuo-2.3",
  name: "Hailuo 2.3",
  providerModelIds: { minimax: "MiniMax-Hailuo-2.3", replicate: "minimax/hailuo-2.3" },
};

// Runway (https://docs.dev.runwayml.com/guides/pricing/, 1 credit = $0.01). Sizes are Runway's
// published pixel sizes for each ratio (server/providers/runway/build-runway-input.ts). Replicate
// hosts Gen-4 Image and Gen-4 Turbo (runwayml/*, the same six ratios), so an outage fails over to
// the same model; Aleph edits an input video, which only Runway reads.
const runwayRatios: NonEmpty<string> = ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"];

// One image per task, at the 1080p sizes (8 credits); up to three reference images.
const gen4Image: ImageModel = {
  identifier: "runway/gen4-image",
  name: "Runway Gen-4 Image",
  type: "image",
  providers: ["runway", "replicate"],
  providerModelIds: { runway: "gen4_image", replicate: "runwayml/gen4-image" },
  ratios: runwayRatios,
  formats: ["png"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 3, required: false },
  timeoutSeconds: 300,
  pricePerOutputMillis: usd("0.080"),
};

// Image-to-video: the start image is required, the prompt is not (5 credits a second).
const gen4Turbo: VideoModel = {
  identifier: "runway/gen4-turbo",
  name: "Runway Gen-4 Turbo",
  type: "video",
  providers: ["runway", "replicate"],
  providerModelIds: { runway: "gen4_turbo", replicate: "runwayml/gen4-turbo" },
  ratios: runwayRatios,
  formats: ["mp4"],
  maxOutputs: 1,
  promptRequired: false,
  inputFiles: { max: 1, required: true },
  timeoutSeconds: 600,
  durations: [5, 10],
  defaultDuration: 5,
  resolutions: [{ id: "720p", perSecondMillis: usd("0.050") }],
  defaultResolution: "720p",
  audioPerSecondMillis: null,
  lastFrame: false,
};

// Video-to-video: the input file is the video to edit; the output is its first 5 s (15 credits a second).
const gen4Aleph: VideoModel = {
  identifier: "runway/gen4-aleph",
  name: "Runway Aleph",
  type: "video",
  providers: ["runway"],
  providerModelIds: { runway: "gen4_aleph" },
  ratios: runwayRatios,
  formats: ["mp4"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 1, required: true },
  timeoutSeconds: 900,
  durations: [5],
  defaultDuration: 5,
  resolutions: [{ id: "720p", perSecondMillis: usd("0.150") }],
  defaultResolution: "720p",
  audioPerSecondMillis: null,
  lastFrame: false,
};

// Cloudflare Workers AI: JPEG pictures, one per call (so up to four calls per generation). FLUX.1
// [schnell] there takes no size or format (1024×1024), so it is its own model rather than a third
// provider of black-forest-labs/flux-schnell, whose ratios, PNG and output count do not all hold
// here; its failover is that model on Replicate, where 1:1, JPEG and four outputs hold. Lucid
// Origin has no other host with a published schema, so it runs on Workers AI alone.
function workersAiImage(cloudflareModelId: string): Pick<ImageModel, "type" | "providers" | "providerModelIds" | "formats" | "maxOutputs" | "promptRequired" | "inputFiles"> {
  return {
    type: "image",
    providers: ["cloudflare"],
    providerModelIds: { cloudflare: cloudflareModelId },
    formats: ["jpg"],
    maxOutputs: 4,
    promptRequired: true,
    inputFiles: null,
  };
}

// Price: $0.000053 per 512×512 tile (4) + $0.00011 per step (4) ≈ $0.00065 per picture.
const cloudflareFluxSchnell: ImageModel = {
  ...workersAiImage("@cf/black-forest-labs/flux-1-schnell"),
  providers: ["cloudflare", "replicate"],
  providerModelIds: { cloudflare: "@cf/black-forest-labs/flux-1-schnell", replicate: "black-forest-labs/flux-schnell" },
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

// Alibaba Cloud Model Studio (DashScope) models, at its international (Singapore) prices.
// Qwen-Image: five published sizes, one picture per task; Replicate's qwen/qwen-image (the
// failover) takes the same ratios. Priced at DashScope's $0.035 (Replicate $0.025).
const qwenImage: ImageModel = {
  identifier: "qwen/qwen-image",
  name: "Qwen-Image",
  type: "image",
  providers: ["alibaba", "replicate"],
  providerModelIds: { alibaba: "qwen-image", replicate: "qwen/qwen-image" },
  ratios: ["1:1", "16:9", "9:16", "4:3", "3:4"],
  formats: ["png"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: null,
  timeoutSeconds: 300,
  pricePerOutputMillis: usd("0.035"),
};

// Wan 2.2 text-to-image Flash: up to four pictures per task, $0.025 each.
const wan22ImageFlash: ImageModel = {
  identifier: "alibaba/wan-2.2-t2i-flash",
  name: "Wan 2.2 Image Flash",
  type: "image",
  providers: ["alibaba"],
  providerModelIds: { alibaba: "wan2.2-t2i-flash" },
  ratios: ["1:1", "16:9", "9:16", "4:3", "3:4"],
  formats: ["png"],
  maxOutputs: 4,
  promptRequired: true,
  inputFiles: null,
  timeoutSeconds: 300,
  pricePerOutputMillis: usd("0.025"),
};

// Wan 2.2 Plus video: text-to-video (wan2.2-t2v-plus), or image-to-video from a first frame
// (the adapter runs wan2.2-i2v-plus). 5 s clips at 480P ($0.02/s) or 1080P ($0.10/s), silent.
const wan22Video: VideoModel = {
  identifier: "alibaba/wan-2.2-plus",
  name: "Wan 2.2 Plus",
  type: "video",
  providers: ["alibaba"],
  providerModelIds: { alibaba: "wan2.2-t2v-plus" },
  ratios: ["16:9", "9:16", "1:1"],
  formats: ["mp4"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 1, required: false },
  timeoutSeconds: 900,
  durations: [5],
  defaultDuration: 5,
  resolutions: [
    { id: "480p", perSecondMillis: usd("0.020") },
    { id: "1080p", perSecondMillis: usd("0.100") },
  ],
  defaultResolution: "480p",
  audioPerSecondMillis: null,
  lastFrame: false,
};

// BytePlus ModelArk (https://docs.byteplus.com/en/docs/ModelArk/1544106 pricing): ByteDance's
// Seedream and Seedance, each also hosted on Replicate (bytedance/seedream-4, bytedance/seedance-1-pro)
// under the same options, so an outage fails over to the same model. Prices are the higher of the
// two hosts: Seedream 4.0 $0.03 an image on both; Seedance 1.0 Pro $2.5 per million tokens on
// ModelArk (≈ $0.024/s at 480p, $0.12/s at 1080p), $0.03/s and $0.15/s on Replicate.
const seedream4: ImageModel = {
  identifier: "bytedance/seedream-4",
  name: "Seedream 4.0",
  type: "image",
  providers: ["byteplus", "replicate"],
  providerModelIds: { byteplus: "seedream-4-0-250828", replicate: "bytedance/seedream-4" },
  ratios: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "21:9"],
  formats: ["jpg"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 10, required: false },
  timeoutSeconds: 180,
  pricePerOutputMillis: usd("0.030"),
};

// Text-to-video, or image-to-video from a first frame (whose ratio the video then keeps).
const seedance1Pro: VideoModel = {
  identifier: "bytedance/seedance-1-pro",
  name: "Seedance 1.0 Pro",
  type: "video",
  providers: ["byteplus", "replicate"],
  providerModelIds: { byteplus: "seedance-1-0-pro-250528", replicate: "bytedance/seedance-1-pro" },
  ratios: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"],
  formats: ["mp4"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 1, required: false },
  timeoutSeconds: 900,
  durations: [5, 10],
  defaultDuration: 5,
  resolutions: [
    { id: "1080p", perSecondMillis: usd("0.150") },
    { id: "480p", perSecondMillis: usd("0.030") },
  ],
  defaultResolution: "1080p",
  audioPerSecondMillis: null,
  lastFrame: false,
};

// OpenAI's Sora 2 on its Videos API (https://platform.openai.com/docs/models/sora-2, prices per
// second as OpenAI publishes them). Sizes by model: sora-2 1280x720 / 720x1280 (720p); sora-2-pro
// those and 1792x1024 / 1024x1792 (1024p). Audio always comes with the video, priced in. Only
// OpenAI serves these: no failover (no published input schema of Replicate's copy was found).
const sora2: VideoModel = {
  identifier: "openai/sora-2",
  name: "Sora 2",
  type: "video",
  providers: ["openai"],
  providerModelIds: { openai: "sora-2" },
  ratios: ["16:9", "9:16"],
  formats: ["mp4"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: null,
  timeoutSeconds: 900,
  durations: [4, 8, 12],
  defaultDuration: 4,
  resolutions: [{ id: "720p", perSecondMillis: usd("0.10") }],
  defaultResolution: "720p",
  audioPerSecondMillis: null,
  lastFrame: false,
};

const sora2Pro: VideoModel = {
  ...sora2,
  identifier: "openai/sora-2-pro",
  name: "Sora 2 Pro",
  providerModelIds: { openai: "sora-2-pro" },
  timeoutSeconds: 1800,
  resolutions: [
    { id: "720p", perSecondMillis: usd("0.30") },
    { id: "1024p", perSecondMillis: usd("0.50") },
  ],
};

// Google's Gemini API (ai.google.dev/gemini-api/docs/pricing): Imagen 4 at $0.04 a picture, up to
// four per call, at the five ratios Imagen takes; Gemini 2.5 Flash Image at $0.039 a picture, one
// per call, editing up to three input images. No other provider here hosts them, so they have none
// to fail over to. (Google also serves google/veo-3 above: its own Veo 3, audio always on, $0.40 a second.)
const imagenRatios: NonEmpty<string> = ["1:1", "3:4", "4:3", "9:16", "16:9"];

const imagen4: ImageModel = {
  identifier: "google/imagen-4",
  name: "Imagen 4",
  type: "image",
  providers: ["google"],
  providerModelIds: { google: "imagen-4.0-generate-001" },
  ratios: imagenRatios,
  formats: ["png"],
  maxOutputs: 4,
  promptRequired: true,
  inputFiles: null,
  timeoutSeconds: 180,
  pricePerOutputMillis: usd("0.040"),
};

const gemini25FlashImage: ImageModel = {
  identifier: "google/gemini-2.5-flash-image",
  name: "Gemini 2.5 Flash Image",
  type: "image",
  providers: ["google"],
  providerModelIds: { google: "gemini-2.5-flash-image" },
  ratios: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "4:5", "5:4", "21:9"],
  formats: ["png"],
  maxOutputs: 1,
  promptRequired: true,
  inputFiles: { max: 3, required: false },
  timeoutSeconds: 180,
  pricePerOutputMillis: usd("0.039"),
};

/** Library order: built-ins first, then images, then videos; then each provider's block (#44). */
export const models: readonly ModelDefinition[] = [
  lumenImage,
  lumenVideo,
  fluxSchnell,
  flux11Pro,
  gptImage1,
  veo3,
  kling21,
  flux11ProUltra,
  fluxKontextPro,
  fluxKontextMax,
  minimaxImage01,
  hailuo02,
  hailuo23,
  gen4Image,
  gen4Turbo,
  gen4Aleph,
  cloudflareFluxSchnell,
  lucidOrigin,
  qwenImage,
  wan22ImageFlash,
  wan22Video,
  seedream4,
  seedance1Pro,
  sora2,
  sora2Pro,
  imagen4,
  gemini25FlashImage,
];
