import { defineModels } from "../model-data";

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

export default defineModels([
  {
    identifier: "google/veo-3",
    name: "Veo 3",
    type: "video",
    providers: [
      // Hosts' per-second prices after Google's September 2025 cut: $0.20 silent, $0.40 with audio;
      // the Gemini API bills $0.40 a second, audio always on.
      { id: "replicate", model: "google/veo-3", cost: { per: "second", usd: { "720p": "0.20", "1080p": "0.20" }, audio_usd: "0.20" } },
      { id: "fal", model: "fal-ai/veo3", input: { ...veoVideo, duration: { from: "duration", suffix: "s" } }, cost: { per: "second", usd: { "720p": "0.20", "1080p": "0.20" }, audio_usd: "0.20" } },
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
]);
