import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { CallbackRejectedError, classifyHttpFailure, providerErrorFromJobFailure } from "@/server/providers/http-errors";
import { createReplicateAdapter, replicateFromEnv } from "@/server/providers/replicate";
import type { ProviderAdapter } from "@/server/providers/types";
import { pollUntilSettled, providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { providerJob } from "@/tests/fakes/provider-job";
import { startReplicateFake, type ReplicateFake } from "@/tests/fakes/replicate-fake";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";

// The Replicate adapter against a local fake that follows Replicate's HTTP API and signs its
// webhooks per Standard Webhooks. Real HTTP both ways, no mocks.

let fake: ReplicateFake;
let receiver: WebhookReceiver;
let adapter: ProviderAdapter;

beforeAll(async () => {
  fake = await startReplicateFake();
  receiver = await startWebhookReceiver();
  adapter = createReplicateAdapter({ token: fake.token, baseUrl: fake.baseUrl, webhookSecret: fake.webhookSecret, timeoutMs: 2_000 });
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
});

beforeEach(() => fake.reset());

/** The webhook about this prediction (the receiver is shared, deliveries arrive in any order). */
const webhookFor = (predictionId: string) => receiver.next((webhook) => webhook.rawBody.includes(`"id":"${predictionId}"`));

const schnell = (overrides = {}) => providerJob("black-forest-labs/flux-schnell", "replicate", overrides);

function resign(rawBody: string, timestamp: number, id = "msg_test") {
  const key = Buffer.from(fake.webhookSecret.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${rawBody}`).digest("base64");
  return new Headers({ "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signature}` });
}

