import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { createGoogleAdapter, googleFromEnv } from "@/server/providers/google";
import { googlePredictionId } from "@/server/providers/google/google-adapter";
import type { ProviderAdapter } from "@/server/providers/types";
import { getStorage } from "@/server/storage/get-storage";
import { signFileUrl } from "@/server/storage/signed-url";
import { pollUntilSettled, providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { sampleOutput } from "@/tests/fakes/fake-server";
import { startGoogleFake, type GoogleFake } from "@/tests/fakes/google-fake";
import { providerJob } from "@/tests/fakes/provider-job";

// The Gemini API adapter against a local fake of the published API: Imagen and Gemini image calls
// answer in the call (a cancel aborts them), Veo operations are polled. Real HTTP, no mocks.

let fake: GoogleFake;
let adapter: ProviderAdapter;

beforeAll(async () => {
  fake = await startGoogleFake();
  adapter = createGoogleAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, allowLoopback: true, timeoutMs: 2_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => fake.reset());

const imagen = (overrides = {}) => providerJob("google/imagen-4", "google", overrides);
const gemini = (overrides = {}) => providerJob("google/gemini-2.5-flash-image", "google", overrides);
const veo = (overrides = {}) => providerJob("google/veo-3", "google", overrides);

async function submitVeo(overrides = {}) {
  const job = veo(overrides);
  const submitted = await adapter.submit(job);
  if (submitted.kind !== "accepted") throw new Error("Veo should be accepted");
  return { job, predictionId: submitted.predictionId };
}

describe("Imagen 4 (:predict)", () => {
  it("posts instances and parameters with x-goog-api-key and answers the decoded pictures as bytes", async () => {
    const job = imagen({ outputCount: 2, ratio: "16:9" });
    const submitted = await adapter.submit(job);
    const [request] = fake.requests;
    expect(request?.path).toBe("/v1beta/models/imagen-4.0-generate-001:predict");
    expect(request?.headers["x-goog-api-key"]).toBe(fake.apiKey);
    expect(request?.body).toEqual({ instances: [{ prompt: job.prompt }], parameters: { sampleCount: 2, aspectRatio: "16:9" } });
    expect(submitted).toMatchObject({ kind: "completed", predictionId: googlePredictionId(job), result: { status: "succeeded" } });
    const outputs = submitted.kind === "completed" && submitted.result.status === "succeeded" ? submitted.result.outputs : [];
    expect(outputs).toHaveLength(2);
    expect(outputs[0]).toMatchObject({ kind: "bytes", contentType: "image/png" });
    if (outputs[0]?.kind === "bytes") expect(Buffer.from(outputs[0].bytes).subarray(1, 4).toString()).toBe("PNG");
  });

  it("every picture filtered (an answer without predictions) is a refusal: ERR4005", async () => {
    fake.script({ fail: "blocked" });
    expect(await providerErrorOf(adapter.submit(imagen()))).toMatchObject({
      code: "ERR4005",
      failover: false,
      provider: "google",
      message: "google: the prompt was refused by the safety filter",
    });
  });
});

describe("Gemini image (:generateContent)", () => {
  it("sends the prompt and the downloaded input images as inlineData parts, and reads the picture part", async () => {
    const input = await sampleOutput("png");
    const url = fake.putFile("start.png", input.bytes, "image/png");
    const job = gemini({ inputFiles: [url], ratio: "4:5" });
    const submitted = await adapter.submit(job);
    const request = fake.requests.find((entry) => entry.path.endsWith(":generateContent"));
    expect(request?.path).toBe("/v1beta/models/gemini-2.5-flash-image:generateContent");
    expect(request?.body).toEqual({
      contents: [
        { role: "user", parts: [{ text: job.prompt }, { inlineData: { mimeType: "image/png", data: input.bytes.toString("base64") } }] },
      ],
      generationConfig: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "4:5" } },
    });
    expect(submitted).toMatchObject({
      kind: "completed",
      result: { status: "succeeded", outputs: [{ kind: "bytes", contentType: "image/png" }] },
    });
  });

  it("reads an own signed /files/ link (a playground upload) from storage: no download, loopback refused or not", async () => {
    const input = await sampleOutput("png");
    const key = `uploads/google-test/${randomUUID()}.png`;
    await getStorage().put(key, input.bytes, "image/png");
    const strict = createGoogleAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, allowLoopback: false, timeoutMs: 2_000 });
    const job = gemini({ inputFiles: [signFileUrl(key, { expiresAt: new Date(Date.now() + 3600_000) })] });
    expect(await strict.submit(job)).toMatchObject({ kind: "completed", result: { status: "succeeded" } });
    const request = fake.requests.find((entry) => entry.path.endsWith(":generateContent"));
    expect((request?.body as { contents: Array<{ parts: unknown[] }> }).contents[0]?.parts[1]).toEqual({
      inlineData: { mimeType: "image/png", data: input.bytes.toString("base64") },
    });
    await getStorage().delete(key);
  });

  it("reads a picture part written in snake_case (inline_data) as well", async () => {
    fake.script({ snakeCase: true });
    expect(await adapter.submit(gemini())).toMatchObject({
      kind: "completed",
      result: { status: "succeeded", outputs: [{ kind: "bytes", contentType: "image/png" }] },
    });
  });

  it("a blocked prompt (promptFeedback.blockReason) is ERR4005", async () => {
    fake.script({ fail: "blocked" });
    expect(await providerErrorOf(adapter.submit(gemini()))).toMatchObject({
      code: "ERR4005",
      providerDetail: "blockReason PROHIBITED_CONTENT",
    });
  });

  it("an input image that cannot be downloaded is ERR4005, before any call", async () => {
    const error = await providerErrorOf(adapter.submit(gemini({ inputFiles: [`${fake.baseUrl}/files/missing.png`] })));
    expect(error).toMatchObject({ code: "ERR4005", provider: "google", providerDetail: "input_file" });
    expect(fake.requests.filter((entry) => entry.path.endsWith(":generateContent"))).toHaveLength(0);
  });
});

