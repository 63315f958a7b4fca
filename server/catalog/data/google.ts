import { defineModels, type ModelData } from "../model-data";

// Google's models (ai.google.dev/gemini-api/docs/pricing): Veo on the Gemini API and on fal and
// Replicate's hosted copies; Imagen 4 at $0.04 a picture, up to four per call, at the five ratios
// Imagen takes; Gemini 2.5 Flash Image at $0.039 a picture, one per call, editing up to three
// input images.

const veoVideo = {
  prompt: "prompt",
  aspect_ratio: "ratio",
  resolution: "resolution",
  generate_audio: "audio",
  seed: "seed",
} as const;

// Imagen's five ratios, on every host that serves it.
const imagenRatios = ["1:1", "3:4", "4:3", "9:16", "16:9"];
// Replicate's Imagen: one picture per prediction, jpg unless asked.
const imagenOnReplicate = { prompt: "prompt", aspect_ratio: "ratio", output_format: { const: "png" } } as const;
const imagenOnFal = { prompt: "prompt", aspect_ratio: "ratio", num_images: { const: 1 } } as const;
// fal's Veo 3 endpoints take the length as "8s"; audio on, as the Gemini API always makes it.
const veo3OnFal = {
  prompt: "prompt",
  aspect_ratio: "ratio",
  duration: { const: "8s" },
  resolution: "resolution",
  generate_audio: { const: true },
} as const;
const veo31OnReplicate = {
  prompt: "prompt",
  image: "input_file",
  last_frame: "last_frame",
  aspect_ratio: "ratio",
  duration: "duration",
  resolution: "resolution",
  generate_audio: { const: true },
  seed: "seed",
} as const;
/** A per-second cost or price the same at 720p and 1080p. */
const perSecond = (usd: string) => ({ per: "second" as const, usd: { "720p": usd, "1080p": usd } });
/** Veo 2: 720p only. */
const perSecond720p = (usd: string) => ({ per: "second" as const, usd: { "720p": usd } });
const veoRatios = ["16:9", "9:16"];
const veo2OnReplicate = { prompt: "prompt", aspect_ratio: "ratio", duration: "duration", seed: "seed" } as const;
const veo2OnFal = { prompt: "prompt", aspect_ratio: "ratio", duration: { from: "duration", suffix: "s" } } as const;

/**
 * An Imagen 4 tier on the Gemini API, Replicate and fal, at the one price all three publish. One
 * picture per call on every host (Replicate makes one per prediction); no seed on the Gemini API.
 */
function imagen4(identifier: string, name: string, tier: "fast" | "ultra", usd: string, timeoutSeconds: number): ModelData {
  const cost = { per: "image" as const, usd };
  return {
    identifier,
    name,
    type: "image",
    providers: [
      { id: "google", model: `imagen-4.0-${tier}-generate-001`, cost },
      { id: "replicate", model: `google/imagen-4-${tier}`, input: imagenOnReplicate, cost },
      { id: "fal", model: `fal-ai/imagen4/preview/${tier}`, input: imagenOnFal, cost },
    ],
    ratios: imagenRatios,
    formats: ["png"],
    max_outputs: 1,
    timeout_seconds: timeoutSeconds,
    price: { per: "image", usd },
  };
}

