import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { alibabaFromEnv, createAlibabaAdapter } from "@/server/providers/alibaba";
import type { ProviderAdapter, ProviderJob } from "@/server/providers/types";
import { startAlibabaFake, type AlibabaFake } from "@/tests/fakes/alibaba-fake";
import { pollUntilSettled, providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { providerJob } from "@/tests/fakes/provider-job";

// The Alibaba Cloud Model Studio adapter against a local fake of DashScope's published API: Wan
// videos and Wan / Qwen-Image pictures as async tasks, polled at /api/v1/tasks/{id}. Real HTTP, no mocks.

let fake: AlibabaFake;
let adapter: ProviderAdapter;

beforeAll(async () => {
  fake = await startAlibabaFake();
  adapter = createAlibabaAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, timeoutMs: 2_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => fake.reset());

const wanVideo = (overrides: Partial<ProviderJob> = {}) => providerJob("alibaba/wan-2.2-plus", "alibaba", overrides);
const qwenImage = (overrides: Partial<ProviderJob> = {}) => providerJob("qwen/qwen-image", "alibaba", overrides);
const wanImage = (overrides: Partial<ProviderJob> = {}) => providerJob("alibaba/wan-2.2-t2i-flash", "alibaba", overrides);

async function acceptedTask(job: ProviderJob): Promise<string> {
  const submitted = await adapter.submit(job);
  if (submitted.kind !== "accepted") throw new Error(`expected an accepted task, got ${submitted.kind}`);
  return submitted.predictionId;
}

describe("Wan 2.1, Wan 2.5 and Qwen-Image-Edit", () => {
  it("Wan 2.1 Turbo sizes 720p by ratio from text; with a first frame runs wan2.1-i2v-turbo at 720P", async () => {
    await acceptedTask(providerJob("alibaba/wan-2.1-turbo", "alibaba", { ratio: "1:1" }));
    expect(fake.requests[0]?.body).toMatchObject({ model: "wan2.1-t2v-turbo", parameters: { size: "960*960", duration: 5 } });
    await acceptedTask(providerJob("alibaba/wan-2.1-plus", "alibaba", { inputFiles: ["https://img.example.test/a.png"] }));
    expect(fake.requests[1]?.body).toMatchObject({
      model: "wan2.1-i2v-plus",
      input: { img_url: "https://img.example.test/a.png" },
      parameters: { resolution: "720P", duration: 5 },
    });
  });

  it("Wan 2.5 takes 10 s clips at 1080p; its image-to-video model the resolution tier", async () => {
    const taskId = await acceptedTask(providerJob("alibaba/wan-2.5-preview", "alibaba", { durationSeconds: 10, ratio: "9:16" }));
    expect(fake.requests[0]?.body).toMatchObject({ model: "wan2.5-t2v-preview", parameters: { size: "1080*1920", duration: 10 } });
    expect(await pollUntilSettled(adapter, taskId, providerJob("alibaba/wan-2.5-preview", "alibaba"))).toMatchObject({
      result: { status: "succeeded" },
    });
    await acceptedTask(providerJob("alibaba/wan-2.5-preview-image-to-video", "alibaba", { resolution: "720p" }));
    expect(fake.requests.at(-1)?.body).toMatchObject({ model: "wan2.5-i2v-preview", parameters: { resolution: "720P", duration: 5 } });
  });

  it("Qwen-Image-Edit is one synchronous multimodal call without the async header, answering the edited picture's URL", async () => {
    const job = providerJob("qwen/qwen-image-edit", "alibaba", { inputFiles: ["https://img.example.test/a.png"] });
    const submitted = await adapter.submit(job);
    expect(submitted).toMatchObject({
      kind: "completed",
      result: { status: "succeeded", outputs: [{ kind: "url", url: expect.stringContaining(fake.baseUrl), contentType: "image/png" }] },
    });
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/api/v1/services/aigc/multimodal-generation/generation" });
    expect(request?.headers["x-dashscope-async"]).toBeUndefined();
    expect(request?.body).toEqual({
      model: "qwen-image-edit",
      input: { messages: [{ role: "user", content: [{ image: "https://img.example.test/a.png" }, { text: job.prompt }] }] },
      parameters: { watermark: false },
    });
  });

  it("a moderated edit is 400 DataInspectionFailed (ERR4005); an answer without a picture names alibaba (ERR4002)", async () => {
    const edit = (prompt: string) =>
      providerJob("qwen/qwen-image-edit", "alibaba", { prompt, inputFiles: ["https://img.example.test/a.png"] });
    expect(await providerErrorOf(adapter.submit(edit("a cliff [alibaba:moderated]")))).toMatchObject({
      code: "ERR4005",
      provider: "alibaba",
      providerDetail: "HTTP 400 DataInspectionFailed",
    });
    fake.script({ fail: "garbled" });
    expect(await providerErrorOf(adapter.submit(edit("a cliff")))).toMatchObject({
      code: "ERR4002",
      provider: "alibaba",
      message: expect.stringMatching(/^alibaba: /),
    });
  });
});

describe("videos: async task, polled", () => {
  it("creates a text-to-video task with X-DashScope-Async, Bearer auth and the size for the ratio and tier", async () => {
    const job = wanVideo({ ratio: "9:16", resolution: "1080p" });
    const taskId = await acceptedTask(job);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/api/v1/services/aigc/video-generation/video-synthesis" });
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.headers["x-dashscope-async"]).toBe("enable");
    expect(request?.body).toEqual({
      model: "wan2.2-t2v-plus",
      input: { prompt: job.prompt },
      parameters: { size: "1080*1920", duration: 5, seed: job.seed, prompt_extend: false, watermark: false },
    });
    const settled = await pollUntilSettled(adapter, taskId, job);
    expect(settled.seen).toContain("running");
    expect(settled.result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url", contentType: "video/mp4" }] });
    const polls = fake.requests.filter((entry) => entry.method === "GET");
    expect(polls.every((entry) => entry.path === `/api/v1/tasks/${taskId}`)).toBe(true);
  });

  it("with a first frame runs the image-to-video twin, with img_url and the resolution in capitals", async () => {
    const job = wanVideo({ inputFiles: ["https://images.example.test/start.png"] });
    await acceptedTask(job);
    expect(fake.requests[0]?.body).toEqual({
      model: "wan2.2-i2v-plus",
      input: { prompt: job.prompt, img_url: "https://images.example.test/start.png" },
      parameters: { resolution: "480P", duration: 5, seed: job.seed, prompt_extend: false, watermark: false },
    });
  });

  it("a task FAILED with DataInspectionFailed is ERR4005; one FAILED with InternalError is ERR4002", async () => {
    fake.script({ fail: "task_moderated", delayMs: 0 });
    const moderatedJob = wanVideo();
    const moderated = await pollUntilSettled(adapter, await acceptedTask(moderatedJob), moderatedJob);
    expect(moderated.result).toMatchObject({
      status: "failed",
      error: { code: "ERR4005", provider: "alibaba", providerDetail: "HTTP 200 DataInspectionFailed" },
    });

    fake.script({ fail: "task_failed", delayMs: 0 });
    const failedJob = wanVideo();
    const failed = await pollUntilSettled(adapter, await acceptedTask(failedJob), failedJob);
    expect(failed.result).toMatchObject({
      status: "failed",
      error: { code: "ERR4002", provider: "alibaba", providerDetail: "HTTP 200 InternalError.Algo" },
    });
  });

  it("a duration DashScope refuses is 400 InvalidParameter, ERR4005: another try would fail the same", async () => {
    const error = await providerErrorOf(adapter.submit(wanVideo({ durationSeconds: 10 })));
    expect(error).toMatchObject({ code: "ERR4005", provider: "alibaba", providerDetail: "HTTP 400 InvalidParameter" });
    expect(error.failover).toBe(false);
  });

  it("cancel stops a PENDING task (POST /api/v1/tasks/{id}/cancel), which then polls CANCELED; a finished one is refused", async () => {
    const slowJob = wanVideo({ prompt: "a slow tide [alibaba:slow]" });
    const taskId = await acceptedTask(slowJob);
    await expect(adapter.cancel(taskId)).resolves.toBe(true);
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: `/api/v1/tasks/${taskId}/cancel` });
    await expect(adapter.poll(taskId, slowJob)).resolves.toEqual({ status: "canceled" });

    fake.script({ delayMs: 0 });
    const quickJob = wanVideo();
    const done = await acceptedTask(quickJob);
    await pollUntilSettled(adapter, done, quickJob);
    await expect(adapter.cancel(done)).resolves.toBe(false);
    expect(adapter.parseCallback).toBeUndefined();
  });
});

