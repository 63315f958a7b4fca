import { defineModels } from "../model-data";

// The built-in models: rendered on this machine by both local providers (sharp and ffmpeg), so
// a fresh clone generates offline and failover can be exercised without a network.
export default defineModels([
  {
    identifier: "darkroom/lumen-image",
    name: "Lumen Image (built-in)",
    type: "image",
    providers: [
      { id: "local", model: "lumen-image" },
      { id: "local-backup", model: "lumen-image" },
    ],
    ratios: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"],
    formats: ["png", "jpg", "webp"],
    max_outputs: 4,
    input_files: { max: 1, required: false },
    timeout_seconds: 60,
    price: { per: "image", usd: "0.002" },
  },
  {
    identifier: "darkroom/lumen-video",
    name: "Lumen Video (built-in)",
    type: "video",
    providers: [
      { id: "local", model: "lumen-video" },
      { id: "local-backup", model: "lumen-video" },
    ],
    ratios: ["16:9", "9:16", "1:1"],
    input_files: { max: 1, required: false },
    timeout_seconds: 180,
    durations: [2, 4, 6],
    default_duration: 4,
    resolutions: ["480p", "720p"],
    last_frame: true,
    price: { per: "second", usd: { "480p": "0.010", "720p": "0.020" }, audio_usd: "0.005" },
  },
]);