export default defineModels([
  {
    identifier: "google/veo-3",
    name: "Veo 3",
    type: "video",
    providers: [
      // Hosts' per-second prices after Google's September 2025 cut: $0.20 silent, $0.40 with audio;
      // the Gemini API bills $0.40 a second, audio always on.
      { id: "replicate", model: "google/veo-3", cost: { per: "second", usd: { "720p": "0.20", "1080p": "0.20" }, audio_usd: "0.20" } },
      {
        id: "fal",
        model: "fal-ai/veo3",
        input: { ...veoVideo, duration: { from: "duration", suffix: "s" } },
        cost: { per: "second", usd: { "720p": "0.20", "1080p": "0.20" }, audio_usd: "0.20" },
      },
      { id: "google", model: "veo-3.0-generate-001", cost: { per: "second", usd: { "720p": "0.40", "1080p": "0.40" } } },
    ],
    ratios: ["16:9", "9:16"],
    timeout_seconds: 900,
    durations: [8],
    resolutions: ["720p", "1080p"],
    price: { per: "second", usd: { "720p": "0.400", "1080p": "0.500" }, audio_usd: "0.250" },
  },
  {
    identifier: "google/imagen-4",
    name: "Imagen 4",
    type: "image",
    providers: [{ id: "google", model: "imagen-4.0-generate-001", cost: { per: "image", usd: "0.04" } }],
    ratios: ["1:1", "3:4", "4:3", "9:16", "16:9"],
    formats: ["png"],
    max_outputs: 4,
    timeout_seconds: 180,
    price: { per: "image", usd: "0.040" },
  },
  {
    identifier: "google/gemini-2.5-flash-image",
    name: "Gemini 2.5 Flash Image",
    type: "image",
    providers: [{ id: "google", model: "gemini-2.5-flash-image", cost: { per: "image", usd: "0.039" } }],
    ratios: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "4:5", "5:4", "21:9"],
    formats: ["png"],
    max_outputs: 1,
    input_files: { max: 3, required: false },
    timeout_seconds: 180,
    price: { per: "image", usd: "0.039" },
  },
  imagen4("google/imagen-4-fast", "Imagen 4 Fast", "fast", "0.02", 180),
  // Imagen 4 Ultra makes one picture per request on the Gemini API.
  imagen4("google/imagen-4-ultra", "Imagen 4 Ultra", "ultra", "0.06", 240),
  {
    // The Gemini API no longer serves Imagen 3; Replicate and fal still host it, $0.05 a picture.
    identifier: "google/imagen-3",
    name: "Imagen 3",
    type: "image",
    providers: [
      {
        id: "replicate",
        model: "google/imagen-3",
        input: { prompt: "prompt", aspect_ratio: "ratio" },
        cost: { per: "image", usd: "0.05" },
      },
      { id: "fal", model: "fal-ai/imagen3", input: imagenOnFal, cost: { per: "image", usd: "0.05" } },
    ],
    ratios: imagenRatios,
    formats: ["png"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd: "0.050" },
  },
  {
    identifier: "google/veo-3-fast",
    name: "Veo 3 Fast",
    type: "video",
    note: "Audio always comes with the video (the Gemini API has no switch for it), priced in.",
    providers: [
      { id: "google", model: "veo-3.0-fast-generate-001", cost: perSecond("0.15") },
      {
        id: "replicate",
        model: "google/veo-3-fast",
        input: { prompt: "prompt", aspect_ratio: "ratio", resolution: "resolution", seed: "seed" },
        cost: perSecond("0.15"),
      },
      { id: "fal", model: "fal-ai/veo3/fast", input: veo3OnFal, cost: perSecond("0.15") },
    ],
    ratios: veoRatios,
    timeout_seconds: 900,
    durations: [8],
    resolutions: ["720p", "1080p"],
    price: perSecond("0.150"),
  },
  {
    // fal serves image-to-video at its own endpoint, so this is a model of its own.
    identifier: "google/veo-3-fast-image-to-video",
    name: "Veo 3 Fast Image to Video",
    type: "video",
    note: "Animates the input image; audio always comes with the video, priced in.",
    providers: [
      { id: "google", model: "veo-3.0-fast-generate-001", cost: perSecond("0.15") },
      {
        id: "replicate",
        model: "google/veo-3-fast",
        input: { prompt: "prompt", image: "input_file", aspect_ratio: "ratio", resolution: "resolution", seed: "seed" },
        cost: perSecond("0.15"),
      },
      { id: "fal", model: "fal-ai/veo3/fast/image-to-video", input: { ...veo3OnFal, image_url: "input_file" }, cost: perSecond("0.15") },
    ],
    ratios: veoRatios,
    input_files: { max: 1, required: true },
    timeout_seconds: 900,
    durations: [8],
    resolutions: ["720p", "1080p"],
    price: perSecond("0.150"),
  },
  {
    // Text-to-video, a first frame, or a first and a last frame. fal splits these across three
    // endpoints, so only the Gemini API and Replicate (one model taking all three) serve it.
    identifier: "google/veo-3.1",
    name: "Veo 3.1",
    type: "video",
    note: "Audio always comes with the video (the Gemini API has no switch for it), priced in. 1080p takes 8 s on the Gemini API; other lengths at 1080p fail over to Replicate.",
    providers: [
      { id: "google", model: "veo-3.1-generate-preview", cost: perSecond("0.40") },
      { id: "replicate", model: "google/veo-3.1", input: veo31OnReplicate, cost: perSecond("0.40") },
    ],
    ratios: veoRatios,
    input_files: { max: 1, required: false },
    last_frame: true,
    timeout_seconds: 900,
    durations: [8, 6, 4],
    resolutions: ["720p", "1080p"],
    price: perSecond("0.400"),
  },
  {
    identifier: "google/veo-3.1-fast",
    name: "Veo 3.1 Fast",
    type: "video",
    note: "Audio always comes with the video, priced in. 8 s clips: the one length both providers publish for it.",
    providers: [
      { id: "google", model: "veo-3.1-fast-generate-preview", cost: perSecond("0.15") },
      { id: "replicate", model: "google/veo-3.1-fast", input: veo31OnReplicate, cost: perSecond("0.15") },
    ],
    ratios: veoRatios,
    input_files: { max: 1, required: false },
    last_frame: true,
    timeout_seconds: 900,
    durations: [8],
    resolutions: ["720p", "1080p"],
    price: perSecond("0.150"),
  },
  {
    // Silent 720p clips of 5 to 8 s. Gemini API $0.35/s; Replicate and fal $0.50/s.
    identifier: "google/veo-2",
    name: "Veo 2",
    type: "video",
    providers: [
      { id: "google", model: "veo-2.0-generate-001", cost: perSecond720p("0.35") },
      { id: "replicate", model: "google/veo-2", input: veo2OnReplicate, cost: perSecond720p("0.50") },
      { id: "fal", model: "fal-ai/veo2", input: veo2OnFal, cost: perSecond720p("0.50") },
    ],
    ratios: veoRatios,
    timeout_seconds: 900,
    durations: [5, 6, 7, 8],
    resolutions: ["720p"],
    price: perSecond720p("0.500"),
  },
  {
    identifier: "google/veo-2-image-to-video",
    name: "Veo 2 Image to Video",
    type: "video",
    providers: [
      { id: "google", model: "veo-2.0-generate-001", cost: perSecond720p("0.35") },
      { id: "replicate", model: "google/veo-2", input: { ...veo2OnReplicate, image: "input_file" }, cost: perSecond720p("0.50") },
      { id: "fal", model: "fal-ai/veo2/image-to-video", input: { ...veo2OnFal, image_url: "input_file" }, cost: perSecond720p("0.50") },
    ],
    ratios: veoRatios,
    input_files: { max: 1, required: true },
    timeout_seconds: 900,
    durations: [5, 6, 7, 8],
    resolutions: ["720p"],
    price: perSecond720p("0.500"),
  },
]);