describe("submit: the request Replicate receives", () => {
  it("creates a prediction on the official-model endpoint with the input, the webhook and Bearer auth", async () => {
    const job = schnell({ ratio: "3:2", outputFormat: "jpg", outputCount: 3, callbackUrl: receiver.url });
    const submitted = await adapter.submit(job);
    expect(submitted).toMatchObject({ kind: "accepted" });

    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/models/black-forest-labs/flux-schnell/predictions");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toEqual({
      input: { prompt: job.prompt, aspect_ratio: "3:2", num_outputs: 3, output_format: "jpg", seed: job.seed },
      webhook: receiver.url,
      webhook_events_filter: ["completed"],
    });
  });

  it("sends FLUX1.1 [pro] no num_outputs, Veo 3 its video fields, Kling its start image and tier", async () => {
    await adapter.submit(providerJob("black-forest-labs/flux-1.1-pro", "replicate", { ratio: "16:9" }));
    await adapter.submit(providerJob("google/veo-3", "replicate", { ratio: "9:16", resolution: "1080p", generateAudio: true }));
    await adapter.submit(
      providerJob("kwaivgi/kling-v2.1", "replicate", {
        resolution: "1080p",
        durationSeconds: 10,
        inputFiles: ["https://img.example.test/a.png"],
      }),
    );

    const [pro, veo, kling] = fake.requests;
    expect(pro?.path).toBe("/v1/models/black-forest-labs/flux-1.1-pro/predictions");
    expect((pro?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      aspect_ratio: "16:9",
      output_format: "png",
      seed: 1_234_567,
    });
    expect(veo?.path).toBe("/v1/models/google/veo-3/predictions");
    expect((veo?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      aspect_ratio: "9:16",
      duration: 8,
      resolution: "1080p",
      generate_audio: true,
      seed: 1_234_567,
    });
    expect(kling?.path).toBe("/v1/models/kwaivgi/kling-v2.1/predictions");
    expect((kling?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      start_image: "https://img.example.test/a.png",
      mode: "pro",
      duration: 10,
    });
  });

  it("sends MiniMax's models on Replicate in their own field names (number_of_images; first_frame_image)", async () => {
    await adapter.submit(providerJob("minimax/image-01", "replicate", { ratio: "21:9", outputCount: 4 }));
    await adapter.submit(
      providerJob("minimax/hailuo-02", "replicate", { durationSeconds: 10, inputFiles: ["https://img.example.test/a.png"] }),
    );
    const [image, video] = fake.requests;
    expect(image?.path).toBe("/v1/models/minimax/image-01/predictions");
    expect((image?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      aspect_ratio: "21:9",
      number_of_images: 4,
      prompt_optimizer: false,
    });
    expect(video?.path).toBe("/v1/models/minimax/hailuo-02/predictions");
    expect((video?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      duration: 10,
      resolution: "768p",
      first_frame_image: "https://img.example.test/a.png",
      prompt_optimizer: false,
    });
  });

  it("sends Runway's models and Workers AI's FLUX.1 [schnell] on Replicate in their published fields", async () => {
    const references = ["https://img.example.test/a.png", "https://img.example.test/b.png"];
    await adapter.submit(providerJob("runway/gen4-image", "replicate", { ratio: "21:9", inputFiles: references }));
    await adapter.submit(providerJob("runway/gen4-image", "replicate", { ratio: "1:1" }));
    await adapter.submit(providerJob("runway/gen4-turbo", "replicate", { ratio: "9:16", durationSeconds: 10 }));
    await adapter.submit(providerJob("cloudflare/flux-1-schnell", "replicate", { outputCount: 4 }));
    const [image, textOnly, video, schnellOnCloudflare] = fake.requests;
    expect(image?.path).toBe("/v1/models/runwayml/gen4-image/predictions");
    expect((image?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      aspect_ratio: "21:9",
      resolution: "1080p",
      reference_images: references,
      seed: 1_234_567,
    });
    expect((textOnly?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      aspect_ratio: "1:1",
      resolution: "1080p",
      seed: 1_234_567,
    });
    expect(video?.path).toBe("/v1/models/runwayml/gen4-turbo/predictions");
    expect((video?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      image: "https://images.example.test/start.png",
      aspect_ratio: "9:16",
      duration: 10,
      seed: 1_234_567,
    });
    expect(schnellOnCloudflare?.path).toBe("/v1/models/black-forest-labs/flux-schnell/predictions");
    expect((schnellOnCloudflare?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      aspect_ratio: "1:1",
      num_outputs: 4,
      output_format: "jpg",
      seed: 1_234_567,
    });
  });

  it("sends Qwen-Image on Replicate one picture per prediction, without num_outputs", async () => {
    await adapter.submit(providerJob("qwen/qwen-image", "replicate", { ratio: "4:3" }));
    expect(fake.requests[0]?.path).toBe("/v1/models/qwen/qwen-image/predictions");
    expect((fake.requests[0]?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      aspect_ratio: "4:3",
      output_format: "png",
      seed: 1_234_567,
    });
  });

  it("sends ByteDance's models on Replicate in their own field names (image_input and size; Seedance's video fields)", async () => {
    await adapter.submit(
      providerJob("bytedance/seedream-4", "replicate", { ratio: "21:9", inputFiles: ["https://img.example.test/a.png"] }),
    );
    await adapter.submit(providerJob("bytedance/seedance-1-pro", "replicate", { durationSeconds: 10, resolution: "480p", ratio: "9:16" }));
    const [image, video] = fake.requests;
    expect(image?.path).toBe("/v1/models/bytedance/seedream-4/predictions");
    expect((image?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      image_input: ["https://img.example.test/a.png"],
      size: "2K",
      aspect_ratio: "21:9",
      sequential_image_generation: "disabled",
    });
    expect(video?.path).toBe("/v1/models/bytedance/seedance-1-pro/predictions");
    expect((video?.body as { input: object }).input).toEqual({
      prompt: expect.any(String),
      duration: 10,
      resolution: "480p",
      aspect_ratio: "9:16",
      seed: 1_234_567,
    });
  });

  it("runs a pinned owner/name:version through /v1/predictions", async () => {
    await adapter.submit(schnell({ providerModelId: "black-forest-labs/flux-schnell:abc123" }));
    expect(fake.requests[0]?.path).toBe("/v1/predictions");
    expect(fake.requests[0]?.body).toMatchObject({ version: "abc123", input: { prompt: expect.any(String) } });
  });

  it("asks for no webhook and offers no parseCallback without a webhook secret", async () => {
    const pollOnly = createReplicateAdapter({ token: fake.token, baseUrl: fake.baseUrl });
    expect(pollOnly.parseCallback).toBeUndefined();
    await pollOnly.submit(schnell());
    expect(fake.requests[0]?.body).not.toHaveProperty("webhook");
    expect(fake.requests[0]?.body).not.toHaveProperty("webhook_events_filter");
  });
});

