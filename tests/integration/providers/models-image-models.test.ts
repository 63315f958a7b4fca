import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFalAdapter } from "@/server/providers/fal";
import { createReplicateAdapter } from "@/server/providers/replicate";
import type { ProviderAdapter, ProviderJob } from "@/server/providers/types";
import { pollUntilSettled } from "@/tests/fakes/expect-provider-error";
import { startFalFake, type FalFake } from "@/tests/fakes/fal-fake";
import { providerJob } from "@/tests/fakes/provider-job";
import { startReplicateFake, type ReplicateFake } from "@/tests/fakes/replicate-fake";

// The image models of FLUX.1 [dev] / [pro] / Kontext [dev] / Krea, Ideogram, Recraft, Stable
// Diffusion 3.5 and HiDream, one test per input shape their data declares: the exact input
// Replicate's and fal's fakes receive, through the real adapters over HTTP.

let replicate: ReplicateFake;
let fal: FalFake;
let replicateAdapter: ProviderAdapter;
let falAdapter: ProviderAdapter;

beforeAll(async () => {
  replicate = await startReplicateFake();
  fal = await startFalFake();
  replicateAdapter = createReplicateAdapter({
    token: replicate.token,
    baseUrl: replicate.baseUrl,
    webhookSecret: replicate.webhookSecret,
    timeoutMs: 2_000,
  });
  falAdapter = createFalAdapter({ token: fal.key, baseUrl: fal.baseUrl, jwksUrl: fal.jwksUrl, timeoutMs: 2_000 });
});

afterAll(async () => {
  await replicate.close();
  await fal.close();
});

beforeEach(() => {
  replicate.reset();
  fal.reset();
});

const prompt = "a lighthouse on a cliff at dusk";
const seed = 1_234_567;
const image = "https://images.example.test/start.png";

async function replicateInput(job: ProviderJob) {
  await replicateAdapter.submit(job);
  const [request] = replicate.requests;
  return { path: request?.path, input: (request?.body as { input?: unknown } | undefined)?.input };
}

async function falInput(job: ProviderJob) {
  await falAdapter.submit(job);
  const [request] = fal.requests.filter((entry) => entry.path !== "/.well-known/jwks.json");
  return { path: request?.path, input: request?.body };
}

describe("Replicate: the input each shape sends", () => {
  it("one picture by aspect_ratio (FLUX.1 [pro], FLUX1.1 [pro] Ultra, Stable Diffusion 3.5): no num_outputs", async () => {
    for (const [model, ratio] of [
      ["black-forest-labs/flux-pro", "3:2"],
      ["black-forest-labs/flux-1.1-pro-ultra", "21:9"],
      ["stability-ai/stable-diffusion-3.5-large", "3:4"],
    ] as const) {
      replicate.reset();
      expect(await replicateInput(providerJob(model, "replicate", { ratio, outputFormat: "jpg" }))).toEqual({
        path: `/v1/models/${model}/predictions`,
        input: { prompt, aspect_ratio: ratio, output_format: "jpg", seed },
      });
    }
  });

  it("FLUX.1 [dev] and Krea [dev] keep Replicate's FLUX input: num_outputs, and no image without one", async () => {
    expect(await replicateInput(providerJob("black-forest-labs/flux-krea-dev", "replicate", { ratio: "9:16", outputCount: 4 }))).toEqual({
      path: "/v1/models/black-forest-labs/flux-krea-dev/predictions",
      input: { prompt, aspect_ratio: "9:16", num_outputs: 4, output_format: "png", seed },
    });
  });

  it("Kontext [dev] edits its required picture as input_image at the requested aspect_ratio", async () => {
    expect(
      await replicateInput(providerJob("black-forest-labs/flux-kontext-dev", "replicate", { ratio: "4:3", inputFiles: [image] })),
    ).toEqual({
      path: "/v1/models/black-forest-labs/flux-kontext-dev/predictions",
      input: { prompt, input_image: image, aspect_ratio: "4:3", output_format: "png", seed },
    });
  });

  it("Ideogram turns Magic Prompt off and sends neither a count nor a format", async () => {
    expect(await replicateInput(providerJob("ideogram-ai/ideogram-v3-balanced", "replicate", { ratio: "16:9" }))).toEqual({
      path: "/v1/models/ideogram-ai/ideogram-v3-balanced/predictions",
      input: { prompt, aspect_ratio: "16:9", magic_prompt_option: "Off", seed },
    });
  });

  it("Recraft sends its raster style and no seed (its schema has none); V4 no style", async () => {
    expect(await replicateInput(providerJob("recraft-ai/recraft-20b", "replicate", { ratio: "3:4" }))).toEqual({
      path: "/v1/models/recraft-ai/recraft-20b/predictions",
      input: { prompt, aspect_ratio: "3:4", style: "realistic_image" },
    });
    replicate.reset();
    expect((await replicateInput(providerJob("recraft-ai/recraft-v4", "replicate"))).input).toEqual({ prompt, aspect_ratio: "1:1" });
  });
});

