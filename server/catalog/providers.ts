import type { InputMapping } from "./input-mapping";

// The inference providers Darkroom can route to. Adapters (server/providers) implement them;
// this file only describes them, so the library, health and routing read one definition.

export const providerIds = [
  "local",
  "local-backup",
  "replicate",
  "fal",
  "openai",
  "bfl",
  "minimax",
  "runway",
  "cloudflare",
  "alibaba",
  "byteplus",
  "google",
] as const;
export type ProviderId = (typeof providerIds)[number];

export type DeliveryMethod = "webhook" | "polling" | "synchronous";
export type ProviderCapability = "text-to-image" | "image-to-image" | "text-to-video" | "image-to-video" | "audio";
export type ProviderStatus = "active" | "not_configured" | "disabled";

export type ProviderDefinition = {
  id: ProviderId;
  name: string;
  description: string;
  website: string;
  docs: string;
  deliveryMethod: DeliveryMethod;
  /** Scheme and header of the provider's callbacks to us; "none" when it sends none. */
  webhookSignature: string;
  supportsCancel: boolean;
  timeoutSeconds: number;
  capabilities: readonly ProviderCapability[];
  /** The env var whose presence configures it; null for built-ins, which always work. */
  credentialEnv: string | null;
  /** Further env vars it needs besides its credential (an account id); all must be set. */
  requiredEnv?: readonly string[];
  /**
   * Hosted-model providers (Replicate, fal): the input a model gets when its data declares none,
   * by media type. The other adapters build their provider's body themselves.
   */
  defaultInput?: { readonly image: InputMapping; readonly video: InputMapping };
};

// The field names most hosted FLUX-like image and Veo-like video schemas publish.
const hostedVideoInput: InputMapping = {
  prompt: "prompt",
  aspect_ratio: "ratio",
  duration: "duration",
  resolution: "resolution",
  generate_audio: "audio",
  seed: "seed",
};

const allCapabilities: readonly ProviderCapability[] = ["text-to-image", "image-to-image", "text-to-video", "image-to-video", "audio"];

// Two built-in providers serving the same models, so failover can be exercised offline.
const local: ProviderDefinition = {
  id: "local",
  name: "Darkroom Local",
  description:
    "Built-in renderer: deterministic PNG, JPG and WebP images (sharp) and MP4 videos (ffmpeg) from prompt and seed, with no network.",
  website: "/",
  docs: "/docs/providers/local",
  deliveryMethod: "synchronous",
  webhookSignature: "none",
  supportsCancel: true,
  timeoutSeconds: 120,
  capabilities: allCapabilities,
  credentialEnv: null,
};

const localBackup: ProviderDefinition = {
  ...local,
  id: "local-backup",
  name: "Darkroom Local (backup)",
  description: "A second built-in renderer serving the same local models, the failover target when local fails.",
  docs: "/docs/providers/local-backup",
};

const replicate: ProviderDefinition = {
  id: "replicate",
  name: "Replicate",
  description: "Hosted open and proprietary models through the Replicate predictions API, with signed completion webhooks.",
  website: "https://replicate.com",
  docs: "https://replicate.com/docs/reference/http",
  deliveryMethod: "webhook",
  webhookSignature: "svix-hmac-sha256 (webhook-signature)",
  supportsCancel: true,
  timeoutSeconds: 900,
  capabilities: allCapabilities,
  credentialEnv: "REPLICATE_API_TOKEN",
  defaultInput: {
    image: {
      prompt: "prompt",
      aspect_ratio: "ratio",
      num_outputs: "output_count",
      output_format: "output_format",
      seed: "seed",
      image: "input_file",
    },
    video: { ...hostedVideoInput, image: "input_file", last_frame: "last_frame" },
  },
};

const fal: ProviderDefinition = {
  id: "fal",
  name: "fal",
  description: "Fast hosted image and video models through the fal queue API, with signed completion webhooks.",
  website: "https://fal.ai",
  docs: "https://docs.fal.ai/model-apis/model-endpoints/queue",
  deliveryMethod: "webhook",
  webhookSignature: "ed25519 (x-fal-webhook-signature)",
  supportsCancel: true,
  timeoutSeconds: 900,
  capabilities: allCapabilities,
  credentialEnv: "FAL_KEY",
  defaultInput: {
    image: {
      prompt: "prompt",
      // fal's named sizes, else explicit pixels (multiples of 32, within FLUX1.1 [pro]'s 1440 limit).
      image_size: {
        from: "ratio",
        map: {
          "1:1": "square_hd",
          "16:9": "landscape_16_9",
          "9:16": "portrait_16_9",
          "4:3": "landscape_4_3",
          "3:4": "portrait_4_3",
          "3:2": { width: 1440, height: 960 },
          "2:3": { width: 960, height: 1440 },
        },
      },
      num_images: "output_count",
      output_format: { from: "output_format", map: { jpg: "jpeg", png: "png" } },
      seed: "seed",
      enable_safety_checker: { const: true },
      image_url: "input_file",
    },
    video: { ...hostedVideoInput, image_url: "input_file" },
  },
};

const openai: ProviderDefinition = {
  id: "openai",
  name: "OpenAI",
  description: "OpenAI Images API (the response carries the images) and Videos API for Sora 2 (jobs polled, canceled by DELETE).",
  website: "https://openai.com",
  docs: "https://platform.openai.com/docs/guides/image-generation",
  deliveryMethod: "synchronous",
  webhookSignature: "none",
  supportsCancel: true,
  timeoutSeconds: 1800,
  capabilities: ["text-to-image", "image-to-image", "text-to-video", "audio"],
  credentialEnv: "OPENAI_API_KEY",
};

