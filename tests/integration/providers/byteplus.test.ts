import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findModel } from "@/server/catalog";
import { env } from "@/server/base/env";
import { byteplusFromEnv, createByteplusAdapter } from "@/server/providers/byteplus";
import type { ProviderAdapter, ProviderJob, SubmitResult } from "@/server/providers/types";
import { startByteplusFake, type ByteplusFake } from "@/tests/fakes/byteplus-fake";
import { pollUntilSettled, providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { providerJob } from "@/tests/fakes/provider-job";

// The BytePlus ModelArk adapter against a local fake that follows ModelArk's published API. Real HTTP, no mocks.

let fake: ByteplusFake;
let adapter: ProviderAdapter;

beforeAll(async () => {
  fake = await startByteplusFake();
  adapter = createByteplusAdapter({ apiKey: fake.apiKey, baseUrl: fake.apiBaseUrl, timeoutMs: 2_000 });
});

afterAll(() => fake.close());

beforeEach(() => fake.reset());

const image = (overrides: Partial<ProviderJob> = {}) => providerJob("bytedance/seedream-4", "byteplus", overrides);
const video = (overrides: Partial<ProviderJob> = {}) => providerJob("bytedance/seedance-1-pro", "byteplus", overrides);

function completed(submitted: SubmitResult) {
  if (submitted.kind !== "completed") throw new Error("expected a synchronous answer");
  return submitted.result;
}

async function settledTask(job: ProviderJob) {
  const submitted = await adapter.submit(job);
  expect(submitted.kind).toBe("accepted");
  return (await pollUntilSettled(adapter, submitted.predictionId, job)).result;
}

describe("Seedream: the synchronous image call", () => {
  it("posts the published body with Bearer auth and answers the base64 picture as bytes", async () => {
    const job = image({ ratio: "16:9", inputFiles: ["https://img.example.test/a.png"] });
    const result = completed(await adapter.submit(job));
    expect(result).toMatchObject({ status: "succeeded", outputs: [{ kind: "bytes", contentType: "image/jpeg" }] });

    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/api/v3/images/generations" });
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.body).toEqual({
      model: "seedream-4-0-250828",
      prompt: job.prompt,
      image: "https://img.example.test/a.png",
      size: "2560x1440",
      seed: job.seed,
      sequential_image_generation: "disabled",
      response_format: "b64_json",
      watermark: false,
    });
  });

  it("maps every catalog ratio to a pixel size the fake takes", async () => {
    for (const ratio of findModel("bytedance/seedream-4")!.ratios) {
      expect(completed(await adapter.submit(image({ ratio }))).status, ratio).toBe("succeeded");
    }
  });

  it("refuses a moderated prompt or output with ERR4005 (final)", async () => {
    for (const fail of ["moderated", "output_moderated"] as const) {
      fake.script({ fail });
      const error = await providerErrorOf(adapter.submit(image()));
      expect(error).toMatchObject({ provider: "byteplus", code: "ERR4005" });
      expect(error.failover).toBe(false);
      expect(error.message).toMatch(/sensitive/);
    }
  });

  it("maps the rate limit, a 500 and our refused key to ERR4002 without echoing the key", async () => {
    for (const fail of ["rate_limit", "server_error", "unauthorized"] as const) {
      fake.script({ fail });
      const error = await providerErrorOf(adapter.submit(image()));
      expect(error, fail).toMatchObject({ provider: "byteplus", code: "ERR4002" });
      expect(error.message).not.toContain(fake.apiKey);
    }
    fake.script({ fail: "rate_limit" });
    expect((await providerErrorOf(adapter.submit(image()))).providerDetail).toBe(
      "HTTP 429 RateLimitExceeded.EndpointRPMExceeded retry_after=1",
    );
  });

  it("an answer past the cap is ERR4003, an answer it cannot read a provider error naming byteplus", async () => {
    fake.script({ fail: "oversized" });
    // A smaller cap than the default 48 MiB, the same code path: the answer is cut off at the cap.
    const capped = createByteplusAdapter({ apiKey: fake.apiKey, baseUrl: fake.apiBaseUrl, timeoutMs: 30_000, maxAnswerBytes: 1024 * 1024 });
    expect(await providerErrorOf(capped.submit(image()))).toMatchObject({
      provider: "byteplus",
      code: "ERR4003",
      message: "byteplus: the answer is larger than the 1048576 bytes allowed",
    });
    fake.script({ fail: "garbled" });
    const error = await providerErrorOf(adapter.submit(image()));
    expect(error).toMatchObject({ provider: "byteplus", code: "ERR4002" });
    expect(error.message).toMatch(/^byteplus: the answer was not understood/);
  });

  it("a call that does not answer in time is ERR4001", async () => {
    const quick = createByteplusAdapter({ apiKey: fake.apiKey, baseUrl: fake.apiBaseUrl, timeoutMs: 200 });
    expect(await providerErrorOf(quick.submit(image({ prompt: "[byteplus:slow] a lake" })))).toMatchObject({
      provider: "byteplus",
      code: "ERR4001",
    });
    // The fake saw the call left: nothing is still waiting for the next test.
    await expect.poll(() => fake.abandoned).toEqual(["/api/v3/images/generations"]);
  });

  it("a cancel aborts the call in flight and the attempt ends canceled", async () => {
    const job = image({ prompt: "[byteplus:slow] a lake" });
    const slow = createByteplusAdapter({ apiKey: fake.apiKey, baseUrl: fake.apiBaseUrl, timeoutMs: 30_000 });
    const predictionId = slow.predictionIdFor!(job);
    const submitted = slow.submit(job);
    await expect.poll(() => fake.requests.length).toBe(1);
    expect(await slow.cancel(predictionId)).toBe(true);
    expect(completed(await submitted)).toEqual({ status: "canceled" });
    await expect.poll(() => fake.abandoned).toEqual(["/api/v3/images/generations"]);
    expect(await slow.cancel(predictionId)).toBe(false);
  });
});

