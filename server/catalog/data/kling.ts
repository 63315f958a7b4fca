import type { InputMapping } from "../input-mapping";
import { defineModels, type ModelData } from "../model-data";

// Kuaishou's Kling. Replicate runs one model per version (a start image optional), fal one
// endpoint per version, tier and mode (text-to-video, image-to-video), so each version is listed
// twice: from text (the ratio is sent) and from a start image (the video keeps the image's ratio:
// neither input takes one then, so `ratio` is ignored on purpose). The standard tier renders 720p,
// pro and master 1080p. fal takes durations as the strings "5" and "10"; Replicate as integers.
// Costs per second as published: Replicate's per-second prices, fal's "$X for 5 s, $Y per further
// second" (the same rate).

const klingRatios = ["16:9", "9:16", "1:1"];
const falDuration = { from: "duration", as: "string" } as const;

type KlingVersion = {
  identifier: string;
  name: string;
  resolution: "720p" | "1080p";
  usd: string;
  /** Replicate's model id; absent where Replicate does not host this version. */
  replicate?: { model: string; cost: string };
  fal: { textToVideo: string; imageToVideo: string; cost: string };
  note?: string;
};

type VideoData = Extract<ModelData, { type: "video" }>;

/** Replicate (where it hosts the version) then fal, each with its input for this mode. */
function hosts(
  version: KlingVersion,
  replicateInput: InputMapping,
  falModel: string,
  falInput: InputMapping,
  ignoresRatio: boolean,
): VideoData["providers"] {
  const cost = (usd: string) => ({ per: "second" as const, usd: { [version.resolution]: usd } });
  const ignores = ignoresRatio ? ["ratio" as const] : undefined;
  const fal = { id: "fal" as const, model: falModel, input: falInput, ignores, cost: cost(version.fal.cost) };
  if (!version.replicate) return [fal];
  return [{ id: "replicate", model: version.replicate.model, input: replicateInput, ignores, cost: cost(version.replicate.cost) }, fal];
}

const fromText = (version: KlingVersion): VideoData => ({
  identifier: version.identifier,
  name: version.name,
  type: "video",
  providers: hosts(
    version,
    { prompt: "prompt", aspect_ratio: "ratio", duration: "duration" },
    version.fal.textToVideo,
    { prompt: "prompt", aspect_ratio: "ratio", duration: falDuration },
    false,
  ),
  ratios: klingRatios,
  timeout_seconds: 900,
  durations: [5, 10],
  resolutions: [version.resolution],
  price: { per: "second", usd: { [version.resolution]: version.usd } },
  note: version.note,
});

const fromImage = (version: KlingVersion, lastFrame: { replicate: string; fal: string } | null): VideoData => {
  const replicateInput: InputMapping = { prompt: "prompt", start_image: "input_file", duration: "duration" };
  const falInput: InputMapping = { prompt: "prompt", image_url: "input_file", duration: falDuration };
  if (lastFrame) {
    replicateInput[lastFrame.replicate] = "last_frame";
    falInput[lastFrame.fal] = "last_frame";
  }
  return {
    ...fromText(version),
    identifier: `${version.identifier}-i2v`,
    name: `${version.name} (image-to-video)`,
    providers: hosts(version, replicateInput, version.fal.imageToVideo, falInput, true),
    input_files: { max: 1, required: true },
    last_frame: lastFrame !== null,
  };
};

const v16Standard: KlingVersion = {
  ...version("kwaivgi/kling-v1.6-standard", "Kling 1.6 Standard", "720p", "0.056", "v1.6/standard", { fal: "0.056", replicate: "0.05" }),
  note: "fal's cost is the highest rate seen billed for Kling 1.6 Standard ($0.28 for 5 s); its listed rate may be lower.",
};
const v20Master: KlingVersion = {
  ...version("kwaivgi/kling-v2.0", "Kling 2.0 Master", "1080p", "0.280", "v2/master", { fal: "0.28" }),
  note: "On fal only: Replicate's copy of Kling 2.0 could not be confirmed against a published schema.",
};
const v21Master = version("kwaivgi/kling-v2.1-master", "Kling 2.1 Master", "1080p", "0.280", "v2.1/master", {
  fal: "0.28",
  replicate: "0.28",
});
const v25TurboPro = version("kwaivgi/kling-v2.5-turbo-pro", "Kling 2.5 Turbo Pro", "1080p", "0.070", "v2.5-turbo/pro", {
  fal: "0.07",
  replicate: "0.07",
});

