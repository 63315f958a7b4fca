import type { InputMapping } from "../input-mapping";
import { defineModels, type ModelData } from "../model-data";

// Luma's Ray 2 and Ray Flash 2 (video) and Photon, Photon Flash (pictures), as Replicate and fal
// host them. Replicate runs one model per resolution (luma/ray-2-720p, …) that takes an optional
// start and end frame; fal one endpoint per model for text and one for images, with the resolution
// as a field. So each video model is listed at one resolution, from text, and (720p) from a start
// frame. Durations 5 or 9 s (Replicate integers, fal "5s" / "9s"); ratios are those both take
// (Replicate also offers 1:1, fal does not).
//
// fal bills Ray 2 $0.50 per 5 s at 540p, Ray Flash 2 $0.20; 720p costs twice that and 9 s twice
// 5 s, so the per-second cost recorded is the 9 s rate (the dearer one). Replicate's per-second
// charges for the Ray models are not in the references we read: no cost is recorded for them, and
// the prices sit at or above fal's dearest rate.

type VideoData = Extract<ModelData, { type: "video" }>;

const rayRatios = ["16:9", "9:16", "4:3", "3:4", "21:9", "9:21"];

type Ray = {
  identifier: string;
  name: string;
  resolution: "540p" | "720p";
  usd: string;
  falCost: string;
  fal: { text: string; image: string };
};

function fromText(ray: Ray): VideoData {
  return {
    identifier: ray.identifier,
    name: ray.name,
    type: "video",
    providers: [
      {
        id: "replicate",
        model: ray.identifier,
        input: { prompt: "prompt", aspect_ratio: "ratio", duration: "duration", loop: { const: false } },
      },
      {
        id: "fal",
        model: ray.fal.text,
        input: {
          prompt: "prompt",
          aspect_ratio: "ratio",
          duration: { from: "duration", suffix: "s" },
          resolution: { const: ray.resolution },
          loop: { const: false },
        },
        cost: { per: "second", usd: { [ray.resolution]: ray.falCost } },
      },
    ],
    ratios: rayRatios,
    timeout_seconds: 900,
    durations: [5, 9],
    resolutions: [ray.resolution],
    price: { per: "second", usd: { [ray.resolution]: ray.usd } },
  };
}

/** From a start frame, optionally to an end frame (Replicate start_image_url / end_image_url; fal image_url / end_image_url). */
function fromImage(ray: Ray): VideoData {
  const text = fromText(ray);
  const replicate: InputMapping = {
    prompt: "prompt",
    aspect_ratio: "ratio",
    duration: "duration",
    start_image_url: "input_file",
    end_image_url: "last_frame",
    loop: { const: false },
  };
  const fal: InputMapping = {
    prompt: "prompt",
    image_url: "input_file",
    end_image_url: "last_frame",
    aspect_ratio: "ratio",
    duration: { from: "duration", suffix: "s" },
    resolution: { const: ray.resolution },
    loop: { const: false },
  };
  return {
    ...text,
    identifier: `${ray.identifier}-i2v`,
    name: `${ray.name} (image-to-video)`,
    providers: [
      { id: "replicate", model: ray.identifier, input: replicate },
      { id: "fal", model: ray.fal.image, input: fal, cost: { per: "second", usd: { [ray.resolution]: ray.falCost } } },
    ],
    input_files: { max: 1, required: true },
    last_frame: true,
  };
}

const ray2 = { text: "fal-ai/luma-dream-machine/ray-2", image: "fal-ai/luma-dream-machine/ray-2/image-to-video" };
const rayFlash2 = { text: "fal-ai/luma-dream-machine/ray-2-flash", image: "fal-ai/luma-dream-machine/ray-2-flash/image-to-video" };

const ray2At720: Ray = {
  identifier: "luma/ray-2-720p",
  name: "Luma Ray 2 (720p)",
  resolution: "720p",
  usd: "0.225",
  falCost: "0.222223",
  fal: ray2,
};
const ray2At540: Ray = {
  identifier: "luma/ray-2-540p",
  name: "Luma Ray 2 (540p)",
  resolution: "540p",
  usd: "0.112",
  falCost: "0.111112",
  fal: ray2,
};
const flashAt720: Ray = {
  identifier: "luma/ray-flash-2-720p",
  name: "Luma Ray Flash 2 (720p)",
  resolution: "720p",
  usd: "0.090",
  falCost: "0.088889",
  fal: rayFlash2,
};
const flashAt540: Ray = {
  identifier: "luma/ray-flash-2-540p",
  name: "Luma Ray Flash 2 (540p)",
  resolution: "540p",
  usd: "0.045",
  falCost: "0.044445",
  fal: rayFlash2,
};

/** Photon on Replicate only: fal prices its copy per megapixel, at output sizes its reference does not give. */
function photon(identifier: string, name: string, usd: string, cost: string): ModelData {
  return {
    identifier,
    name,
    type: "image",
    providers: [
      {
        id: "replicate",
        model: identifier,
        input: { prompt: "prompt", aspect_ratio: "ratio", seed: "seed" },
        cost: { per: "image", usd: cost },
      },
    ],
    ratios: ["16:9", "1:1", "9:16", "4:3", "3:4", "21:9", "9:21"],
    formats: ["jpg"],
    max_outputs: 1,
    timeout_seconds: 180,
    price: { per: "image", usd },
  };
}

export default defineModels([
  fromText(ray2At720),
  fromImage(ray2At720),
  fromText(ray2At540),
  fromText(flashAt720),
  fromImage(flashAt720),
  fromText(flashAt540),
  photon("luma/photon", "Luma Photon", "0.040", "0.03"),
  photon("luma/photon-flash", "Luma Photon Flash", "0.012", "0.01"),
]);