describe("Seedream 3.0, SeedEdit 3.0 and Seedance 1.0 Lite", () => {
  it("Seedream 3.0 gets its own size for the ratio and no Seedream 4.0 fields; SeedEdit 3.0 one image at size adaptive", async () => {
    const seedream = providerJob("bytedance/seedream-3", "byteplus", { ratio: "21:9" });
    expect(completed(await adapter.submit(seedream))).toMatchObject({
      status: "succeeded",
      outputs: [{ kind: "bytes", contentType: "image/jpeg" }],
    });
    expect(fake.requests[0]?.body).toEqual({
      model: "seedream-3-0-t2i-250415",
      prompt: seedream.prompt,
      size: "1512x648",
      seed: seedream.seed,
      response_format: "b64_json",
      watermark: false,
    });

    const edit = providerJob("bytedance/seededit-3", "byteplus", { inputFiles: ["https://img.example.test/a.png"] });
    expect(completed(await adapter.submit(edit)).status).toBe("succeeded");
    expect(fake.requests[1]?.body).toEqual({
      model: "seededit-3-0-i2i-250628",
      prompt: edit.prompt,
      image: "https://img.example.test/a.png",
      size: "adaptive",
      seed: edit.seed,
      response_format: "b64_json",
      watermark: false,
    });
  });

  it("every Seedream 3.0 ratio maps to a size the fake takes (at most 2048 a side)", async () => {
    const model = findModel("bytedance/seedream-3");
    for (const ratio of model?.ratios ?? []) {
      expect(completed(await adapter.submit(providerJob("bytedance/seedream-3", "byteplus", { ratio }))).status, ratio).toBe("succeeded");
    }
  });

  it("Seedance 1.0 Lite runs its t2v model from text and its i2v twin with first and last frames", async () => {
    const text = providerJob("bytedance/seedance-1-lite", "byteplus", { resolution: "1080p", durationSeconds: 10, ratio: "21:9" });
    expect(await settledTask(text)).toMatchObject({ status: "succeeded" });
    expect(fake.requests[0]?.body).toEqual({
      model: "seedance-1-0-lite-t2v-250428",
      content: [{ type: "text", text: text.prompt }],
      ratio: "21:9",
      duration: 10,
      resolution: "1080p",
      seed: text.seed,
      watermark: false,
    });

    fake.reset();
    const frames = providerJob("bytedance/seedance-1-lite", "byteplus", {
      inputFiles: ["https://img.example.test/first.png"],
      inputFileLastContent: "https://img.example.test/last.png",
    });
    expect(await adapter.submit(frames)).toMatchObject({ kind: "accepted" });
    expect(fake.requests[0]?.body).toEqual({
      model: "seedance-1-0-lite-i2v-250428",
      content: [
        { type: "text", text: frames.prompt },
        { type: "image_url", image_url: { url: "https://img.example.test/first.png" }, role: "first_frame" },
        { type: "image_url", image_url: { url: "https://img.example.test/last.png" }, role: "last_frame" },
      ],
      ratio: "adaptive",
      duration: 5,
      resolution: "720p",
      seed: frames.seed,
      watermark: false,
    });
  });
});