/** A version on fal's `fal-ai/kling-video/<path>/{text,image}-to-video`, and on Replicate by its identifier when it has a cost there. */
function version(
  identifier: string,
  name: string,
  resolution: KlingVersion["resolution"],
  usd: string,
  falPath: string,
  costs: { fal: string; replicate?: string },
): KlingVersion {
  const fal = `fal-ai/kling-video/${falPath}`;
  return {
    identifier,
    name,
    resolution,
    usd,
    replicate: costs.replicate === undefined ? undefined : { model: identifier, cost: costs.replicate },
    fal: { textToVideo: `${fal}/text-to-video`, imageToVideo: `${fal}/image-to-video`, cost: costs.fal },
  };
}

export default defineModels([
  {
    identifier: "kwaivgi/kling-v2.1",
    name: "Kling 2.1",
    type: "video",
    providers: [
      {
        id: "replicate",
        model: "kwaivgi/kling-v2.1",
        input: {
          prompt: "prompt",
          start_image: "input_file",
          mode: { from: "resolution", map: { "720p": "standard", "1080p": "pro" } },
          duration: "duration",
        },
        ignores: ["ratio"],
        cost: { per: "second", usd: { "720p": "0.05", "1080p": "0.09" } },
      },
      {
        id: "fal",
        model: "fal-ai/kling-video/v2.1/standard/image-to-video",
        model_by: {
          from: "resolution",
          map: { "720p": "fal-ai/kling-video/v2.1/standard/image-to-video", "1080p": "fal-ai/kling-video/v2.1/pro/image-to-video" },
        },
        input: { prompt: "prompt", image_url: "input_file", duration: { from: "duration", as: "string" } },
        ignores: ["ratio"],
        cost: { per: "second", usd: { "720p": "0.05", "1080p": "0.09" } },
      },
    ],
    ratios: ["16:9", "9:16", "1:1"],
    input_files: { max: 1, required: true },
    timeout_seconds: 900,
    durations: [5, 10],
    resolutions: ["720p", "1080p"],
    price: { per: "second", usd: { "720p": "0.050", "1080p": "0.090" } },
  },
  fromText(v16Standard),
  fromImage(v16Standard, null),
  {
    // Image-to-video only: Replicate's Kling 1.6 Pro needs a start (or end) image.
    identifier: "kwaivgi/kling-v1.6-pro",
    name: "Kling 1.6 Pro",
    type: "video",
    providers: [
      {
        id: "replicate",
        model: "kwaivgi/kling-v1.6-pro",
        input: { prompt: "prompt", start_image: "input_file", duration: "duration" },
        ignores: ["ratio"],
        cost: { per: "second", usd: { "1080p": "0.095" } },
      },
      {
        id: "fal",
        model: "fal-ai/kling-video/v1.6/pro/image-to-video",
        input: { prompt: "prompt", image_url: "input_file", duration: falDuration },
        ignores: ["ratio"],
        cost: { per: "second", usd: { "1080p": "0.095" } },
      },
    ],
    ratios: klingRatios,
    input_files: { max: 1, required: true },
    timeout_seconds: 900,
    durations: [5, 10],
    resolutions: ["1080p"],
    price: { per: "second", usd: { "1080p": "0.100" } },
    note: "The video keeps the start image's ratio. Priced a little above the published $0.095/s of both hosts.",
  },
  fromText(v20Master),
  fromImage(v20Master, null),
  fromText(v21Master),
  fromImage(v21Master, null),
  fromText(v25TurboPro),
  // Kling 2.5 Turbo Pro takes an end frame on both hosts (Replicate `end_image`, fal `tail_image_url`).
  fromImage(v25TurboPro, { replicate: "end_image", fal: "tail_image_url" }),
]);
