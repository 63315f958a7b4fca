import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFalAdapter } from "@/server/providers/fal";
import { createReplicateAdapter } from "@/server/providers/replicate";
import type { ProviderAdapter, ProviderJob } from "@/server/providers/types";
import { startFalFake, type FalFake } from "@/tests/fakes/fal-fake";
import { providerJob } from "@/tests/fakes/provider-job";
import { startReplicateFake, type ReplicateFake } from "@/tests/fakes/replicate-fake";

// The Google, ByteDance and Alibaba models hosted on Replicate and fal (server/catalog/data):
// one submit per input shape, checking the exact input each host's fake received, field names and
// value types as each model's published schema writes them.

let replicate: ReplicateFake;
let fal: FalFake;
let onReplicate: ProviderAdapter;
let onFal: ProviderAdapter;

beforeAll(async () => {
  replicate = await startReplicateFake();
  fal = await startFalFake();
  onReplicate = createReplicateAdapter({
    token: replicate.token,
    baseUrl: replicate.baseUrl,
    webhookSecret: replicate.webhookSecret,
    timeoutMs: 2_000,
  });
  onFal = createFalAdapter({ token: fal.key, baseUrl: fal.baseUrl, jwksUrl: fal.jwksUrl, timeoutMs: 2_000 });
});

afterAll(async () => {
  await replicate.close();
  await fal.close();
});

beforeEach(() => {
  replicate.reset();
  fal.reset();
});

// providerJob gives a model that requires an input file this one.
const start = "https://images.example.test/start.png";
const end = "https://img.example.test/end.png";

/** Submits the job on Replicate and answers the model path and the input Replicate received. */
async function replicateInput(identifier: string, overrides: Partial<ProviderJob> = {}) {
  await onReplicate.submit(providerJob(identifier, "replicate", overrides));
  const request = replicate.requests.at(-1);
  return { path: request?.path, input: (request?.body as { input?: unknown } | undefined)?.input };
}

/** Submits the job on fal and answers the endpoint path and the body fal received. */
async function falInput(identifier: string, overrides: Partial<ProviderJob> = {}) {
  await onFal.submit(providerJob(identifier, "fal", overrides));
  const request = fal.requests.filter((entry) => entry.path !== "/.well-known/jwks.json").at(-1);
  return { path: request?.path, input: request?.body };
}

describe("Google's models on Replicate", () => {
  it("Imagen: the ratio and a PNG asked for, one picture per prediction; Imagen 3 without a format field", async () => {
    expect(await replicateInput("google/imagen-4-ultra", { ratio: "9:16" })).toEqual({
      path: "/v1/models/google/imagen-4-ultra/predictions",
      input: { prompt: expect.any(String), aspect_ratio: "9:16", output_format: "png" },
    });
    expect(await replicateInput("google/imagen-3", { ratio: "4:3" })).toEqual({
      path: "/v1/models/google/imagen-3/predictions",
      input: { prompt: expect.any(String), aspect_ratio: "4:3" },
    });
  });

  it("Veo 3 Fast: no duration field (8 s), the first frame as image for its image-to-video twin", async () => {
    expect(await replicateInput("google/veo-3-fast", { resolution: "1080p" })).toEqual({
      path: "/v1/models/google/veo-3-fast/predictions",
      input: { prompt: expect.any(String), aspect_ratio: "16:9", resolution: "1080p", seed: 1_234_567 },
    });
    expect((await replicateInput("google/veo-3-fast-image-to-video", { inputFiles: [start] })).input).toEqual({
      prompt: expect.any(String),
      image: start,
      aspect_ratio: "16:9",
      resolution: "720p",
      seed: 1_234_567,
    });
  });

  it("Veo 3.1: first and last frame, the duration as a number and audio on", async () => {
    expect(
      await replicateInput("google/veo-3.1", { inputFiles: [start], inputFileLastContent: end, durationSeconds: 6, ratio: "9:16" }),
    ).toEqual({
      path: "/v1/models/google/veo-3.1/predictions",
      input: {
        prompt: expect.any(String),
        image: start,
        last_frame: end,
        aspect_ratio: "9:16",
        duration: 6,
        resolution: "720p",
        generate_audio: true,
        seed: 1_234_567,
      },
    });
  });

  it("Veo 2: the duration and seed, no resolution field; its image-to-video twin adds the image", async () => {
    expect(await replicateInput("google/veo-2", { durationSeconds: 7 })).toEqual({
      path: "/v1/models/google/veo-2/predictions",
      input: { prompt: expect.any(String), aspect_ratio: "16:9", duration: 7, seed: 1_234_567 },
    });
    expect((await replicateInput("google/veo-2-image-to-video", { inputFiles: [start] })).input).toEqual({
      prompt: expect.any(String),
      aspect_ratio: "16:9",
      duration: 5,
      seed: 1_234_567,
      image: start,
    });
  });
});

