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
        input: {
          prompt: "prompt",
          image_input: "input_files",
          size: { const: "2K" },
          aspect_ratio: "ratio",
          sequential_image_generation: { const: "disabled" },
        },
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
        input: {
          prompt: "prompt",
          image: "input_file",
          duration: "duration",
          resolution: "resolution",
          aspect_ratio: "ratio",
          seed: "seed",
        },
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
  {
    // Text-to-image, one picture per call, $0.03 on all three hosts.
    identifier: "bytedance/seedream-3",
    name: "Seedream 3.0",
    type: "image",
    providers: [
      { id: "byteplus", model: "seedream-3-0-t2i-250415", cost: { per: "image", usd: "0.03" } },
      {
        id: "replicate",
        model: "bytedance/seedream-3",
        input: { prompt: "prompt", aspect_ratio: "ratio", size: { const: "regular" }, seed: "seed" },
        cost: { per: "image", usd: "0.03" },
      },
      {
        id: "fal",
        model: "fal-ai/bytedance/seedream/v3/text-to-image",
        // fal's named sizes, else Seedream 3.0's recommended pixels for the ratio.
        input: {
          prompt: "prompt",
          image_size: {
            from: "ratio",
            map: {
              "1:1": "square_hd",
              "16:9": "landscape_16_9",
              "9:16": "portrait_16_9",
              "4:3": "landscape_4_3",
              "3:4": "portrait_4_3",
              "3:2": { width: 1248, height: 832 },
              "2:3": { width: 832, height: 1248 },
              "21:9": { width: 1512, height: 648 },
            },
          },
          num_images: { const: 1 },
          seed: "seed",
        },
        cost: { per: "image", usd: "0.03" },
      },
    ],
    ratios: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "21:9"],
    formats: ["jpg"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd: "0.030" },
  },
  {
    identifier: "bytedance/seededit-3",
    name: "SeedEdit 3.0",
    type: "image",
    note: 'Edits one input picture and keeps its size and ratio (ModelArk\'s only size is "adaptive"); 1:1 is listed as the single nominal ratio.',
    providers: [
      { id: "byteplus", model: "seededit-3-0-i2i-250628", cost: { per: "image", usd: "0.03" } },
      {
        id: "fal",
        model: "fal-ai/bytedance/seededit/v3/edit-image",
        input: { prompt: "prompt", image_url: "input_file", seed: "seed" },
        cost: { per: "image", usd: "0.03" },
      },
    ],
    ratios: ["1:1"],
    formats: ["jpg"],
    max_outputs: 1,
    input_files: { max: 1, required: true },
    timeout_seconds: 180,
    price: { per: "image", usd: "0.030" },
  },
  {
    // Text-to-video, or from a first frame (and an optional last frame): ModelArk runs the i2v
    // twin then. $1.8 per million tokens on ModelArk, at the largest frame of each tier (21:9 at
    // 720p: ≈ $0.0406/s); Replicate $0.018, $0.036 and $0.072 per second.
    identifier: "bytedance/seedance-1-lite",
    name: "Seedance 1.0 Lite",
    type: "video",
    providers: [
      {
        id: "byteplus",
        model: "seedance-1-0-lite-t2v-250428",
        cost: { per: "second", usd: { "720p": "0.0406", "480p": "0.0175", "1080p": "0.0882" } },
      },
      {
        id: "replicate",
        model: "bytedance/seedance-1-lite",
        input: {
          prompt: "prompt",
          image: "input_file",
          last_frame_image: "last_frame",
          duration: "duration",
          resolution: "resolution",
          aspect_ratio: "ratio",
          seed: "seed",
        },
        cost: { per: "second", usd: { "720p": "0.036", "480p": "0.018", "1080p": "0.072" } },
      },
    ],
    ratios: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"],
    input_files: { max: 1, required: false },
    last_frame: true,
    timeout_seconds: 900,
    durations: [5, 10],
    resolutions: ["720p", "480p", "1080p"],
    price: { per: "second", usd: { "720p": "0.041", "480p": "0.018", "1080p": "0.089" } },
  },
]);