describe("fal: the input each shape sends", () => {
  it("at most a megapixel by image_size (FLUX.1 [dev], Stable Diffusion 3.5, HiDream): 3:2 in pixels, jpeg", async () => {
    const expected = { prompt, image_size: { width: 1216, height: 832 }, output_format: "jpeg", seed, enable_safety_checker: true };
    expect(await falInput(providerJob("stability-ai/stable-diffusion-3.5-medium", "fal", { ratio: "3:2", outputFormat: "jpg" }))).toEqual({
      path: "/fal-ai/stable-diffusion-v35-medium",
      input: expected,
    });
    fal.reset();
    expect(await falInput(providerJob("hidream-ai/hidream-i1-full", "fal", { ratio: "3:2", outputFormat: "jpg" }))).toEqual({
      path: "/fal-ai/hidream-i1-full",
      input: expected,
    });
    fal.reset();
    expect(
      await falInput(providerJob("black-forest-labs/flux-krea-dev", "fal", { ratio: "3:2", outputFormat: "jpg", outputCount: 3 })),
    ).toEqual({
      path: "/fal-ai/flux/krea",
      input: { ...expected, num_images: 3 },
    });
  });

  it("FLUX1.1 [pro] Ultra takes the ratio as aspect_ratio", async () => {
    expect(await falInput(providerJob("black-forest-labs/flux-1.1-pro-ultra", "fal", { ratio: "9:21", outputFormat: "png" }))).toEqual({
      path: "/fal-ai/flux-pro/v1.1-ultra",
      input: { prompt, aspect_ratio: "9:21", output_format: "png", seed },
    });
  });

  it("Kontext [dev] edits image_url at resolution_mode = the ratio", async () => {
    expect(await falInput(providerJob("black-forest-labs/flux-kontext-dev", "fal", { ratio: "2:3", inputFiles: [image] }))).toEqual({
      path: "/fal-ai/flux-kontext/dev",
      input: { prompt, image_url: image, resolution_mode: "2:3", output_format: "png", seed, enable_safety_checker: true },
    });
  });

  it("Ideogram 3.0: one endpoint, the tier as rendering_speed, a named size, expand_prompt off", async () => {
    expect(await falInput(providerJob("ideogram-ai/ideogram-v3-quality", "fal", { ratio: "3:4" }))).toEqual({
      path: "/fal-ai/ideogram/v3",
      input: { prompt, image_size: "portrait_4_3", rendering_speed: "QUALITY", expand_prompt: false, seed },
    });
  });

  it("Ideogram 2.0 / 2a: the endpoint of the tier, aspect_ratio, expand_prompt off", async () => {
    expect(await falInput(providerJob("ideogram-ai/ideogram-v2a-turbo", "fal", { ratio: "2:3" }))).toEqual({
      path: "/fal-ai/ideogram/v2a/turbo",
      input: { prompt, aspect_ratio: "2:3", expand_prompt: false, seed },
    });
  });

  it("Recraft: a named size and its raster style", async () => {
    expect(await falInput(providerJob("recraft-ai/recraft-v3", "fal", { ratio: "16:9" }))).toEqual({
      path: "/fal-ai/recraft/v3/text-to-image",
      input: { prompt, image_size: "landscape_16_9", style: "any", enable_safety_checker: true },
    });
  });

  it("runs a sub-path endpoint to its result under the app id", async () => {
    const job = providerJob("recraft-ai/recraft-v4-pro", "fal");
    const submitted = await falAdapter.submit(job);
    const { result } = await pollUntilSettled(falAdapter, submitted.predictionId, job);
    expect(result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url" }] });
    expect(fal.requests.some((request) => request.path === `/fal-ai/recraft/requests/${submitted.predictionId}`)).toBe(true);
  });
});
