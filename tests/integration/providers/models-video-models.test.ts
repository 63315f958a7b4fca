import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFalAdapter } from "@/server/providers/fal";
import { createReplicateAdapter } from "@/server/providers/replicate";
import type { ProviderAdapter } from "@/server/providers/types";
import { startFalFake, type FalFake } from "@/tests/fakes/fal-fake";
import { providerJob } from "@/tests/fakes/provider-job";
import { startReplicateFake, type ReplicateFake } from "@/tests/fakes/replicate-fake";

// The Kling, MiniMax Video-01, Runway Gen-4 Image Turbo and Luma models on Replicate and fal: one
// test per input shape, checking the exact input each fake received (and, on fal, the endpoint).

const start = "https://images.example.test/start.png";
const end = "https://img.example.test/end.png";

describe("on Replicate", () => {
  let fake: ReplicateFake;
  let adapter: ProviderAdapter;
  beforeAll(async () => {
    fake = await startReplicateFake();
    adapter = createReplicateAdapter({ token: fake.token, baseUrl: fake.baseUrl, webhookSecret: fake.webhookSecret, timeoutMs: 2_000 });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  async function inputOf(identifier: string, overrides: Parameters<typeof providerJob>[2] = {}) {
    fake.reset();
    await expect(adapter.submit(providerJob(identifier, "replicate", overrides))).resolves.toMatchObject({ kind: "accepted" });
    const [request] = fake.requests;
    return { path: request?.path, input: (request?.body as { input: unknown }).input };
  }

  it("Kling from text: the ratio and the duration as an integer", async () => {
    expect(await inputOf("kwaivgi/kling-v2.1-master", { ratio: "9:16", durationSeconds: 10 })).toEqual({
      path: "/v1/models/kwaivgi/kling-v2.1-master/predictions",
      input: { prompt: "a lighthouse on a cliff at dusk", aspect_ratio: "9:16", duration: 10 },
    });
  });

  it("Kling from a start image: no ratio; Kling 2.5 Turbo Pro's end frame as end_image", async () => {
    expect(await inputOf("kwaivgi/kling-v2.5-turbo-pro-i2v", { ratio: "1:1", inputFileLastContent: end })).toEqual({
      path: "/v1/models/kwaivgi/kling-v2.5-turbo-pro/predictions",
      input: { prompt: "a lighthouse on a cliff at dusk", start_image: start, duration: 5, end_image: end },
    });
    expect(await inputOf("kwaivgi/kling-v1.6-pro")).toEqual({
      path: "/v1/models/kwaivgi/kling-v1.6-pro/predictions",
      input: { prompt: "a lighthouse on a cliff at dusk", start_image: start, duration: 5 },
    });
  });

  it("MiniMax Video-01: the prompt alone, optimizer off; I2V-01 runs on video-01 with its first frame", async () => {
    expect(await inputOf("minimax/video-01-director")).toEqual({
      path: "/v1/models/minimax/video-01-director/predictions",
      input: { prompt: "a lighthouse on a cliff at dusk", prompt_optimizer: false },
    });
    expect(await inputOf("minimax/i2v-01")).toEqual({
      path: "/v1/models/minimax/video-01/predictions",
      input: { prompt: "a lighthouse on a cliff at dusk", prompt_optimizer: false, first_frame_image: start },
    });
  });

  it("Hailuo 02 Pro: Hailuo 02 at 1080p for 6 s", async () => {
    expect(await inputOf("minimax/hailuo-02-pro")).toEqual({
      path: "/v1/models/minimax/hailuo-02/predictions",
      input: { prompt: "a lighthouse on a cliff at dusk", duration: 6, resolution: "1080p", prompt_optimizer: false },
    });
  });

  it("Runway Gen-4 Image Turbo: its reference images, at 1080p", async () => {
    expect(await inputOf("runway/gen4-image-turbo", { ratio: "21:9", inputFiles: [start, end] })).toEqual({
      path: "/v1/models/runwayml/gen4-image-turbo/predictions",
      input: {
        prompt: "a lighthouse on a cliff at dusk",
        aspect_ratio: "21:9",
        resolution: "1080p",
        reference_images: [start, end],
        seed: 1_234_567,
      },
    });
  });

  it("Luma Ray from text and from frames (start_image_url, end_image_url), never looping", async () => {
    expect(await inputOf("luma/ray-flash-2-540p", { ratio: "9:21", durationSeconds: 9 })).toEqual({
      path: "/v1/models/luma/ray-flash-2-540p/predictions",
      input: { prompt: "a lighthouse on a cliff at dusk", aspect_ratio: "9:21", duration: 9, loop: false },
    });
    expect(await inputOf("luma/ray-2-720p-i2v", { inputFileLastContent: end })).toEqual({
      path: "/v1/models/luma/ray-2-720p/predictions",
      input: {
        prompt: "a lighthouse on a cliff at dusk",
        aspect_ratio: "16:9",
        duration: 5,
        start_image_url: start,
        end_image_url: end,
        loop: false,
      },
    });
  });

  it("Luma Photon: prompt, ratio and seed", async () => {
    expect(await inputOf("luma/photon-flash", { ratio: "3:4" })).toEqual({
      path: "/v1/models/luma/photon-flash/predictions",
      input: { prompt: "a lighthouse on a cliff at dusk", aspect_ratio: "3:4", seed: 1_234_567 },
    });
  });
});

describe("on fal", () => {
  let fake: FalFake;
  let adapter: ProviderAdapter;
  beforeAll(async () => {
    fake = await startFalFake();
    adapter = createFalAdapter({ token: fake.key, baseUrl: fake.baseUrl, jwksUrl: fake.jwksUrl, timeoutMs: 2_000 });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  async function requestOf(identifier: string, overrides: Parameters<typeof providerJob>[2] = {}) {
    fake.reset();
    await expect(adapter.submit(providerJob(identifier, "fal", overrides))).resolves.toMatchObject({ kind: "accepted" });
    const [request] = fake.requests.filter((entry) => entry.path !== "/.well-known/jwks.json");
    return { path: request?.path, body: request?.body };
  }

  it("Kling from text: the ratio and the duration as the string fal's enum names", async () => {
    expect(await requestOf("kwaivgi/kling-v2.0", { ratio: "1:1", durationSeconds: 10 })).toEqual({
      path: "/fal-ai/kling-video/v2/master/text-to-video",
      body: { prompt: "a lighthouse on a cliff at dusk", aspect_ratio: "1:1", duration: "10" },
    });
  });

  it("Kling from a start image: image_url, and Kling 2.5 Turbo Pro's end frame as tail_image_url", async () => {
    expect(await requestOf("kwaivgi/kling-v2.5-turbo-pro-i2v", { inputFileLastContent: end })).toEqual({
      path: "/fal-ai/kling-video/v2.5-turbo/pro/image-to-video",
      body: { prompt: "a lighthouse on a cliff at dusk", image_url: start, duration: "5", tail_image_url: end },
    });
  });

  it("MiniMax Video-01 from text and from an image, each on its own endpoint", async () => {
    expect(await requestOf("minimax/video-01")).toEqual({
      path: "/fal-ai/minimax/video-01",
      body: { prompt: "a lighthouse on a cliff at dusk", prompt_optimizer: false },
    });
    expect(await requestOf("minimax/i2v-01-director")).toEqual({
      path: "/fal-ai/minimax/video-01-director/image-to-video",
      body: { prompt: "a lighthouse on a cliff at dusk", prompt_optimizer: false, image_url: start },
    });
  });

  it('Luma Ray: the duration as "9s", the model\'s resolution, and frames as image_url / end_image_url', async () => {
    expect(await requestOf("luma/ray-2-540p", { ratio: "21:9", durationSeconds: 9 })).toEqual({
      path: "/fal-ai/luma-dream-machine/ray-2",
      body: { prompt: "a lighthouse on a cliff at dusk", aspect_ratio: "21:9", duration: "9s", resolution: "540p", loop: false },
    });
    expect(await requestOf("luma/ray-flash-2-720p-i2v", { inputFileLastContent: end })).toEqual({
      path: "/fal-ai/luma-dream-machine/ray-2-flash/image-to-video",
      body: {
        prompt: "a lighthouse on a cliff at dusk",
        image_url: start,
        end_image_url: end,
        aspect_ratio: "16:9",
        duration: "5s",
        resolution: "720p",
        loop: false,
      },
    });
  });

  it("PixVerse and HunyuanVideo: the resolution sent or fixed, a first frame as image_url", async () => {
    expect(await requestOf("pixverse/pixverse-v4-fast", { ratio: "3:4", resolution: "540p" })).toEqual({
      path: "/fal-ai/pixverse/v4/text-to-video/fast",
      body: { prompt: "a lighthouse on a cliff at dusk", aspect_ratio: "3:4", resolution: "540p" },
    });
    expect(await requestOf("pixverse/pixverse-v4.5-fast-i2v")).toEqual({
      path: "/fal-ai/pixverse/v4.5/image-to-video/fast",
      body: { prompt: "a lighthouse on a cliff at dusk", image_url: start, resolution: "720p", seed: 1_234_567 },
    });
    expect(await requestOf("tencent/hunyuan-video-i2v", { ratio: "9:16" })).toEqual({
      path: "/fal-ai/hunyuan-video-image-to-video",
      body: { prompt: "a lighthouse on a cliff at dusk", image_url: start, aspect_ratio: "9:16", resolution: "720p", seed: 1_234_567 },
    });
  });
});
