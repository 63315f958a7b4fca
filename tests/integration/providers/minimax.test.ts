import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { createMiniMaxAdapter, minimaxFromEnv } from "@/server/providers/minimax";
import type { ProviderAdapter, ProviderJob } from "@/server/providers/types";
import { pollUntilSettled, providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { startMiniMaxFake, type MiniMaxFake } from "@/tests/fakes/minimax-fake";
import { providerJob } from "@/tests/fakes/provider-job";

// The MiniMax adapter against a local fake of its published API: Hailuo videos as polled tasks
// whose file is read by file_id, image-01 pictures in the submit answer. Real HTTP, no mocks.

let fake: MiniMaxFake;
let adapter: ProviderAdapter;

beforeAll(async () => {
  fake = await startMiniMaxFake();
  adapter = createMiniMaxAdapter({ token: fake.token, baseUrl: fake.baseUrl, timeoutMs: 2_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => fake.reset());

const hailuo = (overrides: Partial<ProviderJob> = {}) => providerJob("minimax/hailuo-02", "minimax", overrides);
const image01 = (overrides: Partial<ProviderJob> = {}) => providerJob("minimax/image-01", "minimax", overrides);

async function acceptedTask(job: ProviderJob): Promise<string> {
  const submitted = await adapter.submit(job);
  if (submitted.kind !== "accepted") throw new Error(`expected an accepted task, got ${submitted.kind}`);
  return submitted.predictionId;
}

describe("videos: task, query, file", () => {
  it("creates a task with the model, prompt, duration, capital resolution and first frame, with Bearer auth", async () => {
    const job = hailuo({ durationSeconds: 10, inputFiles: ["https://images.example.test/start.png"] });
    const taskId = await acceptedTask(job);
    expect(taskId).toMatch(/^\d+$/);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/video_generation" });
    expect(request?.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(request?.body).toEqual({
      model: "MiniMax-Hailuo-02",
      prompt: job.prompt,
      duration: 10,
      resolution: "768P",
      first_frame_image: "https://images.example.test/start.png",
      prompt_optimizer: false,
    });
    expect(request?.body).not.toHaveProperty("callback_url");
  });

  it("sends Hailuo 2.3 by its MiniMax model id", async () => {
    await acceptedTask(providerJob("minimax/hailuo-2.3", "minimax"));
    expect(fake.requests[0]?.body).toMatchObject({ model: "MiniMax-Hailuo-2.3", duration: 6, resolution: "768P" });
  });

  it("sends Video-01 and its Director variant as T2V-01 at 720P for 6 s, with no first frame", async () => {
    await acceptedTask(providerJob("minimax/video-01", "minimax"));
    await acceptedTask(providerJob("minimax/video-01-director", "minimax", { prompt: "a lighthouse at dusk [Push in]" }));
    expect(fake.requests.map((request) => request.body)).toEqual([
      { model: "T2V-01", prompt: "a lighthouse on a cliff at dusk", duration: 6, resolution: "720P", prompt_optimizer: false },
      { model: "T2V-01-Director", prompt: "a lighthouse at dusk [Push in]", duration: 6, resolution: "720P", prompt_optimizer: false },
    ]);
  });

  it("sends I2V-01 and I2V-01-Director with their required first frame", async () => {
    const frame = "https://images.example.test/start.png";
    await acceptedTask(providerJob("minimax/i2v-01", "minimax", { inputFiles: [frame] }));
    await acceptedTask(providerJob("minimax/i2v-01-director", "minimax", { inputFiles: [frame] }));
    expect(fake.requests.map((request) => request.body)).toEqual([
      {
        model: "I2V-01",
        prompt: "a lighthouse on a cliff at dusk",
        duration: 6,
        resolution: "720P",
        first_frame_image: frame,
        prompt_optimizer: false,
      },
      {
        model: "I2V-01-Director",
        prompt: "a lighthouse on a cliff at dusk",
        duration: 6,
        resolution: "720P",
        first_frame_image: frame,
        prompt_optimizer: false,
      },
    ]);
  });

  it("sends Hailuo 02 Pro as MiniMax-Hailuo-02 at 1080P for 6 s", async () => {
    await acceptedTask(providerJob("minimax/hailuo-02-pro", "minimax"));
    expect(fake.requests[0]?.body).toEqual({
      model: "MiniMax-Hailuo-02",
      prompt: "a lighthouse on a cliff at dusk",
      duration: 6,
      resolution: "1080P",
      prompt_optimizer: false,
    });
  });

  it("the fake refuses what MiniMax's reference refuses: T2V-01 for 10 s, I2V-01 without a first frame (2013, ERR4005)", async () => {
    const tooLong = await providerErrorOf(adapter.submit(providerJob("minimax/video-01", "minimax", { durationSeconds: 10 })));
    expect(tooLong).toMatchObject({ code: "ERR4005" });
    const noFrame = await providerErrorOf(adapter.submit(providerJob("minimax/i2v-01", "minimax", { inputFiles: [] })));
    expect(noFrame).toMatchObject({ code: "ERR4005" });
  });

  it("polls the task through Preparing, Queueing and Processing to Success, then reads the file's download_url", async () => {
    fake.script({ delayMs: 300 });
    const job = hailuo();
    const taskId = await acceptedTask(job);
    const { result, seen } = await pollUntilSettled(adapter, taskId, job);
    expect(seen.slice(0, -1).every((status) => status === "running")).toBe(true);
    expect(result.status).toBe("succeeded");
    if (result.status !== "succeeded") return;
    expect(result.outputs).toHaveLength(1);
    const [output] = result.outputs;
    expect(output).toMatchObject({ kind: "url", contentType: "video/mp4" });
    if (output?.kind !== "url") return;
    const file = await fetch(output.url);
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe("ftyp");
    const queries = fake.requests.filter((request) => request.path === "/v1/query/video_generation");
    expect(queries.every((request) => request.query.get("task_id") === taskId)).toBe(true);
    const retrieve = fake.requests.find((request) => request.path === "/v1/files/retrieve");
    expect(retrieve?.query.get("file_id")).toMatch(/^\d+$/);
  });

  it("a task that ends Fail with 1027 (sensitive output) is ERR4005; a plain Fail is ERR4002", async () => {
    fake.script({ fail: "task_moderated", delayMs: 0 });
    const moderatedJob = hailuo();
    const moderated = await pollUntilSettled(adapter, await acceptedTask(moderatedJob), moderatedJob);
    expect(moderated.result).toMatchObject({
      status: "failed",
      error: { code: "ERR4005", provider: "minimax", providerDetail: "HTTP 200 status_code=1027" },
    });

    fake.script({ fail: "task_failed", delayMs: 0 });
    const failedJob = hailuo();
    const failed = await pollUntilSettled(adapter, await acceptedTask(failedJob), failedJob);
    expect(failed.result).toMatchObject({
      status: "failed",
      error: { code: "ERR4002", provider: "minimax", providerDetail: "HTTP 200 status Fail" },
    });
  });

  it("a resolution and duration MiniMax refuses (1080P for 10 s) is 2013, ERR4005: another try would fail the same", async () => {
    const error = await providerErrorOf(adapter.submit(hailuo({ resolution: "1080p", durationSeconds: 10 })));
    expect(error).toMatchObject({ code: "ERR4005", provider: "minimax", providerDetail: "HTTP 200 status_code=2013" });
    expect(error.failover).toBe(false);
  });

  it("cancel is not published by MiniMax: false, and nothing is sent", async () => {
    const taskId = await acceptedTask(hailuo());
    fake.reset();
    await expect(adapter.cancel(taskId)).resolves.toBe(false);
    expect(fake.requests).toHaveLength(0);
    expect(adapter.parseCallback).toBeUndefined();
  });
});

describe("images: one synchronous call", () => {
  it("posts image_generation with model, aspect_ratio, n, seed and response_format url, and answers the pictures as URLs", async () => {
    const job = image01({ ratio: "21:9", outputCount: 3 });
    const submitted = await adapter.submit(job);
    expect(fake.requests[0]).toMatchObject({ method: "POST", path: "/v1/image_generation" });
    expect(fake.requests[0]?.body).toEqual({
      model: "image-01",
      prompt: job.prompt,
      aspect_ratio: "21:9",
      response_format: "url",
      n: 3,
      seed: job.seed,
      prompt_optimizer: false,
    });
    expect(submitted.kind).toBe("completed");
    if (submitted.kind !== "completed" || submitted.result.status !== "succeeded") throw new Error("expected a finished result");
    expect(submitted.predictionId).toMatch(/^[0-9a-f]{24}$/);
    expect(submitted.result.outputs).toHaveLength(3);
    for (const output of submitted.result.outputs) expect(output).toMatchObject({ kind: "url", contentType: "image/jpeg" });
  });

  it("every picture withheld by moderation (failed_count, no URLs) is ERR4005", async () => {
    const error = await providerErrorOf(adapter.submit(image01({ prompt: "a cliff [minimax:withheld]", outputCount: 2 })));
    expect(error).toMatchObject({ code: "ERR4005", provider: "minimax", providerDetail: "HTTP 200 failed_count=2" });
  });
});

describe("error mapping (base_resp status codes on HTTP 200)", () => {
  it.each([
    ["rate_limit", "ERR4002", true, "HTTP 200 status_code=1002"],
    ["insufficient_balance", "ERR4002", true, "HTTP 200 status_code=1008"],
    ["server_error", "ERR4002", true, "HTTP 200 status_code=1000"],
    ["unauthorized", "ERR4002", true, "HTTP 200 status_code=1004"],
    ["timeout_code", "ERR4001", true, "HTTP 200 status_code=1001"],
    ["content_policy", "ERR4005", false, "HTTP 200 status_code=1026"],
    ["http_unavailable", "ERR4002", true, "HTTP 503"],
  ] as const)("%s → %s (failover %s), on videos and images alike", async (fail, code, failover, detail) => {
    fake.script({ fail });
    for (const job of [hailuo(), image01()]) {
      const error = await providerErrorOf(adapter.submit(job));
      expect(error.code).toBe(code);
      expect(error.failover).toBe(failover);
      expect(error.provider).toBe("minimax");
      expect(error.providerDetail).toBe(detail);
      expect(error.message).not.toContain(fake.token);
    }
  });

  it("keeps MiniMax's auth text out of the message", async () => {
    fake.script({ fail: "unauthorized" });
    const error = await providerErrorOf(adapter.submit(image01()));
    expect(error.message).toBe("minimax: the provider refused our credentials");
  });

  it("an answer it does not understand fails the attempt with a provider error naming minimax", async () => {
    const job = hailuo();
    const taskId = await acceptedTask(job);
    fake.script({ fail: "garbled" });
    for (const call of [adapter.submit(hailuo()), adapter.submit(image01())]) {
      const error = await providerErrorOf(call);
      expect(error).toMatchObject({ code: "ERR4002", provider: "minimax", providerDetail: "HTTP 200 unexpected body" });
      expect(error.message).toMatch(/^minimax: the answer is not understood/);
    }
    // A poll that throws is asked again by the run; one not understood ends the attempt instead.
    const polled = await adapter.poll(taskId, job);
    expect(polled).toMatchObject({
      status: "failed",
      error: { code: "ERR4002", provider: "minimax", providerDetail: "HTTP 200 unexpected body" },
    });
  });

  it("a task MiniMax does not know (2013) ends the attempt; a rate-limited poll is asked again", async () => {
    const job = hailuo();
    expect(await adapter.poll("123456789", job)).toMatchObject({
      status: "failed",
      error: { code: "ERR4005", providerDetail: "HTTP 200 status_code=2013" },
    });
    fake.script({ fail: "rate_limit" });
    expect(await providerErrorOf(adapter.poll("123456789", job))).toMatchObject({
      code: "ERR4002",
      providerDetail: "HTTP 200 status_code=1002",
    });
  });

  it("a refused connection is ERR4002; no answer within the timeout is ERR4001", async () => {
    const closed = await startMiniMaxFake();
    await closed.close();
    const unreachable = createMiniMaxAdapter({ token: "k", baseUrl: closed.baseUrl, timeoutMs: 2_000 });
    expect(await providerErrorOf(unreachable.submit(hailuo()))).toMatchObject({ code: "ERR4002", providerDetail: "ECONNREFUSED" });

    fake.script({ responseDelayMs: 400 });
    const impatient = createMiniMaxAdapter({ token: fake.token, baseUrl: fake.baseUrl, timeoutMs: 100 });
    expect(await providerErrorOf(impatient.submit(image01()))).toMatchObject({ code: "ERR4001", providerDetail: "timeout 100ms" });
  });
});

describe("configuration", () => {
  it("is configured by MINIMAX_API_KEY, with MiniMax's public API root as the default base URL", () => {
    expect(minimaxFromEnv({ ...env(), MINIMAX_API_KEY: undefined })).toBeNull();
    expect(minimaxFromEnv({ ...env(), MINIMAX_API_KEY: "k" })).toEqual({
      token: "k",
      baseUrl: process.env.MINIMAX_BASE_URL ?? "https://api.minimax.io",
    });
  });
});
