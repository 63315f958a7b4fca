import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findModel } from "@/server/catalog";
import { env } from "@/server/base/env";
import { createRunwayAdapter, runwayFromEnv } from "@/server/providers/runway";
import { taskResult } from "@/server/providers/runway/runway-task";
import type { ProviderAdapter } from "@/server/providers/types";
import { pollUntilSettled, providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { providerJob } from "@/tests/fakes/provider-job";
import { startRunwayFake, type RunwayFake } from "@/tests/fakes/runway-fake";

// The Runway adapter against a local fake that follows Runway's published API. Real HTTP, no mocks.

let fake: RunwayFake;
let adapter: ProviderAdapter;

beforeAll(async () => {
  fake = await startRunwayFake();
  adapter = createRunwayAdapter({ apiSecret: fake.apiSecret, baseUrl: fake.baseUrl, timeoutMs: 2_000 });
});

afterAll(() => fake.close());

beforeEach(() => fake.reset());

const image = (overrides = {}) => providerJob("runway/gen4-image", "runway", overrides);
const turbo = (overrides = {}) => providerJob("runway/gen4-turbo", "runway", overrides);

async function failedResult(prompt: string) {
  const job = image({ prompt });
  const submitted = await adapter.submit(job);
  const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
  if (result.status !== "failed") throw new Error(`expected a failed task, got ${result.status}`);
  return result.error;
}

describe("submit: the request Runway receives", () => {
  it("creates a gen4_image task on /v1/text_to_image with Bearer auth, the API version and the 1080p size", async () => {
    const job = image({ ratio: "4:3", inputFiles: ["https://img.example.test/a.png", "https://img.example.test/b.png"] });
    const submitted = await adapter.submit(job);
    expect(submitted).toMatchObject({ kind: "accepted", predictionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/text_to_image" });
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiSecret}`);
    expect(request?.headers["x-runway-version"]).toBe("2024-11-06");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toEqual({
      model: "gen4_image",
      promptText: job.prompt,
      ratio: "1440:1080",
      seed: job.seed,
      referenceImages: [{ uri: "https://img.example.test/a.png" }, { uri: "https://img.example.test/b.png" }],
    });
  });

  it("sends Gen-4 Turbo to /v1/image_to_video and Aleph to /v1/video_to_video in their 720p sizes", async () => {
    await adapter.submit(turbo({ ratio: "21:9", durationSeconds: 10, inputFiles: ["https://img.example.test/start.png"] }));
    await adapter.submit(providerJob("runway/gen4-aleph", "runway", { ratio: "9:16", inputFiles: ["https://vid.example.test/in.mp4"] }));
    const [video, aleph] = fake.requests;
    expect(video?.path).toBe("/v1/image_to_video");
    expect(video?.body).toEqual({
      model: "gen4_turbo",
      promptImage: "https://img.example.test/start.png",
      promptText: expect.any(String),
      ratio: "1584:672",
      duration: 10,
      seed: 1_234_567,
    });
    expect(aleph?.path).toBe("/v1/video_to_video");
    expect(aleph?.body).toEqual({
      model: "gen4_aleph",
      videoUri: "https://vid.example.test/in.mp4",
      promptText: expect.any(String),
      ratio: "720:1280",
      seed: 1_234_567,
    });
  });

  it("maps every catalog ratio of every Runway model to a size Runway publishes for it (the fake refuses others)", async () => {
    for (const identifier of [
      "runway/gen4-image",
      "runway/gen4-turbo",
      "runway/gen4-aleph",
      "runway/gen4-image-turbo",
      "runway/gen3a-turbo",
    ]) {
      const model = findModel(identifier)!;
      for (const ratio of model.ratios) {
        const inputFiles = model.inputFiles?.required ? ["https://files.example.test/in"] : [];
        await expect(
          adapter.submit(providerJob(identifier, "runway", { ratio, inputFiles })),
          `${identifier} ${ratio}`,
        ).resolves.toMatchObject({ kind: "accepted" });
      }
    }
    expect(fake.requests.every((request) => request.method === "POST")).toBe(true);
    expect(fake.requests).toHaveLength(26);
  });

  it("sends Gen-4 Image Turbo with its required references and Gen-3 Alpha Turbo in its own two sizes", async () => {
    const references = ["https://img.example.test/a.png", "https://img.example.test/b.png"];
    await adapter.submit(providerJob("runway/gen4-image-turbo", "runway", { ratio: "4:3", inputFiles: references }));
    await adapter.submit(
      providerJob("runway/gen3a-turbo", "runway", {
        ratio: "3:5",
        durationSeconds: 10,
        inputFiles: ["https://img.example.test/start.png"],
      }),
    );
    const [image, video] = fake.requests;
    expect(image?.path).toBe("/v1/text_to_image");
    expect(image?.body).toEqual({
      model: "gen4_image_turbo",
      promptText: "a lighthouse on a cliff at dusk",
      ratio: "1440:1080",
      seed: 1_234_567,
      referenceImages: references.map((uri) => ({ uri })),
    });
    expect(video?.path).toBe("/v1/image_to_video");
    expect(video?.body).toEqual({
      model: "gen3a_turbo",
      promptImage: "https://img.example.test/start.png",
      promptText: "a lighthouse on a cliff at dusk",
      ratio: "768:1280",
      duration: 10,
      seed: 1_234_567,
    });
  });

  it("Gen-4 Image Turbo without a reference is refused by Runway (400, ERR4005)", async () => {
    const noReference = await providerErrorOf(adapter.submit(providerJob("runway/gen4-image-turbo", "runway", { inputFiles: [] })));
    expect(noReference).toMatchObject({ code: "ERR4005" });
    expect(fake.requests).toHaveLength(1);
  });

  it("a ratio Gen-3 Alpha Turbo has no size for fails before Runway is called", async () => {
    const gen4Size = await providerErrorOf(adapter.submit(providerJob("runway/gen3a-turbo", "runway", { ratio: "16:9" })));
    expect(gen4Size).toMatchObject({ code: "ERR4002", providerDetail: "unmapped ratio" });
    expect(fake.requests).toHaveLength(0);
  });

  it("leaves out a prompt Gen-4 Turbo does not need and references Gen-4 Image has none of", async () => {
    await adapter.submit(turbo({ prompt: null }));
    await adapter.submit(image());
    expect(fake.requests[0]?.body).not.toHaveProperty("promptText");
    expect(fake.requests[1]?.body).not.toHaveProperty("referenceImages");
  });
});

describe("results", () => {
  it("succeeds by polling GET /v1/tasks/{id}: running, then the output URL (downloadable)", async () => {
    fake.script({ delayMs: 200 });
    const job = image();
    const submitted = await adapter.submit(job);
    const { result, seen } = await pollUntilSettled(adapter, submitted.predictionId, job);
    expect(seen[0]).toBe("running");
    expect(result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url" }], predictTimeSeconds: null });
    const output = result.status === "succeeded" ? result.outputs[0] : undefined;
    const download = await fetch(output?.kind === "url" ? output.url : "");
    expect(download.headers.get("content-type")).toBe("image/png");
    const gets = fake.requests.filter((request) => request.method === "GET");
    expect(
      gets.every(
        (request) => request.path === `/v1/tasks/${submitted.predictionId}` && request.headers["x-runway-version"] === "2024-11-06",
      ),
    ).toBe(true);
  });

  it("reads THROTTLED as still running, not as a failure", async () => {
    fake.script({ delayMs: 400 });
    const job = image({ prompt: "a kite [runway:throttled]" });
    const submitted = await adapter.submit(job);
    await expect(adapter.poll(submitted.predictionId, job)).resolves.toEqual({ status: "running" });
    const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
    expect(result.status).toBe("succeeded");
  });

  it("a video task's output is one MP4 URL", async () => {
    const job = turbo();
    const submitted = await adapter.submit(job);
    const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
    const output = result.status === "succeeded" ? result.outputs[0] : undefined;
    expect((await fetch(output?.kind === "url" ? output.url : "")).headers.get("content-type")).toBe("video/mp4");
  });
});

describe("error mapping", () => {
  it.each([
    ["rate_limit", "ERR4002", true, "HTTP 429"],
    ["server_error", "ERR4002", true, "HTTP 503"],
    ["unauthorized", "ERR4002", true, "HTTP 401"],
  ] as const)("%s on create → %s (failover %s)", async (fail, code, failover, detail) => {
    fake.script({ fail });
    const error = await providerErrorOf(adapter.submit(image()));
    expect(error).toMatchObject({ code, provider: "runway" });
    expect(error.failover).toBe(failover);
    expect(error.providerDetail).toContain(detail);
    expect(error.message).not.toContain(fake.apiSecret);
  });

  it("keeps the Retry-After of a 429", async () => {
    fake.script({ fail: "rate_limit" });
    expect((await providerErrorOf(adapter.submit(image()))).providerDetail).toBe("HTTP 429 retry_after=1");
  });

  it("a body Runway refuses (400 with issues) is ERR4005, final, with Runway's message", async () => {
    const error = await providerErrorOf(adapter.submit(image({ prompt: "x".repeat(1001) })));
    expect(error).toMatchObject({ code: "ERR4005", providerDetail: "HTTP 400", message: "runway: Validation of body failed" });
    expect(error.failover).toBe(false);
  });

  it("a task failed by content moderation (SAFETY.*) is ERR4005, final", async () => {
    const error = await failedResult("a kite [runway:moderated]");
    expect(error).toMatchObject({
      code: "ERR4005",
      provider: "runway",
      providerDetail: "FAILED SAFETY.INPUT.TEXT",
      message: expect.stringContaining("content moderation"),
    });
    expect(error.failover).toBe(false);
  });

  it("a task failed on Runway's side (INTERNAL.BAD_OUTPUT.*) is ERR4002; an invalid asset is ERR4005", async () => {
    expect(await failedResult("a kite [runway:internal]")).toMatchObject({
      code: "ERR4002",
      providerDetail: "FAILED INTERNAL.BAD_OUTPUT.CODE01",
    });
    fake.script({ fail: "prediction_failed", failureCode: "ASSET.INVALID", errorText: "Invalid asset dimensions." });
    expect(await failedResult("a kite")).toMatchObject({
      code: "ERR4005",
      providerDetail: "FAILED ASSET.INVALID",
      message: "runway: Invalid asset dimensions.",
    });
    fake.script({ fail: "prediction_failed", failureCode: "INPUT_PREPROCESSING.SAFETY.TEXT" });
    expect((await failedResult("a kite")).code).toBe("ERR4005");
  });

  it("a task it does not understand fails the attempt with a ProviderError naming Runway (ERR4002)", async () => {
    const job = image({ prompt: "a kite [runway:garbled]" });
    const submitted = await adapter.submit(job);
    const result = await adapter.poll(submitted.predictionId, job);
    expect(result).toMatchObject({
      status: "failed",
      error: {
        code: "ERR4002",
        provider: "runway",
        providerDetail: "HTTP 200 unexpected body",
        message: "runway: the answer is not a task",
      },
    });
  });

  it("an unknown task on poll is ERR4002 (HTTP 404)", async () => {
    expect(await providerErrorOf(adapter.poll("00000000-0000-4000-8000-000000000000", image()))).toMatchObject({
      code: "ERR4002",
      providerDetail: "HTTP 404",
    });
  });

  it("a provider that does not answer in time is ERR4001; a refused connection ERR4002", async () => {
    fake.script({ responseDelayMs: 400 });
    const impatient = createRunwayAdapter({ apiSecret: fake.apiSecret, baseUrl: fake.baseUrl, timeoutMs: 100 });
    expect(await providerErrorOf(impatient.submit(image()))).toMatchObject({ code: "ERR4001", providerDetail: "timeout 100ms" });
    const closed = await startRunwayFake();
    await closed.close();
    const unreachable = createRunwayAdapter({ apiSecret: "key_x", baseUrl: closed.baseUrl, timeoutMs: 2_000 });
    expect(await providerErrorOf(unreachable.submit(image()))).toMatchObject({ code: "ERR4002", providerDetail: "ECONNREFUSED" });
  });

  it("an output URL that is not http(s) leaves a succeeded task without output: ERR4002", async () => {
    expect(taskResult({ id: "t", status: "SUCCEEDED", output: ["file:///etc/passwd"] })).toMatchObject({
      status: "failed",
      error: { code: "ERR4002", provider: "runway" },
    });
  });
});

describe("cancel", () => {
  it("DELETE /v1/tasks/{id} cancels a running task, which then reads CANCELLED", async () => {
    const job = image({ prompt: "a kite [runway:slow]" });
    const submitted = await adapter.submit(job);
    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(true);
    const cancel = fake.requests.find((request) => request.method === "DELETE");
    expect(cancel).toMatchObject({
      path: `/v1/tasks/${submitted.predictionId}`,
      headers: { authorization: `Bearer ${fake.apiSecret}`, "x-runway-version": "2024-11-06" },
    });
    await expect(adapter.poll(submitted.predictionId, job)).resolves.toEqual({ status: "canceled" });
  });

  it("is false, never a throw, for an unknown task or an unreachable provider", async () => {
    await expect(adapter.cancel("unknown")).resolves.toBe(false);
    fake.script({ fail: "server_error" });
    await expect(adapter.cancel("unknown")).resolves.toBe(false);
  });
});

describe("configuration", () => {
  it("is configured by RUNWAYML_API_SECRET, with Runway's public API as the default base URL", () => {
    expect(runwayFromEnv({ ...env(), RUNWAYML_API_SECRET: undefined })).toBeNull();
    expect(runwayFromEnv({ ...env(), RUNWAYML_API_SECRET: "key_abc" })).toEqual({
      apiSecret: "key_abc",
      baseUrl: process.env.RUNWAY_BASE_URL ?? "https://api.dev.runwayml.com",
    });
  });
});