describe("Imagen 4 Fast and Ultra (:predict)", () => {
  it.each([
    ["google/imagen-4-fast", "imagen-4.0-fast-generate-001"],
    ["google/imagen-4-ultra", "imagen-4.0-ultra-generate-001"],
  ])("%s posts one picture's instance to %s:predict", async (identifier, providerModel) => {
    const job = providerJob(identifier, "google", { ratio: "3:4" });
    const submitted = await adapter.submit(job);
    expect(fake.requests[0]?.path).toBe(`/v1beta/models/${providerModel}:predict`);
    expect(fake.requests[0]?.body).toEqual({ instances: [{ prompt: job.prompt }], parameters: { sampleCount: 1, aspectRatio: "3:4" } });
    expect(submitted).toMatchObject({
      kind: "completed",
      result: { status: "succeeded", outputs: [{ kind: "bytes", contentType: "image/png" }] },
    });
  });

  it("Imagen 4 Ultra makes one picture per request: the fake refuses more, as the API does (ERR4005)", async () => {
    const job = providerJob("google/imagen-4-ultra", "google", { outputCount: 2 });
    expect(await providerErrorOf(adapter.submit(job))).toMatchObject({ code: "ERR4005", providerDetail: "HTTP 400 INVALID_ARGUMENT" });
  });
});

