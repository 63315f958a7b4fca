import { defineModels } from "../model-data";

// BytePlus ModelArk (https://docs.byteplus.com/en/docs/ModelArk/1544106 pricing): ByteDance's
// Seedream and Seedance, each also hosted on Replicate (bytedance/seedream-4, bytedance/seedance-1-pro)
// under the same options, so an outage fails over to the same model. Prices are the higher of the
// two hosts: Seedream 4.0 $0.03 an image on both; Seedance 1.0 Pro $2.5 per million tokens on
// ModelArk (≈ $0.024/s at 480p, $0.12/s at 1080p), $0.03/s and $0.15/s on Replicate.

export default defineModels([
  {
    identifier: "bytedance/seedream-4",
    name: "Seedream 4.0",
    type: "image",
    providers: [
      { id: "byteplus", model: "seedream-4-0-250828", cost: { per: "image", usd: "0.03" } },
      {
        id: "replicate",
        model: "bytedance/seedream-4",
        // image_input and a size tier; one picture per prediction (sequential generation off).
        input: { prompt: "prompt", image_input: "input_files", size: { const: "2K" }, aspect_ratio: "ratio", sequential_image_generation: { const: "disabled" } },
        cost: { per: "image", usd: "0.03" },
      },
    ],
    ratios: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "21:9"],
    formats: ["jpg"],
    max_outputs: 1,
    input_files: { max: 10, required: false },
    timeout_seconds: 180,
    price: { per: "image", usd: "0.030" },
  },
  {
    // Text-to-video, or image-to-video from a first frame (whose ratio the video then keeps).
    identifier: "bytedance/seedance-1-pro",
    name: "Seedance 1.0 Pro",
    type: "video",
    providers: [
      { id: "byteplus", model: "seedance-1-0-pro-250528", cost: { per: "second", usd: { "1080p": "0.12", "480p": "0.024" } } },
      {
        id: "replicate",
        model: "bytedance/seedance-1-pro",
        input: { prompt: "prompt", image: "input_file", duration: "duration", resolution: "resolution", aspect_ratio: "ratio", seed: "seed" },
        cost: { per: "second", usd: { "1080p": "0.15", "480p": "0.03" } },
      },
    ],
    ratios: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"],
    input_files: { max: 1, required: false },
    timeout_seconds: 900,
    durations: [5, 10],
    resolutions: ["1080p", "480p"],
    price: { per: "second", usd: { "1080p": "0.150", "480p": "0.030" } },
  },
]);