describe("Google's models on fal", () => {
  it("Imagen 4: aspect_ratio and one image per request", async () => {
    expect(await falInput("google/imagen-4-fast", { ratio: "3:4" })).toEqual({
      path: "/fal-ai/imagen4/preview/fast",
      input: { prompt: expect.any(String), aspect_ratio: "3:4", num_images: 1 },
    });
  });

  it('Veo 3 Fast: the duration as "8s" and audio on; image-to-video on its own endpoint with image_url', async () => {
    expect(await falInput("google/veo-3-fast", { resolution: "1080p", ratio: "9:16" })).toEqual({
      path: "/fal-ai/veo3/fast",
      input: { prompt: expect.any(String), aspect_ratio: "9:16", duration: "8s", resolution: "1080p", generate_audio: true },
    });
    expect(await falInput("google/veo-3-fast-image-to-video", { inputFiles: [start] })).toEqual({
      path: "/fal-ai/veo3/fast/image-to-video",
      input: {
        prompt: expect.any(String),
        aspect_ratio: "16:9",
        duration: "8s",
        resolution: "720p",
        generate_audio: true,
        image_url: start,
      },
    });
  });

  it('Veo 2: the duration as "6s"; image-to-video with image_url', async () => {
    expect(await falInput("google/veo-2", { durationSeconds: 6 })).toEqual({
      path: "/fal-ai/veo2",
      input: { prompt: expect.any(String), aspect_ratio: "16:9", duration: "6s" },
    });
    expect(await falInput("google/veo-2-image-to-video", { inputFiles: [start], durationSeconds: 8 })).toEqual({
      path: "/fal-ai/veo2/image-to-video",
      input: { prompt: expect.any(String), aspect_ratio: "16:9", duration: "8s", image_url: start },
    });
  });
});

describe("ByteDance's and Alibaba's models on Replicate", () => {
  it("Seedream 3.0: the ratio and the regular size; Seedance 1.0 Lite: image and last_frame_image", async () => {
    expect(await replicateInput("bytedance/seedream-3", { ratio: "21:9" })).toEqual({
      path: "/v1/models/bytedance/seedream-3/predictions",
      input: { prompt: expect.any(String), aspect_ratio: "21:9", size: "regular", seed: 1_234_567 },
    });
    expect(
      await replicateInput("bytedance/seedance-1-lite", {
        inputFiles: [start],
        inputFileLastContent: end,
        durationSeconds: 10,
        resolution: "1080p",
      }),
    ).toEqual({
      path: "/v1/models/bytedance/seedance-1-lite/predictions",
      input: {
        prompt: expect.any(String),
        image: start,
        last_frame_image: end,
        duration: 10,
        resolution: "1080p",
        aspect_ratio: "16:9",
        seed: 1_234_567,
      },
    });
  });

  it("Qwen-Image-Edit: the picture to edit as image, PNG out", async () => {
    expect(await replicateInput("qwen/qwen-image-edit", { inputFiles: [start] })).toEqual({
      path: "/v1/models/qwen/qwen-image-edit/predictions",
      input: { prompt: expect.any(String), image: start, output_format: "png", seed: 1_234_567 },
    });
  });
});

describe("ByteDance's and Alibaba's models on fal", () => {
  it("Seedream 3.0: fal's named sizes, else Seedream's pixels; SeedEdit 3.0: image_url and seed", async () => {
    expect((await falInput("bytedance/seedream-3", { ratio: "16:9" })).input).toEqual({
      prompt: expect.any(String),
      image_size: "landscape_16_9",
      num_images: 1,
      seed: 1_234_567,
    });
    expect(await falInput("bytedance/seedream-3", { ratio: "21:9" })).toEqual({
      path: "/fal-ai/bytedance/seedream/v3/text-to-image",
      input: { prompt: expect.any(String), image_size: { width: 1512, height: 648 }, num_images: 1, seed: 1_234_567 },
    });
    expect(await falInput("bytedance/seededit-3")).toEqual({
      path: "/fal-ai/bytedance/seededit/v3/edit-image",
      input: { prompt: expect.any(String), image_url: start, seed: 1_234_567 },
    });
  });

  it("Qwen-Image-Edit: image_url, one PNG", async () => {
    expect(await falInput("qwen/qwen-image-edit")).toEqual({
      path: "/fal-ai/qwen-image-edit",
      input: { prompt: expect.any(String), image_url: start, num_images: 1, output_format: "png", seed: 1_234_567 },
    });
  });

  it('Wan 2.5: the duration as text "10"; Wan 2.2 A14B: 81 frames at 16 fps, image_url for its image-to-video', async () => {
    expect(await falInput("alibaba/wan-2.5-preview", { durationSeconds: 10, resolution: "480p", ratio: "1:1" })).toEqual({
      path: "/fal-ai/wan-25-preview/text-to-video",
      input: { prompt: expect.any(String), aspect_ratio: "1:1", resolution: "480p", duration: "10", seed: 1_234_567 },
    });
    expect(await falInput("alibaba/wan-2.5-preview-image-to-video", { inputFiles: [start] })).toEqual({
      path: "/fal-ai/wan-25-preview/image-to-video",
      input: { prompt: expect.any(String), image_url: start, resolution: "1080p", duration: "5", seed: 1_234_567 },
    });
    expect(await falInput("alibaba/wan-2.2-a14b-image-to-video", { inputFiles: [start], ratio: "9:16", resolution: "480p" })).toEqual({
      path: "/fal-ai/wan/v2.2-a14b/image-to-video",
      input: {
        prompt: expect.any(String),
        num_frames: 81,
        frames_per_second: 16,
        resolution: "480p",
        aspect_ratio: "9:16",
        seed: 1_234_567,
        image_url: start,
      },
    });
  });
});