describe("Veo 2, Veo 3 Fast and Veo 3.1 (:predictLongRunning)", () => {
  it("Veo 3.1 sends the first and last frames inline, the length and the resolution", async () => {
    const start = await sampleOutput("png");
    const first = fake.putFile("first.png", start.bytes, "image/png");
    const last = fake.putFile("last.png", start.bytes, "image/png");
    const job = providerJob("google/veo-3.1", "google", {
      inputFiles: [first],
      inputFileLastContent: last,
      durationSeconds: 6,
      ratio: "9:16",
    });
    const submitted = await adapter.submit(job);
    expect(submitted).toMatchObject({
      kind: "accepted",
      predictionId: expect.stringMatching(/^models\/veo-3\.1-generate-preview\/operations\//),
    });
    const request = fake.requests.find((entry) => entry.path.endsWith(":predictLongRunning"));
    const frame = { bytesBase64Encoded: start.bytes.toString("base64"), mimeType: "image/png" };
    expect(request?.body).toEqual({
      instances: [{ prompt: job.prompt, image: frame, lastFrame: frame }],
      parameters: { aspectRatio: "9:16", resolution: "720p", durationSeconds: 6 },
    });
  });

  it("Veo 3.1 at 1080p takes 8 s only on the Gemini API: other lengths fail over without a call", async () => {
    const job = providerJob("google/veo-3.1", "google", { resolution: "1080p", durationSeconds: 4 });
    expect(await providerErrorOf(adapter.submit(job))).toMatchObject({
      code: "ERR4002",
      failover: true,
      providerDetail: "unsupported_option",
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("Veo 2 sends its length and no resolution (720p only); Veo 3 Fast its first frame and no length (8 s)", async () => {
    const veo2 = providerJob("google/veo-2", "google", { durationSeconds: 7 });
    expect(await adapter.submit(veo2)).toMatchObject({ kind: "accepted" });
    expect(fake.requests[0]).toMatchObject({ path: "/v1beta/models/veo-2.0-generate-001:predictLongRunning" });
    expect(fake.requests[0]?.body).toEqual({
      instances: [{ prompt: veo2.prompt }],
      parameters: { aspectRatio: "16:9", durationSeconds: 7 },
    });

    fake.reset();
    const start = await sampleOutput("png");
    const fast = providerJob("google/veo-3-fast-image-to-video", "google", {
      inputFiles: [fake.putFile("start.png", start.bytes, "image/png")],
      resolution: "1080p",
    });
    expect(await adapter.submit(fast)).toMatchObject({ kind: "accepted" });
    const request = fake.requests.find((entry) => entry.path.endsWith(":predictLongRunning"));
    expect(request?.path).toBe("/v1beta/models/veo-3.0-fast-generate-001:predictLongRunning");
    expect(request?.body).toEqual({
      instances: [{ prompt: fast.prompt, image: { bytesBase64Encoded: start.bytes.toString("base64"), mimeType: "image/png" } }],
      parameters: { aspectRatio: "16:9", resolution: "1080p" },
    });
  });

  it("a last frame on a Veo that takes none is refused before the call (ERR4002, fails over)", async () => {
    const job = providerJob("google/veo-3-fast", "google", { inputFileLastContent: "https://images.example.test/end.png" });
    expect(await providerErrorOf(adapter.submit(job))).toMatchObject({ code: "ERR4002", providerDetail: "unsupported_option" });
  });
});

describe("Veo 3 (:predictLongRunning + operations)", () => {
  it("answers the operation name, polls it until done, and names the video with the key on the API's origin", async () => {
    fake.script({ pollsUntilDone: 2 });
    const { job, predictionId } = await submitVeo({ ratio: "9:16" });
    expect(predictionId).toMatch(/^models\/veo-3\.0-generate-001\/operations\/[0-9a-f]+$/);
    expect(fake.requests[0]?.body).toEqual({
      instances: [{ prompt: job.prompt }],
      parameters: { aspectRatio: "9:16", resolution: "720p" },
    });
    const { result, seen } = await pollUntilSettled(adapter, predictionId, job);
    expect(seen).toEqual(["running", "succeeded"]);
    expect(fake.requests[1]).toMatchObject({ method: "GET", path: `/v1beta/${predictionId}` });
    const output = result.status === "succeeded" ? result.outputs[0] : undefined;
    expect(output).toMatchObject({ kind: "url", contentType: "video/mp4" });
    const url = new URL(output?.kind === "url" ? output.url : "http://x");
    expect(url.searchParams.get("key")).toBe(fake.apiKey);
    const video = await fetch(url);
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toBe("video/mp4");
  });

  it("1080p in 9:16 is not offered: ERR4002 (another provider of the model can take it), no call", async () => {
    expect(await providerErrorOf(adapter.submit(veo({ ratio: "9:16", resolution: "1080p" })))).toMatchObject({
      code: "ERR4002",
      failover: true,
      providerDetail: "unsupported_option",
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("a video the safety filter took (raiMediaFilteredCount) fails the attempt with ERR4005", async () => {
    fake.script({ fail: "blocked" });
    const { job, predictionId } = await submitVeo();
    const { result } = await pollUntilSettled(adapter, predictionId, job);
    expect(result).toMatchObject({
      status: "failed",
      error: { code: "ERR4005", provider: "google", message: "google: the video was refused by the safety filter" },
    });
  });

  it("a done operation with an error (13 INTERNAL) fails the attempt with ERR4002", async () => {
    fake.script({ fail: "operation_error" });
    const { job, predictionId } = await submitVeo();
    const { result } = await pollUntilSettled(adapter, predictionId, job);
    expect(result).toMatchObject({
      status: "failed",
      error: {
        code: "ERR4002",
        providerDetail: "operation error 13",
        message: "google: Video generation failed due to an internal error.",
      },
    });
  });

  it("a done operation not understood fails the attempt (not a throw), naming google", async () => {
    fake.script({ fail: "malformed" });
    const { job, predictionId } = await submitVeo();
    const { result } = await pollUntilSettled(adapter, predictionId, job);
    expect(result).toMatchObject({
      status: "failed",
      error: {
        code: "ERR4002",
        provider: "google",
        message: "google: the answer was not understood (a done operation without a video uri)",
      },
    });
  });

  it("an unknown operation (404) or a refused key fails the attempt; a rate-limited poll throws so the run asks again", async () => {
    const job = veo();
    expect(await adapter.poll("models/veo-3.0-generate-001/operations/nothing", job)).toMatchObject({
      status: "failed",
      error: { code: "ERR4002", providerDetail: "HTTP 404 NOT_FOUND" },
    });
    const { predictionId } = await submitVeo();
    fake.script({ fail: "rate_limit" });
    expect(await providerErrorOf(adapter.poll(predictionId, job))).toMatchObject({
      code: "ERR4002",
      providerDetail: "HTTP 429 RESOURCE_EXHAUSTED",
    });
    fake.script({});
    const banned = createGoogleAdapter({ apiKey: "AIza-wrong", baseUrl: fake.baseUrl });
    expect(await banned.poll(predictionId, job)).toMatchObject({
      status: "failed",
      error: { code: "ERR4002", message: "google: the provider refused our credentials" },
    });
  });

  it("has no cancel for an operation and no callbacks", async () => {
    const { predictionId } = await submitVeo({ prompt: "a slow wave [google:slow]" });
    await expect(adapter.cancel(predictionId)).resolves.toBe(false);
    expect(adapter.parseCallback).toBeUndefined();
  });
});

describe("cancel", () => {
  it("aborts an image call in flight: the submit answers canceled and the fake sees its client leave", async () => {
    fake.script({ delayMs: 1_500 });
    const job = imagen();
    const submitting = adapter.submit(job);
    await expect.poll(() => fake.requests.length).toBe(1);
    await expect(adapter.cancel(googlePredictionId(job))).resolves.toBe(true);
    await expect(submitting).resolves.toMatchObject({ kind: "completed", result: { status: "canceled" } });
    await expect.poll(() => fake.abandoned.length).toBe(1);
  });
});

describe("error mapping", () => {
  it.each([
    ["rate_limit", "ERR4002", true, "HTTP 429 RESOURCE_EXHAUSTED"],
    ["server_error", "ERR4002", true, "HTTP 500 INTERNAL"],
    ["overloaded", "ERR4002", true, "HTTP 503 UNAVAILABLE"],
    ["deadline", "ERR4001", true, "HTTP 504 DEADLINE_EXCEEDED"],
    ["bad_key", "ERR4002", true, "HTTP 400 INVALID_ARGUMENT"],
    ["permission_denied", "ERR4002", true, "HTTP 403 PERMISSION_DENIED"],
    ["location", "ERR4002", true, "HTTP 400 FAILED_PRECONDITION"],
    ["invalid_argument", "ERR4005", false, "HTTP 400 INVALID_ARGUMENT"],
  ] as const)("%s → %s (failover %s)", async (fail, code, failover, detail) => {
    for (const job of [imagen(), gemini(), veo()]) {
      fake.script({ fail });
      const error = await providerErrorOf(adapter.submit(job));
      expect(error).toMatchObject({ code, failover, provider: "google", providerDetail: detail });
      expect(error.message).toMatch(/^google: /);
      expect(error.message).not.toContain(fake.apiKey);
    }
  });

  it("a wrong key is refused as our credentials, a quota answer keeps Google's words", async () => {
    const wrong = createGoogleAdapter({ apiKey: "AIza-wrong", baseUrl: fake.baseUrl });
    expect(await providerErrorOf(wrong.submit(imagen()))).toMatchObject({
      code: "ERR4002",
      message: "google: the provider refused our credentials",
    });
    fake.script({ fail: "rate_limit" });
    expect((await providerErrorOf(adapter.submit(imagen()))).message).toBe(
      "google: You exceeded your current quota, please check your plan and billing details.",
    );
  });

  it("an input the API refuses (400 INVALID_ARGUMENT, here an aspect ratio Imagen lacks) is ERR4005", async () => {
    expect(await providerErrorOf(adapter.submit(imagen({ providerModelId: "imagen-0-nothing", ratio: "2:3" })))).toMatchObject({
      code: "ERR4005",
      providerDetail: "HTTP 400 INVALID_ARGUMENT",
    });
  });

  it.each([
    ["Imagen", imagen, "not a predict response"],
    ["Gemini", gemini, "no inlineData picture, finishReason STOP"],
  ] as const)("an answer not understood (%s) fails the attempt with ERR4002 naming google", async (_label, job, what) => {
    fake.script({ fail: "malformed" });
    expect(await providerErrorOf(adapter.submit(job()))).toMatchObject({
      code: "ERR4002",
      provider: "google",
      message: `google: the answer was not understood (${what})`,
      providerDetail: "HTTP 200 unexpected body",
    });
  });

  it("an oversized answer fails the attempt with ERR4003", { timeout: 150_000 }, async () => {
    const strict = createGoogleAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, maxAnswerBytes: 64 });
    expect(await providerErrorOf(strict.submit(imagen()))).toMatchObject({
      code: "ERR4003",
      provider: "google",
      providerDetail: "too_large",
    });
    // Past the default 64 MiB cap: given the time to send it, whatever the machine's load.
    const patient = createGoogleAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, timeoutMs: 120_000 });
    fake.script({ fail: "oversized" });
    expect(await providerErrorOf(patient.submit(gemini()))).toMatchObject({ code: "ERR4003", providerDetail: "too_large" });
  });

  it("a refused connection is ERR4002; no answer within the timeout is ERR4001", async () => {
    const closed = await startGoogleFake();
    await closed.close();
    const unreachable = createGoogleAdapter({ apiKey: "k", baseUrl: closed.baseUrl, timeoutMs: 2_000 });
    expect(await providerErrorOf(unreachable.submit(imagen()))).toMatchObject({ code: "ERR4002", providerDetail: "ECONNREFUSED" });
    fake.script({ delayMs: 400 });
    const impatient = createGoogleAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, timeoutMs: 100 });
    expect(await providerErrorOf(impatient.submit(imagen()))).toMatchObject({ code: "ERR4001", providerDetail: "timeout 100ms" });
  });
});

describe("configuration", () => {
  it("needs GEMINI_API_KEY, with the public API root as the default base URL", () => {
    const unset = { ...env(), GEMINI_API_KEY: undefined };
    expect(googleFromEnv(unset)).toBeNull();
    expect(googleFromEnv({ ...unset, GEMINI_API_KEY: "k" })).toMatchObject({
      apiKey: "k",
      baseUrl: process.env.GEMINI_BASE_URL ?? "https://generativelanguage.googleapis.com",
    });
  });
});