const bfl: ProviderDefinition = {
  id: "bfl",
  name: "Black Forest Labs",
  description:
    "FLUX1.1 [pro], FLUX1.1 [pro] Ultra and FLUX.1 Kontext (image editing) from their makers' API: tasks polled by id, with optional signed webhooks.",
  website: "https://bfl.ai",
  docs: "https://docs.bfl.ai/api-reference",
  deliveryMethod: "polling",
  webhookSignature: "hmac-sha256 (x-bfl-signature)",
  supportsCancel: false,
  timeoutSeconds: 300,
  capabilities: ["text-to-image", "image-to-image"],
  credentialEnv: "BFL_API_KEY",
};

const minimax: ProviderDefinition = {
  id: "minimax",
  name: "MiniMax",
  description:
    "MiniMax's own API: Hailuo videos as polled async tasks (the file fetched by its file_id), image-01 pictures in the same call.",
  website: "https://www.minimax.io",
  docs: "https://platform.minimax.io/docs/api-reference/video-generation-t2v",
  deliveryMethod: "polling",
  // Its callbacks carry no signature, so none is requested (tasks are polled).
  webhookSignature: "none",
  supportsCancel: false,
  timeoutSeconds: 900,
  capabilities: ["text-to-image", "text-to-video", "image-to-video"],
  credentialEnv: "MINIMAX_API_KEY",
};

const runway: ProviderDefinition = {
  id: "runway",
  name: "Runway",
  description:
    "Runway's Gen-4 image and video models (Gen-4 Image, Gen-4 Turbo, Aleph) through the Runway API's tasks, polled until they end.",
  website: "https://runwayml.com",
  docs: "https://docs.dev.runwayml.com/api/",
  deliveryMethod: "polling",
  webhookSignature: "none",
  supportsCancel: true,
  timeoutSeconds: 900,
  capabilities: ["text-to-image", "image-to-image", "image-to-video"],
  credentialEnv: "RUNWAYML_API_SECRET",
};

const cloudflare: ProviderDefinition = {
  id: "cloudflare",
  name: "Cloudflare Workers AI",
  description: "Fast image models (FLUX.1 [schnell]) on Cloudflare's network; one synchronous call per picture, the picture in the answer.",
  website: "https://developers.cloudflare.com/workers-ai/",
  docs: "https://developers.cloudflare.com/api/resources/ai/methods/run/",
  deliveryMethod: "synchronous",
  webhookSignature: "none",
  supportsCancel: true,
  timeoutSeconds: 120,
  capabilities: ["text-to-image"],
  credentialEnv: "CLOUDFLARE_API_TOKEN",
  requiredEnv: ["CLOUDFLARE_ACCOUNT_ID"],
};

const alibaba: ProviderDefinition = {
  id: "alibaba",
  name: "Alibaba Cloud Model Studio",
  description:
    "Alibaba's DashScope API: Wan text- and image-to-video, Wan and Qwen-Image pictures, each an async task polled until it ends; Qwen-Image-Edit edits in one synchronous call.",
  website: "https://www.alibabacloud.com/en/product/modelstudio",
  docs: "https://www.alibabacloud.com/help/en/model-studio/text-to-video-api-reference",
  deliveryMethod: "polling",
  // The HTTP API sends no signed callbacks: tasks are polled.
  webhookSignature: "none",
  supportsCancel: true,
  timeoutSeconds: 900,
  capabilities: ["text-to-image", "image-to-image", "text-to-video", "image-to-video"],
  credentialEnv: "DASHSCOPE_API_KEY",
};

const byteplus: ProviderDefinition = {
  id: "byteplus",
  name: "BytePlus ModelArk",
  description:
    "ByteDance's Seedream images (one synchronous call) and Seedance videos (content generation tasks, polled until they end) on BytePlus ModelArk.",
  website: "https://www.byteplus.com/en/product/modelark",
  docs: "https://docs.byteplus.com/en/docs/ModelArk/1520757",
  deliveryMethod: "polling",
  webhookSignature: "none",
  supportsCancel: true,
  timeoutSeconds: 900,
  capabilities: ["text-to-image", "image-to-image", "text-to-video", "image-to-video"],
  credentialEnv: "ARK_API_KEY",
};

const google: ProviderDefinition = {
  id: "google",
  name: "Google (Gemini API)",
  description:
    "Google's own models through the Gemini API: Imagen 4 and Gemini image (editing) answered in the same call, Veo 2, 3 and 3.1 videos (from text or first and last frames) as long-running operations polled until done.",
  website: "https://ai.google.dev",
  docs: "https://ai.google.dev/api",
  deliveryMethod: "polling",
  // The Gemini API sends no callbacks.
  webhookSignature: "none",
  supportsCancel: true,
  timeoutSeconds: 900,
  capabilities: ["text-to-image", "image-to-image", "text-to-video", "image-to-video", "audio"],
  credentialEnv: "GEMINI_API_KEY",
};

export const providers: readonly ProviderDefinition[] = [
  local,
  localBackup,
  replicate,
  fal,
  openai,
  bfl,
  minimax,
  runway,
  cloudflare,
  alibaba,
  byteplus,
  google,
];

/** Whether callers can use it; `configured` and `disabled` (CATALOG_DISABLED_PROVIDERS) are decided by the env, not here. */
export function providerStatus(provider: ProviderDefinition, configured: boolean, disabled = false): ProviderStatus {
  if (disabled) return "disabled";
  return provider.credentialEnv === null || configured ? "active" : "not_configured";
}