describe("images: async task, results[].url", () => {
  it("sends Qwen-Image its published size for the ratio, one picture", async () => {
    const job = qwenImage({ ratio: "16:9" });
    const taskId = await acceptedTask(job);
    expect(fake.requests[0]).toMatchObject({ method: "POST", path: "/api/v1/services/aigc/text2image/image-synthesis" });
    expect(fake.requests[0]?.headers["x-dashscope-async"]).toBe("enable");
    expect(fake.requests[0]?.body).toEqual({
      model: "qwen-image",
      input: { prompt: job.prompt },
      parameters: { size: "1664*928", n: 1, seed: job.seed, prompt_extend: false, watermark: false },
    });
    const settled = await pollUntilSettled(adapter, taskId, job);
    expect(settled.result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url", contentType: "image/png" }] });
  });

  it("Wan 2.2 Flash makes n pictures, each a URL", async () => {
    const job = wanImage({ ratio: "4:3", outputCount: 3 });
    const taskId = await acceptedTask(job);
    expect(fake.requests[0]?.body).toMatchObject({ model: "wan2.2-t2i-flash", parameters: { size: "1280*960", n: 3 } });
    const settled = await pollUntilSettled(adapter, taskId, job);
    if (settled.result.status !== "succeeded") throw new Error("expected a finished result");
    expect(settled.result.outputs).toHaveLength(3);
  });

  it("pictures all held back by the output check (results entries with DataInspectionFailed) end the attempt ERR4005", async () => {
    const job = wanImage({ prompt: "a cliff [alibaba:output-moderated]", outputCount: 2 });
    const settled = await pollUntilSettled(adapter, await acceptedTask(job), job);
    expect(settled.result).toMatchObject({
      status: "failed",
      error: { code: "ERR4005", provider: "alibaba", providerDetail: "HTTP 200 DataInspectionFailed" },
    });
  });

  it("a moderated prompt is 400 DataInspectionFailed: ERR4005, no failover", async () => {
    const error = await providerErrorOf(adapter.submit(qwenImage({ prompt: "a cliff [alibaba:moderated]" })));
    expect(error).toMatchObject({
      code: "ERR4005",
      provider: "alibaba",
      providerDetail: "HTTP 400 DataInspectionFailed",
      message: "alibaba: Input data may contain inappropriate content.",
    });
    expect(error.failover).toBe(false);
  });
});

describe("error mapping (HTTP status and DashScope code)", () => {
  it.each([
    ["rate_limit", "ERR4002", true, "HTTP 429 Throttling.RateQuota"],
    ["arrearage", "ERR4002", true, "HTTP 400 Arrearage"],
    ["server_error", "ERR4002", true, "HTTP 500 InternalError"],
    ["unauthorized", "ERR4002", true, "HTTP 401 InvalidApiKey"],
    ["request_timeout", "ERR4001", true, "HTTP 500 RequestTimeOut"],
    ["content_policy", "ERR4005", false, "HTTP 400 DataInspectionFailed"],
    ["http_unavailable", "ERR4002", true, "HTTP 503"],
  ] as const)("%s → %s (failover %s), on videos and images alike", async (fail, code, failover, detail) => {
    fake.script({ fail });
    for (const job of [wanVideo(), qwenImage()]) {
      const error = await providerErrorOf(adapter.submit(job));
      expect(error.code).toBe(code);
      expect(error.failover).toBe(failover);
      expect(error.provider).toBe("alibaba");
      expect(error.providerDetail).toBe(detail);
      expect(error.message).not.toContain(fake.apiKey);
    }
  });

  it("keeps DashScope's credential text out of the message", async () => {
    fake.script({ fail: "unauthorized" });
    const error = await providerErrorOf(adapter.submit(qwenImage()));
    expect(error.message).toBe("alibaba: the provider refused our credentials");
  });

  it("an answer it does not understand fails the attempt with a provider error naming alibaba", async () => {
    const job = wanVideo();
    const taskId = await acceptedTask(job);
    fake.script({ fail: "garbled" });
    for (const call of [adapter.submit(wanVideo()), adapter.submit(qwenImage())]) {
      const error = await providerErrorOf(call);
      expect(error).toMatchObject({ code: "ERR4002", provider: "alibaba", providerDetail: "HTTP 200 unexpected body" });
      expect(error.message).toMatch(/^alibaba: the answer is not understood/);
    }
    // A poll that throws is asked again by the run; one not understood ends the attempt instead.
    expect(await adapter.poll(taskId, job)).toMatchObject({
      status: "failed",
      error: { code: "ERR4002", provider: "alibaba", providerDetail: "HTTP 200 unexpected body" },
    });
  });

  it("a task DashScope does not know (UNKNOWN) ends the attempt; a rate-limited poll is asked again", async () => {
    const job = wanVideo();
    expect(await adapter.poll("0b7a9c1e-0000-4000-8000-000000000000", job)).toMatchObject({
      status: "failed",
      error: { code: "ERR4002", providerDetail: "HTTP 200 UNKNOWN" },
    });
    fake.script({ fail: "rate_limit" });
    expect(await providerErrorOf(adapter.poll("0b7a9c1e-0000-4000-8000-000000000000", job))).toMatchObject({
      code: "ERR4002",
      providerDetail: "HTTP 429 Throttling.RateQuota",
    });
  });

  it("a refused connection is ERR4002; no answer within the timeout is ERR4001", async () => {
    const closed = await startAlibabaFake();
    await closed.close();
    const unreachable = createAlibabaAdapter({ apiKey: "k", baseUrl: closed.baseUrl, timeoutMs: 2_000 });
    expect(await providerErrorOf(unreachable.submit(wanVideo()))).toMatchObject({ code: "ERR4002", providerDetail: "ECONNREFUSED" });

    fake.script({ responseDelayMs: 400 });
    const impatient = createAlibabaAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, timeoutMs: 100 });
    expect(await providerErrorOf(impatient.submit(qwenImage()))).toMatchObject({ code: "ERR4001", providerDetail: "timeout 100ms" });
  });
});

describe("configuration", () => {
  it("is configured by DASHSCOPE_API_KEY, with the Singapore DashScope root as the default base URL", () => {
    expect(alibabaFromEnv({ ...env(), DASHSCOPE_API_KEY: undefined })).toBeNull();
    expect(alibabaFromEnv({ ...env(), DASHSCOPE_API_KEY: "k" })).toEqual({
      apiKey: "k",
      baseUrl: process.env.DASHSCOPE_BASE_URL ?? "https://dashscope-intl.aliyuncs.com",
    });
  });
});