describe("results", () => {
  it("succeeds by polling: running, then the output URLs (downloadable) and the predict time", async () => {
    fake.script({ delayMs: 200 });
    const job = schnell({ outputCount: 2 });
    const submitted = await adapter.submit(job);
    const { result, seen } = await pollUntilSettled(adapter, submitted.predictionId, job);

    expect(seen[0]).toBe("running");
    expect(result.status).toBe("succeeded");
    if (result.status !== "succeeded") return;
    expect(result.outputs).toHaveLength(2);
    expect(result.outputs[0]).toMatchObject({ kind: "url", contentType: "image/png" });
    expect(result.predictTimeSeconds).toBeCloseTo(0.2, 1);
    const output = result.outputs[0];
    const download = await fetch(output?.kind === "url" ? output.url : "");
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");

    const gets = fake.requests.filter((request) => request.method === "GET");
    expect(gets.every((request) => request.path === `/v1/predictions/${submitted.predictionId}`)).toBe(true);
    expect(gets.every((request) => request.headers.authorization === `Bearer ${fake.token}`)).toBe(true);
  });

  it("reads a single-URL output (video) as one output", async () => {
    const job = providerJob("google/veo-3", "replicate");
    const submitted = await adapter.submit(job);
    const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
    expect(result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url", contentType: "video/mp4" }] });
  });

  it("succeeds by callback: the signed webhook the fake sends parses to the prediction's result", async () => {
    const job = schnell({ callbackUrl: receiver.url });
    const submitted = await adapter.submit(job);
    const webhook = await webhookFor(submitted.predictionId);

    expect(webhook.headers.get("webhook-signature")).toMatch(/^v1,/);
    const parsed = await adapter.parseCallback!({ headers: webhook.headers, rawBody: webhook.rawBody });
    expect(parsed.predictionId).toBe(submitted.predictionId);
    expect(parsed.result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url" }], predictTimeSeconds: expect.any(Number) });
  });

  it("rejects a webhook with a tampered body, a forged signature, a stale timestamp or no headers", async () => {
    const submitted = await adapter.submit(schnell({ callbackUrl: receiver.url }));
    const webhook = await webhookFor(submitted.predictionId);
    const parse = (headers: Headers, rawBody: string) => adapter.parseCallback!({ headers, rawBody });

    const tampered = webhook.rawBody.replace('"succeeded"', '"failed"');
    await expect(parse(webhook.headers, tampered)).rejects.toBeInstanceOf(CallbackRejectedError);

    const forged = new Headers(webhook.headers);
    forged.set("webhook-signature", `v1,${Buffer.alloc(32, 7).toString("base64")}`);
    await expect(parse(forged, webhook.rawBody)).rejects.toBeInstanceOf(CallbackRejectedError);

    const now = Math.floor(Date.now() / 1000);
    await expect(parse(resign(webhook.rawBody, now - 305), webhook.rawBody)).rejects.toThrow(/5 minutes/);
    await expect(parse(resign(webhook.rawBody, now + 305), webhook.rawBody)).rejects.toThrow(/5 minutes/);
    await expect(parse(new Headers(), webhook.rawBody)).rejects.toBeInstanceOf(CallbackRejectedError);

    // The control: the same body signed now, with a second (rotated) signature listed first, passes.
    const fresh = resign(webhook.rawBody, now);
    fresh.set("webhook-signature", `v1,${Buffer.alloc(32, 1).toString("base64")} ${fresh.get("webhook-signature")}`);
    await expect(parse(fresh, webhook.rawBody)).resolves.toMatchObject({ result: { status: "succeeded" } });
  });
});

describe("error mapping", () => {
  it.each([
    ["rate_limit", "ERR4002", true, "HTTP 429"],
    ["server_error", "ERR4002", true, "HTTP 500"],
    ["unauthorized", "ERR4002", true, "HTTP 401"],
    ["content_policy", "ERR4005", false, "HTTP 422"],
  ] as const)("%s on create → %s (failover %s)", async (fail, code, failover, detail) => {
    fake.script({ fail });
    const error = await providerErrorOf(adapter.submit(schnell()));
    expect(error.code).toBe(code);
    expect(error.failover).toBe(failover);
    expect(error.provider).toBe("replicate");
    expect(error.providerDetail).toContain(detail);
    expect(error.message).not.toContain(fake.token);
  });

  it("keeps the Retry-After of a 429 in the attempt's detail", async () => {
    fake.script({ fail: "rate_limit" });
    expect((await providerErrorOf(adapter.submit(schnell()))).providerDetail).toBe("HTTP 429 retry_after=1");
  });

  it("a wrong token is ERR4002 (our credentials), not the customer's fault", async () => {
    const wrongToken = createReplicateAdapter({ token: "r8_wrong", baseUrl: fake.baseUrl, timeoutMs: 2_000 });
    const error = await providerErrorOf(wrongToken.submit(schnell()));
    expect(error).toMatchObject({ code: "ERR4002", providerDetail: "HTTP 401" });
    expect(error.message).not.toContain("r8_wrong");
  });

  it("a prediction that fails on Replicate is ERR4002, by poll and by callback", async () => {
    fake.script({ fail: "prediction_failed" });
    const job = schnell({ callbackUrl: receiver.url });
    const submitted = await adapter.submit(job);
    const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
    expect(result.status).toBe("failed");
    if (result.status === "failed")
      expect(result.error).toMatchObject({
        code: "ERR4002",
        providerDetail: "status failed",
        message: expect.stringContaining("out of memory"),
      });

    const webhook = await webhookFor(submitted.predictionId);
    const parsed = await adapter.parseCallback!({ headers: webhook.headers, rawBody: webhook.rawBody });
    expect(parsed.result).toMatchObject({ status: "failed", error: { code: "ERR4002" } });
  });

  it("a prediction failed for NSFW content is ERR4005, final", async () => {
    fake.script({ fail: "prediction_failed", errorText: "NSFW content detected. Try running it again, or try a different prompt." });
    const job = schnell();
    const submitted = await adapter.submit(job);
    const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
    expect(result.status).toBe("failed");
    if (result.status === "failed") {
      expect(result.error.code).toBe("ERR4005");
      expect(result.error.failover).toBe(false);
    }
  });

  it("an unknown prediction on poll is ERR4002", async () => {
    expect(await providerErrorOf(adapter.poll("nope", schnell()))).toMatchObject({ code: "ERR4002", providerDetail: "HTTP 404" });
  });

  it("a refused connection is ERR4002", async () => {
    const closed = await startReplicateFake();
    await closed.close();
    const unreachable = createReplicateAdapter({ token: "t", baseUrl: closed.baseUrl, timeoutMs: 2_000 });
    expect(await providerErrorOf(unreachable.submit(schnell()))).toMatchObject({ code: "ERR4002", providerDetail: "ECONNREFUSED" });
  });

  it("a provider that does not answer in time is ERR4001, on submit and on poll", async () => {
    const job = schnell();
    const submitted = await adapter.submit(job);
    fake.script({ responseDelayMs: 400 });
    const impatient = createReplicateAdapter({ token: fake.token, baseUrl: fake.baseUrl, timeoutMs: 100 });
    const onSubmit = await providerErrorOf(impatient.submit(job));
    expect(onSubmit).toMatchObject({ code: "ERR4001", providerDetail: "timeout 100ms" });
    expect(onSubmit.failover).toBe(true);
    expect(await providerErrorOf(impatient.poll(submitted.predictionId, job))).toMatchObject({ code: "ERR4001" });
  });
});

describe("cancel", () => {
  it("reaches the fake, which then reports the prediction canceled", async () => {
    fake.script({ delayMs: 5_000 });
    const job = schnell({ callbackUrl: receiver.url });
    const submitted = await adapter.submit(job);

    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(true);
    const cancel = fake.requests.find((request) => request.path === `/v1/predictions/${submitted.predictionId}/cancel`);
    expect(cancel).toMatchObject({ method: "POST", headers: { authorization: `Bearer ${fake.token}` } });
    await expect(adapter.poll(submitted.predictionId, job)).resolves.toEqual({ status: "canceled" });

    // Replicate sends the `completed` webhook for a cancel too.
    const webhook = await webhookFor(submitted.predictionId);
    await expect(adapter.parseCallback!({ headers: webhook.headers, rawBody: webhook.rawBody })).resolves.toEqual({
      predictionId: submitted.predictionId,
      result: { status: "canceled" },
    });
  });

  it("is false, never a throw, for a finished or unknown prediction or an unreachable provider", async () => {
    const job = schnell();
    const submitted = await adapter.submit(job);
    await pollUntilSettled(adapter, submitted.predictionId, job);
    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(false);
    await expect(adapter.cancel("unknown")).resolves.toBe(false);
    fake.script({ fail: "server_error" });
    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(false);
  });
});

// The one status → code table all three adapters share (server/providers/http-errors.ts).
describe("the shared mapping", () => {
  it.each([
    [408, "", "ERR4001"],
    [504, "request_timeout", "ERR4001"],
    [429, "rate_limit_exceeded", "ERR4002"],
    [500, "", "ERR4002"],
    [503, "Service paused for maintenance", "ERR4002"],
    [401, "", "ERR4002"],
    [403, "", "ERR4002"],
    [402, "Insufficient credit", "ERR4002"],
    [404, "model not found", "ERR4002"],
    [400, "billing_hard_limit_reached", "ERR4002"],
    [409, "The model is at capacity, try again later", "ERR4002"],
    [400, "moderation_blocked", "ERR4005"],
    [400, "content_policy_violation", "ERR4005"],
    [422, "Input validation failed: width must be a multiple of 32", "ERR4005"],
    [413, "", "ERR4005"],
  ] as const)("HTTP %s %s → %s", (status, text, code) => {
    expect(classifyHttpFailure(status, text)).toBe(code);
  });

  it.each([
    ["NSFW content detected. Try a different prompt.", "ERR4005"],
    ["The input or output was flagged as sensitive. (E005)", "ERR4005"],
    ["Prediction failed: CUDA error: out of memory", "ERR4002"],
    ["", "ERR4002"],
  ] as const)("a job failed with %j → %s", (text, code) => {
    expect(providerErrorFromJobFailure("replicate", text, "status failed").code).toBe(code);
  });
});

describe("configuration", () => {
  it("is configured by REPLICATE_API_TOKEN, with the published API as the default base URL", () => {
    expect(replicateFromEnv({ ...env(), REPLICATE_API_TOKEN: undefined })).toBeNull();
    expect(replicateFromEnv({ ...env(), REPLICATE_API_TOKEN: "r8_x", REPLICATE_WEBHOOK_SECRET: "whsec_abc" })).toMatchObject({
      token: "r8_x",
      webhookSecret: "whsec_abc",
      baseUrl: process.env.REPLICATE_API_BASE_URL ?? "https://api.replicate.com",
    });
  });
});
