import { defineModels } from "../model-data";

// MiniMax's own models, on its API and on Replicate's official copies of them (the failover).
// Priced at the dearer of the two: Replicate's $0.01 per image-01 picture (MiniMax: $0.0035), and
// MiniMax's 10 s rate for Hailuo 02 at 768P ($0.56, Replicate $0.045/s). 1080P is left out: it
// takes 6 s only. No ratio for Hailuo: 16:9 from text, a first frame's own otherwise.

const hailuoOnReplicate = { prompt: "prompt", duration: "duration", resolution: "resolution", first_frame_image: "input_file", prompt_optimizer: { const: false } } as const;

function hailuo(identifier: string, name: string, minimaxModel: string) {
  return {
    identifier,
    name,
    type: "video" as const,
    providers: [
      { id: "minimax" as const, model: minimaxModel, cost: { per: "second" as const, usd: { "768p": "0.056" } } },
      { id: "replicate" as const, model: identifier, input: hailuoOnReplicate, cost: { per: "second" as const, usd: { "768p": "0.045" } } },
    ],
    ratios: ["16:9"],
    input_files: { max: 1, required: false },
    timeout_seconds: 900,
    durations: [6, 10],
    resolutions: ["768p"],
    price: { per: "second" as const, usd: { "768p": "0.056" } },
  };
}

export default defineModels([
  {
    identifier: "minimax/image-01",
    name: "MiniMax Image-01",
    type: "image",
    providers: [
      { id: "minimax", model: "image-01", cost: { per: "image", usd: "0.0035" } },
      {
        id: "replicate",
        model: "minimax/image-01",
        input: { prompt: "prompt", aspect_ratio: "ratio", number_of_images: "output_count", prompt_optimizer: { const: false } },
        cost: { per: "image", usd: "0.01" },
      },
    ],
    ratios: ["1:1", "16:9", "4:3", "3:2", "2:3", "3:4", "9:16", "21:9"],
    formats: ["jpg"],
    max_outputs: 9,
    timeout_seconds: 120,
    price: { per: "image", usd: "0.010" },
  },
  hailuo("minimax/hailuo-02", "Hailuo 02", "MiniMax-Hailuo-02"),
  hailuo("minimax/hailuo-2.3", "Hailuo 2.3", "MiniMax-Hailuo-2.3"),
]);