describe("Seedance: content generation tasks", () => {
  it("creates a task with the content list and the parameters as body fields, then polls it to the video URL", async () => {
    const job = video({ ratio: "9:16", durationSeconds: 10, resolution: "480p" });
    const result = await settledTask(job);
    expect(result).toMatchObject({
      status: "succeeded",
      outputs: [{ kind: "url", url: expect.stringMatching(/\/files\/cgt-.*\.mp4$/), contentType: "video/mp4" }],
    });
    const [create, ...polls] = fake.requests;
    expect(create).toMatchObject({ method: "POST", path: "/api/v3/contents/generations/tasks" });
    expect(create?.body).toEqual({
      model: "seedance-1-0-pro-250528",
      content: [{ type: "text", text: job.prompt }],
      ratio: "9:16",
      duration: 10,
      resolution: "480p",
      seed: job.seed,
      watermark: false,
    });
    expect(polls.every((poll) => poll.method === "GET" && poll.headers.authorization === `Bearer ${fake.apiKey}`)).toBe(true);
  });

  it("sends a first frame as an image_url with role first_frame and the adaptive ratio", async () => {
    await adapter.submit(video({ inputFiles: ["https://img.example.test/start.png"] }));
    expect(fake.requests[0]?.body).toMatchObject({
      content: [{ type: "text" }, { type: "image_url", image_url: { url: "https://img.example.test/start.png" }, role: "first_frame" }],
      ratio: "adaptive",
    });
  });

  it("a prompt refused at create is ERR4005; a task failed on moderation ERR4005, on an internal error ERR4002", async () => {
    expect(await providerErrorOf(adapter.submit(video({ prompt: "[byteplus:moderated] x" })))).toMatchObject({
      provider: "byteplus",
      code: "ERR4005",
    });
    const moderated = await settledTask(video({ prompt: "[byteplus:task_moderated] x" }));
    expect(moderated).toMatchObject({
      status: "failed",
      error: { provider: "byteplus", code: "ERR4005", message: expect.stringContaining("OutputVideoSensitiveContentDetected") },
    });
    const failed = await settledTask(video({ prompt: "[byteplus:task_failed] x" }));
    expect(failed).toMatchObject({ status: "failed", error: { provider: "byteplus", code: "ERR4002" } });
  });

  it("an expired task is ERR4001; a status ModelArk does not publish fails the attempt naming byteplus", async () => {
    expect(await settledTask(video({ prompt: "[byteplus:expired] x" }))).toMatchObject({
      status: "failed",
      error: { provider: "byteplus", code: "ERR4001" },
    });
    const garbled = await settledTask(video({ prompt: "[byteplus:garbled] x" }));
    expect(garbled).toMatchObject({
      status: "failed",
      error: { provider: "byteplus", code: "ERR4002", message: "byteplus: the answer was not understood (the answer is not a task)" },
    });
  });

  it("a poll refused by the rate limit or a 500 throws (asked again); an unknown task fails the attempt", async () => {
    const job = video();
    const submitted = await adapter.submit(job);
    fake.script({ fail: "rate_limit" });
    expect(await providerErrorOf(adapter.poll(submitted.predictionId, job))).toMatchObject({ provider: "byteplus", code: "ERR4002" });
    fake.script({ fail: "server_error" });
    expect(await providerErrorOf(adapter.poll(submitted.predictionId, job))).toMatchObject({ provider: "byteplus", code: "ERR4002" });
    fake.reset();
    expect(await adapter.poll("cgt-unknown", job)).toMatchObject({
      status: "failed",
      error: { provider: "byteplus", code: "ERR4002", providerDetail: "HTTP 404 ResourceNotFound" },
    });
  });

  it("cancels a queued task with DELETE, after which it reads cancelled", async () => {
    const job = video({ prompt: "[byteplus:slow] x" });
    const submitted = await adapter.submit(job);
    expect(await adapter.cancel(submitted.predictionId)).toBe(true);
    expect(fake.requests.at(-1)).toMatchObject({ method: "DELETE", path: `/api/v3/contents/generations/tasks/${submitted.predictionId}` });
    expect(await adapter.poll(submitted.predictionId, job)).toEqual({ status: "canceled" });
    // ModelArk cancels only queued tasks: a second DELETE (a cancelled task) and one on a running task are refused.
    expect(await adapter.cancel(submitted.predictionId)).toBe(false);
    expect(await adapter.cancel("cgt-unknown")).toBe(false);
  });
});

describe("configuration", () => {
  it("is not configured without ARK_API_KEY and defaults to ModelArk's public root", () => {
    expect(byteplusFromEnv({ ...env(), ARK_API_KEY: undefined })).toBeNull();
    expect(byteplusFromEnv({ ...env(), ARK_API_KEY: "k", ARK_BASE_URL: "https://ark.ap-southeast.bytepluses.com/api/v3" })).toEqual({
      apiKey: "k",
      baseUrl: "https://ark.ap-southeast.bytepluses.com/api/v3",
    });
  });
});
