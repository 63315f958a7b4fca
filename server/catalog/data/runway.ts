import { defineModels } from "../model-data";

// Runway (https://docs.dev.runwayml.com/guides/pricing/, 1 credit = $0.01). Sizes are Runway's
// published pixel sizes for each ratio (server/providers/runway/build-runway-input.ts). Replicate
// hosts Gen-4 Image and Gen-4 Turbo (runwayml/*, the same six ratios), so an outage fails over to
// the same model; Aleph edits an input video, which only Runway reads.

const runwayRatios = ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"];
/** Gen-4 Image and its Turbo: one PNG per task at the 1080p sizes, up to three reference images. */
const gen4Image = { type: "image" as const, ratios: runwayRatios, formats: ["png" as const], max_outputs: 1, timeout_seconds: 300 };
const gen4ImageOnReplicate = {
  prompt: "prompt",
  aspect_ratio: "ratio",
  resolution: { const: "1080p" },
  reference_images: "input_files",
  seed: "seed",
} as const;

export default defineModels([
  {
    // 8 credits a picture.
    ...gen4Image,
    identifier: "runway/gen4-image",
    name: "Runway Gen-4 Image",
    providers: [
      { id: "runway", model: "gen4_image", cost: { per: "image", usd: "0.08" } },
      { id: "replicate", model: "runwayml/gen4-image", input: gen4ImageOnReplicate, cost: { per: "image", usd: "0.08" } },
    ],
    input_files: { max: 3, required: false },
    price: { per: "image", usd: "0.080" },
  },
  {
    // Image-to-video: the start image is required, the prompt is not (5 credits a second).
    identifier: "runway/gen4-turbo",
    name: "Runway Gen-4 Turbo",
    type: "video",
    providers: [
      { id: "runway", model: "gen4_turbo", cost: { per: "second", usd: { "720p": "0.05" } } },
      {
        id: "replicate",
        model: "runwayml/gen4-turbo",
        input: { prompt: "prompt", image: "input_file", aspect_ratio: "ratio", duration: "duration", seed: "seed" },
        cost: { per: "second", usd: { "720p": "0.05" } },
      },
    ],
    ratios: runwayRatios,
    prompt: "optional",
    input_files: { max: 1, required: true },
    timeout_seconds: 600,
    durations: [5, 10],
    resolutions: ["720p"],
    price: { per: "second", usd: { "720p": "0.050" } },
  },
  {
    // Video-to-video: the input file is the video to edit; the output is its first 5 s (15 credits a second).
    identifier: "runway/gen4-aleph",
    name: "Runway Aleph",
    type: "video",
    providers: [{ id: "runway", model: "gen4_aleph", cost: { per: "second", usd: { "720p": "0.15" } } }],
    ratios: runwayRatios,
    input_files: { max: 1, required: true, kind: "video" },
    timeout_seconds: 900,
    durations: [5],
    resolutions: ["720p"],
    price: { per: "second", usd: { "720p": "0.150" } },
  },
  {
    // Gen-4 Image Turbo: at least one reference image is required by both hosts (up to three); one
    // image per task at the 1080p sizes, 2 credits at any size. Replicate's charge for its copy is
    // not in the reference we read, so none is recorded and the price keeps a margin above Runway's.
    ...gen4Image,
    identifier: "runway/gen4-image-turbo",
    name: "Runway Gen-4 Image Turbo",
    providers: [
      { id: "runway", model: "gen4_image_turbo", cost: { per: "image", usd: "0.02" } },
      { id: "replicate", model: "runwayml/gen4-image-turbo", input: gen4ImageOnReplicate },
    ],
    input_files: { max: 3, required: true },
    price: { per: "image", usd: "0.025" },
  },
  {
    // Gen-3 Alpha Turbo: image-to-video at 1280×768 or 768×1280 (5:3, 3:5), 5 or 10 s, 5 credits a
    // second. Runway's API only: Replicate hosts no copy of it.
    identifier: "runway/gen3a-turbo",
    name: "Runway Gen-3 Alpha Turbo",
    type: "video",
    providers: [{ id: "runway", model: "gen3a_turbo", cost: { per: "second", usd: { "768p": "0.05" } } }],
    ratios: ["5:3", "3:5"],
    prompt: "optional",
    input_files: { max: 1, required: true },
    timeout_seconds: 600,
    durations: [5, 10],
    resolutions: ["768p"],
    price: { per: "second", usd: { "768p": "0.050" } },
  },
]);
