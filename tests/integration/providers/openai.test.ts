import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { createOpenAIAdapter, openaiFromEnv } from "@/server/providers/openai";
import type { ProviderAdapter } from "@/server/providers/types";
import { pollUntilSettled, providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { multipartFields } from "@/tests/fakes/openai-videos-fake";
import { startOpenAIFake, type OpenAIFake } from "@/tests/fakes/openai-fake";
import { providerJob } from "@/tests/fakes/provider-job";

// The OpenAI adapter against a local fake of the Images API (synchronous: the answer of submit is
// the finished result) and of the Videos API (Sora: polled, canceled by DELETE). Real HTTP, no mocks.

let fake: OpenAIFake;
let adapter: ProviderAdapter;

beforeAll(async () => {
  fake = await startOpenAIFake();
  adapter = createOpenAIAdapter({ token: fake.token, baseUrl: fake.baseUrl, timeoutMs: 2_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => fake.reset());

const gptImage = (overrides = {}) => providerJob("openai/gpt-image-1", "openai", overrides);

describe("DALL·E and GPT Image 1 Mini on the Images API", () => {
  it("DALL·E 3 asks for one base64 picture at its own size and standard quality, with no output_format", async () => {
    const job = providerJob("openai/dall-e-3", "openai", { ratio: "7:4" });
    const submitted = await adapter.submit(job);
    expect(fake.requests[0]?.path).toBe("/v1/images/generations");
    expect(fake.requests[0]?.body).toEqual({
      model: "dall-e-3",
      prompt: job.prompt,
      n: 1,
      size: "1792x1024",
      quality: "standard",
      response_format: "b64_json",
    });
    expect(submitted).toMatchObject({
      kind: "completed",
      result: { status: "succeeded", outputs: [{ kind: "bytes", contentType: "image/png" }] },
    });
  });

  it("DALL·E 3 takes n=1 only: more is refused as the API refuses it (ERR4005)", async () => {
    const error = await providerErrorOf(adapter.submit(providerJob("openai/dall-e-3", "openai", { outputCount: 2 })));
    expect(error).toMatchObject({ code: "ERR4005", provider: "openai" });
    expect(error.message).toContain("n=1");
  });

  it("DALL·E 2 sends its square size and the count, no quality; GPT Image 1 Mini the GPT Image body", async () => {
    const dallE2 = providerJob("openai/dall-e-2", "openai", { outputCount: 3 });
    const submitted = await adapter.submit(dallE2);
    expect(fake.requests[0]?.body).toEqual({
      model: "dall-e-2",
      prompt: dallE2.prompt,
      n: 3,
      size: "1024x1024",
      response_format: "b64_json",
    });
    expect(submitted.kind === "completed" && submitted.result.status === "succeeded" ? submitted.result.outputs : []).toHaveLength(3);

    const mini = providerJob("openai/gpt-image-1-mini", "openai", { ratio: "2:3", outputFormat: "webp" });
    await adapter.submit(mini);
    expect(fake.requests[1]?.body).toEqual({
      model: "gpt-image-1-mini",
      prompt: mini.prompt,
      n: 1,
      size: "1024x1536",
      quality: "medium",
      output_format: "webp",
    });
  });
});

describe("submit", () => {
  it("posts images/generations with the model, size from the ratio, medium quality and Bearer auth", async () => {
    const job = gptImage({ ratio: "3:2", outputFormat: "jpg", outputCount: 2 });
    await adapter.submit(job);
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/images/generations");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(request?.body).toEqual({
      model: "gpt-image-1",
      prompt: job.prompt,
      n: 2,
      size: "1536x1024",
      quality: "medium",
      output_format: "jpeg",
    });
  });

  it.each([
    ["1:1", "1024x1024"],
    ["3:2", "1536x1024"],
    ["2:3", "1024x1536"],
  ])("maps ratio %s to size %s", async (ratio, size) => {
    await adapter.submit(gptImage({ ratio }));
    expect(fake.requests[0]?.body).toMatchObject({ size });
  });

  it("answers completed, with the pictures as bytes and the request id as prediction id", async () => {
    const submitted = await adapter.submit(gptImage({ outputCount: 3, outputFormat: "webp" }));
    expect(submitted.kind).toBe("completed");
    if (submitted.kind !== "completed") return;
    expect(submitted.predictionId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(submitted.result.status).toBe("succeeded");
    if (submitted.result.status !== "succeeded") return;
    expect(submitted.result.outputs).toHaveLength(3);
    const [first] = submitted.result.outputs;
    expect(first).toMatchObject({ kind: "bytes", contentType: "image/webp" });
    if (first?.kind === "bytes") expect(Buffer.from(first.bytes).subarray(8, 12).toString()).toBe("WEBP");
  });

  it("sends input images to images/edits as URL references", async () => {
    const inputFiles = ["https://img.example.test/a.png", "https://img.example.test/b.png"];
    const submitted = await adapter.submit(gptImage({ inputFiles }));
    expect(submitted).toMatchObject({ kind: "completed", result: { status: "succeeded" } });
    expect(fake.requests[0]?.path).toBe("/v1/images/edits");
    expect(fake.requests[0]?.body).toMatchObject({ model: "gpt-image-1", images: inputFiles.map((url) => ({ image_url: url })) });
  });

  it("has nothing to poll, cancel or call back", async () => {
    expect(adapter.parseCallback).toBeUndefined();
    await expect(adapter.cancel("req_1")).resolves.toBe(false);
    expect(await providerErrorOf(adapter.poll("req_1", gptImage()))).toMatchObject({ code: "ERR4002" });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("error mapping", () => {
  it.each([
    ["rate_limit", "ERR4002", true, "HTTP 429 rate_limit_exceeded retry_after=12"],
    ["insufficient_quota", "ERR4002", true, "HTTP 429 insufficient_quota"],
    ["server_error", "ERR4002", true, "HTTP 500 server_error"],
    ["unauthorized", "ERR4002", true, "HTTP 401 invalid_api_key"],
    ["content_policy", "ERR4005", false, "HTTP 400 moderation_blocked"],
  ] as const)("%s → %s (failover %s)", async (fail, code, failover, detail) => {
    fake.script({ fail });
    const error = await providerErrorOf(adapter.submit(gptImage()));
    expect(error.code).toBe(code);
    expect(error.failover).toBe(failover);
    expect(error.provider).toBe("openai");
    expect(error.providerDetail).toBe(detail);
    expect(error.message).not.toContain(fake.token);
  });

  it("keeps OpenAI's 401 text, which echoes the start of the key, out of the message", async () => {
    fake.script({ fail: "unauthorized" });
    const error = await providerErrorOf(adapter.submit(gptImage()));
    expect(error.message).toBe("openai: the provider refused our credentials");
  });

  it("a request OpenAI finds invalid (400 invalid_value) is ERR4005: another try would fail the same", async () => {
    const error = await providerErrorOf(adapter.submit(gptImage({ providerModelId: "dall-e-9" })));
    expect(error).toMatchObject({ code: "ERR4005", providerDetail: "HTTP 400 invalid_value" });
  });

  it("a refused connection is ERR4002", async () => {
    const closed = await startOpenAIFake();
    await closed.close();
    const unreachable = createOpenAIAdapter({ token: "sk-x", baseUrl: closed.baseUrl, timeoutMs: 2_000 });
    expect(await providerErrorOf(unreachable.submit(gptImage()))).toMatchObject({ code: "ERR4002", providerDetail: "ECONNREFUSED" });
  });

  it("no answer within the timeout is ERR4001; without one set, the model's own timeout applies", async () => {
    fake.script({ delayMs: 400 });
    const impatient = createOpenAIAdapter({ token: fake.token, baseUrl: fake.baseUrl, timeoutMs: 100 });
    const error = await providerErrorOf(impatient.submit(gptImage()));
    expect(error).toMatchObject({ code: "ERR4001", providerDetail: "timeout 100ms" });
    expect(error.failover).toBe(true);

    const patient = createOpenAIAdapter({ token: fake.token, baseUrl: fake.baseUrl });
    await expect(patient.submit(gptImage())).resolves.toMatchObject({ kind: "completed" });
  });
});

const sora = (overrides = {}) => providerJob("openai/sora-2", "openai", overrides);
const soraPro = (overrides = {}) => providerJob("openai/sora-2-pro", "openai", overrides);

describe("Sora videos", () => {
  it("posts /v1/videos as a multipart form with model, prompt, seconds and the size of ratio and resolution", async () => {
    const submitted = await adapter.submit(soraPro({ ratio: "9:16", resolution: "1024p", durationSeconds: 12 }));
    expect(submitted).toMatchObject({ kind: "accepted", predictionId: expect.stringMatching(/^video_/) });
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/videos" });
    expect(request?.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(request && multipartFields(request)).toEqual({
      model: "sora-2-pro",
      prompt: "a lighthouse on a cliff at dusk",
      seconds: "12",
      size: "1024x1792",
    });
  });

  it.each([
    ["16:9", "720p", "1280x720"],
    ["9:16", "720p", "720x1280"],
    ["16:9", "1024p", "1792x1024"],
  ])("maps ratio %s at %s to size %s", async (ratio, resolution, size) => {
    await adapter.submit(soraPro({ ratio, resolution }));
    expect(fake.requests[0] && multipartFields(fake.requests[0])).toMatchObject({ size });
  });

  it("is polled through queued and in_progress to completed, the MP4 read with our key and handed over as bytes", async () => {
    fake.script({ videoDelayMs: 200 });
    const job = sora({ durationSeconds: 8 });
    const submitted = await adapter.submit(job);
    if (submitted.kind !== "accepted") throw new Error("expected an accepted job");
    const { result, seen } = await pollUntilSettled(adapter, submitted.predictionId, job);
    expect(seen[0]).toBe("running");
    expect(result.status).toBe("succeeded");
    if (result.status !== "succeeded") return;
    const [output] = result.outputs;
    expect(output).toMatchObject({ kind: "bytes", contentType: "video/mp4" });
    if (output?.kind === "bytes") expect(Buffer.from(output.bytes).subarray(4, 8).toString()).toBe("ftyp");
    const download = fake.requests.find((request) => request.path === `/v1/videos/${submitted.predictionId}/content`);
    expect(download?.headers.authorization).toBe(`Bearer ${fake.token}`);
  });

  it.each([
    ["moderation_blocked", "ERR4005", false],
    ["internal_error", "ERR4002", true],
  ] as const)("a job that fails with %s is a failed result with %s (failover %s)", async (videoFailure, code, failover) => {
    fake.script({ videoDelayMs: 0, videoFailure });
    const job = sora();
    const submitted = await adapter.submit(job);
    if (submitted.kind !== "accepted") throw new Error("expected an accepted job");
    const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
    if (result.status !== "failed") throw new Error(`expected failed, got ${result.status}`);
    expect(result.error).toMatchObject({ provider: "openai", code, providerDetail: `failed ${videoFailure}` });
    expect(result.error.failover).toBe(failover);
  });

  it.each([
    ["rate_limit", "ERR4002", "HTTP 429 rate_limit_exceeded retry_after=12"],
    ["insufficient_quota", "ERR4002", "HTTP 429 insufficient_quota"],
    ["server_error", "ERR4002", "HTTP 500 server_error"],
    ["unauthorized", "ERR4002", "HTTP 401 invalid_api_key"],
    ["content_policy", "ERR4005", "HTTP 400 moderation_blocked"],
  ] as const)("a create refused with %s is %s", async (fail, code, detail) => {
    fake.script({ fail });
    expect(await providerErrorOf(adapter.submit(sora()))).toMatchObject({ provider: "openai", code, providerDetail: detail });
  });

  it("a size the model does not have (sora-2 at 1024p) is refused by OpenAI: ERR4005", async () => {
    const error = await providerErrorOf(
      adapter.submit(providerJob("openai/sora-2-pro", "openai", { providerModelId: "sora-2", resolution: "1024p" })),
    );
    expect(error).toMatchObject({ code: "ERR4005", providerDetail: "HTTP 400 invalid_value" });
  });

  it("a rate-limited poll throws (asked again later); a video OpenAI no longer knows fails the attempt", async () => {
    const job = sora();
    const submitted = await adapter.submit(job);
    if (submitted.kind !== "accepted") throw new Error("expected an accepted job");
    fake.script({ fail: "rate_limit" });
    expect(await providerErrorOf(adapter.poll(submitted.predictionId, job))).toMatchObject({
      code: "ERR4002",
      providerDetail: "HTTP 429 rate_limit_exceeded retry_after=12",
    });
    fake.script({});
    const gone = await adapter.poll("video_unknown", job);
    expect(gone).toMatchObject({
      status: "failed",
      error: { provider: "openai", code: "ERR4002", providerDetail: "HTTP 404 video_not_found" },
    });
  });

  it("an answer not understood fails the attempt with a ProviderError naming openai", async () => {
    const job = sora();
    const submitted = await adapter.submit(job);
    if (submitted.kind !== "accepted") throw new Error("expected an accepted job");
    fake.script({ videoAnswer: { id: submitted.predictionId, object: "video", status: "rendering" } });
    const result = await adapter.poll(submitted.predictionId, job);
    expect(result).toMatchObject({
      status: "failed",
      error: { provider: "openai", code: "ERR4002", message: "openai: the answer is not a video job" },
    });
  });

  it("a video past the byte cap fails the attempt with ERR4003", async () => {
    const capped = createOpenAIAdapter({ token: fake.token, baseUrl: fake.baseUrl, timeoutMs: 2_000, maxVideoBytes: 64 * 1024 });
    fake.script({ videoDelayMs: 0, contentBytes: 64 * 1024 + 1 });
    const job = sora();
    const submitted = await capped.submit(job);
    if (submitted.kind !== "accepted") throw new Error("expected an accepted job");
    const result = await capped.poll(submitted.predictionId, job);
    expect(result).toMatchObject({ status: "failed", error: { provider: "openai", code: "ERR4003", providerDetail: "too_large" } });
  });

  it("cancels by DELETE /v1/videos/{id}; an unknown video is not acknowledged", async () => {
    fake.script({ videoDelayMs: 5_000 });
    const submitted = await adapter.submit(sora());
    if (submitted.kind !== "accepted") throw new Error("expected an accepted job");
    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(true);
    expect(fake.requests.at(-1)).toMatchObject({ method: "DELETE", path: `/v1/videos/${submitted.predictionId}` });
    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(false);
  });
});

describe("configuration", () => {
  it("is configured by OPENAI_API_KEY, with the published API as the default base URL", () => {
    expect(openaiFromEnv({ ...env(), OPENAI_API_KEY: undefined })).toBeNull();
    expect(openaiFromEnv({ ...env(), OPENAI_API_KEY: "sk-x" })).toEqual({
      token: "sk-x",
      baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com",
    });
  });
});
