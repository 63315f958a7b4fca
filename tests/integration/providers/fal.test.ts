import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { createFalAdapter, falFromEnv } from "@/server/providers/fal";
import { CallbackRejectedError } from "@/server/providers/http-errors";
import { ProviderError, type ProviderAdapter } from "@/server/providers/types";
import { pollUntilSettled, providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { startFalFake, type FalFake } from "@/tests/fakes/fal-fake";
import { providerJob } from "@/tests/fakes/provider-job";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";

// The fal adapter against a local fake of fal's queue API that signs its webhooks with its own
// ED25519 key and serves the matching JWKS. Real HTTP both ways, no mocks.

let fake: FalFake;
let receiver: WebhookReceiver;
let adapter: ProviderAdapter;

const makeAdapter = (overrides: { token?: string; timeoutMs?: number; jwksUrl?: string; baseUrl?: string } = {}) =>
  createFalAdapter({ token: fake.key, baseUrl: fake.baseUrl, jwksUrl: fake.jwksUrl, timeoutMs: 2_000, ...overrides });

beforeAll(async () => {
  fake = await startFalFake();
  receiver = await startWebhookReceiver();
  adapter = makeAdapter();
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
});

beforeEach(() => fake.reset());

const schnell = (overrides = {}) => providerJob("black-forest-labs/flux-schnell", "fal", overrides);
const webhookFor = (requestId: string) => receiver.next((webhook) => webhook.headers.get("x-fal-webhook-request-id") === requestId);
const apiRequests = () => fake.requests.filter((request) => request.path !== "/.well-known/jwks.json");

describe("submit: the request fal receives", () => {
  it("queues on the endpoint with fal_webhook, the model's input and Key auth", async () => {
    const job = schnell({ ratio: "3:2", outputFormat: "jpg", outputCount: 2, callbackUrl: receiver.url });
    const submitted = await adapter.submit(job);
    expect(submitted).toEqual({ kind: "accepted", predictionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const [request] = apiRequests();
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/fal-ai/flux/schnell");
    expect(request?.query.get("fal_webhook")).toBe(receiver.url);
    expect(request?.headers.authorization).toBe(`Key ${fake.key}`);
    expect(request?.body).toEqual({
      prompt: job.prompt,
      image_size: { width: 1440, height: 960 },
      num_images: 2,
      output_format: "jpeg",
      seed: job.seed,
      enable_safety_checker: true,
    });
  });

  it("names fal's sizes, sends Veo 3 its duration as \"8s\", and picks Kling's tier endpoint from the resolution", async () => {
    await adapter.submit(providerJob("black-forest-labs/flux-1.1-pro", "fal", { ratio: "9:16" }));
    await adapter.submit(providerJob("google/veo-3", "fal", { ratio: "9:16", resolution: "1080p", generateAudio: true }));
    await adapter.submit(
      providerJob("kwaivgi/kling-v2.1", "fal", {
        resolution: "1080p",
        durationSeconds: 10,
        inputFiles: ["https://img.example.test/a.png"],
      }),
    );
    await adapter.submit(providerJob("kwaivgi/kling-v2.1", "fal", { resolution: "720p" }));

    const [pro, veo, klingPro, klingStandard] = apiRequests();
    expect(pro?.path).toBe("/fal-ai/flux-pro/v1.1");
    expect(pro?.body).toMatchObject({ image_size: "portrait_16_9", output_format: "png", num_images: 1 });
    expect(veo?.path).toBe("/fal-ai/veo3");
    expect(veo?.body).toEqual({
      prompt: expect.any(String),
      aspect_ratio: "9:16",
      duration: "8s",
      resolution: "1080p",
      generate_audio: true,
      seed: 1_234_567,
    });
    expect(klingPro?.path).toBe("/fal-ai/kling-video/v2.1/pro/image-to-video");
    expect(klingPro?.body).toEqual({ prompt: expect.any(String), image_url: "https://img.example.test/a.png", duration: "10" });
    expect(klingStandard?.path).toBe("/fal-ai/kling-video/v2.1/standard/image-to-video");
  });
});

describe("results", () => {
  it("succeeds by polling status, then the result: image URLs (downloadable) and the inference time", async () => {
    fake.script({ delayMs: 200 });
    const job = schnell({ outputFormat: "jpg", outputCount: 2 });
    const submitted = await adapter.submit(job);
    const { result, seen } = await pollUntilSettled(adapter, submitted.predictionId, job);

    expect(seen[0]).toBe("running");
    expect(result.status).toBe("succeeded");
    if (result.status !== "succeeded") return;
    expect(result.outputs).toEqual([
      { kind: "url", url: expect.stringContaining("/files/"), contentType: "image/jpeg" },
      { kind: "url", url: expect.stringContaining("/files/"), contentType: "image/jpeg" },
    ]);
    expect(result.predictTimeSeconds).toBeCloseTo(0.2, 1);
    const output = result.outputs[0];
    const download = await fetch(output?.kind === "url" ? output.url : "");
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/jpeg");

    const paths = new Set(
      apiRequests()
        .filter((request) => request.method === "GET")
        .map((request) => request.path),
    );
    expect(paths).toEqual(
      new Set([`/fal-ai/flux/requests/${submitted.predictionId}/status`, `/fal-ai/flux/requests/${submitted.predictionId}`]),
    );
  });

  it("reads a video result under the app id, without the endpoint's sub-path", async () => {
    const job = providerJob("kwaivgi/kling-v2.1", "fal");
    const submitted = await adapter.submit(job);
    const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
    expect(result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url", contentType: "video/mp4" }] });
    expect(apiRequests().some((request) => request.path === `/fal-ai/kling-video/requests/${submitted.predictionId}/status`)).toBe(true);
  });

  it("succeeds by callback: the ED25519-signed webhook verifies against the JWKS, fetched once and cached", async () => {
    const verifier = makeAdapter();
    const first = await verifier.submit(schnell({ callbackUrl: receiver.url }));
    const second = await verifier.submit(schnell({ callbackUrl: receiver.url }));

    for (const submitted of [first, second]) {
      const webhook = await webhookFor(submitted.predictionId);
      expect(webhook.headers.get("x-fal-webhook-signature")).toMatch(/^[0-9a-f]{128}$/);
      const parsed = await verifier.parseCallback!({ headers: webhook.headers, rawBody: webhook.rawBody });
      expect(parsed.predictionId).toBe(submitted.predictionId);
      expect(parsed.result).toMatchObject({
        status: "succeeded",
        outputs: [{ kind: "url", contentType: "image/png" }],
        predictTimeSeconds: expect.any(Number),
      });
    }
    expect(fake.requests.filter((request) => request.path === "/.well-known/jwks.json")).toHaveLength(1);
  });

  it("rejects a tampered body, a forged or foreign signature, a stale timestamp and missing headers", async () => {
    const submitted = await adapter.submit(schnell({ callbackUrl: receiver.url }));
    const webhook = await webhookFor(submitted.predictionId);
    const parse = (headers: Headers, rawBody = webhook.rawBody) => adapter.parseCallback!({ headers, rawBody });
    const withHeaders = (changes: Record<string, string>) => {
      const headers = new Headers(webhook.headers);
      for (const [name, value] of Object.entries(changes)) headers.set(name, value);
      return headers;
    };

    await expect(parse(webhook.headers, webhook.rawBody.replace('"OK"', '"ERROR"'))).rejects.toBeInstanceOf(CallbackRejectedError);
    await expect(parse(withHeaders({ "x-fal-webhook-signature": "ab".repeat(64) }))).rejects.toBeInstanceOf(CallbackRejectedError);
    await expect(parse(withHeaders({ "x-fal-webhook-user-id": "someone-else" }))).rejects.toBeInstanceOf(CallbackRejectedError);

    const { privateKey: foreignKey } = generateKeyPairSync("ed25519");
    const timestamp = webhook.headers.get("x-fal-webhook-timestamp") ?? "";
    const message = [submitted.predictionId, fake.userId, timestamp, sha256Hex(webhook.rawBody)].join("\n");
    const foreign = sign(null, Buffer.from(message), foreignKey).toString("hex");
    await expect(parse(withHeaders({ "x-fal-webhook-signature": foreign }))).rejects.toThrow(/does not verify/);

    // Correctly signed by fal's key, but sent 6 minutes ago (or 6 minutes ahead).
    for (const offset of [-360, 360]) {
      const stale = String(Math.floor(Date.now() / 1000) + offset);
      const headers = withHeaders({
        "x-fal-webhook-timestamp": stale,
        "x-fal-webhook-signature": fake.signWebhook(submitted.predictionId, stale, webhook.rawBody),
      });
      await expect(parse(headers)).rejects.toThrow(/5 minutes/);
    }
    await expect(parse(new Headers())).rejects.toBeInstanceOf(CallbackRejectedError);

    // The control: the untouched delivery passes.
    await expect(parse(webhook.headers)).resolves.toMatchObject({ result: { status: "succeeded" } });
  });

  it("fails loudly, not as a rejection, when fal's keys cannot be fetched (so fal retries the webhook)", async () => {
    const submitted = await adapter.submit(schnell({ callbackUrl: receiver.url }));
    const webhook = await webhookFor(submitted.predictionId);
    const noKeys = makeAdapter({ jwksUrl: `${fake.baseUrl}/missing-jwks.json` });
    const error = await noKeys.parseCallback!({ headers: webhook.headers, rawBody: webhook.rawBody }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).not.toBeInstanceOf(CallbackRejectedError);
  });
});

describe("error mapping", () => {
  it.each([
    ["rate_limit", "ERR4002", true, "HTTP 429 retry_after=1"],
    ["server_error", "ERR4002", true, "HTTP 500 internal_error"],
    ["unauthorized", "ERR4002", true, "HTTP 401"],
    ["content_policy", "ERR4005", false, "HTTP 422 content_policy_violation"],
  ] as const)("%s on submit → %s (failover %s)", async (fail, code, failover, detail) => {
    fake.script({ fail });
    const error = await providerErrorOf(adapter.submit(schnell()));
    expect(error.code).toBe(code);
    expect(error.failover).toBe(failover);
    expect(error.provider).toBe("fal");
    expect(error.providerDetail).toBe(detail);
    expect(error.message).not.toContain(fake.key);
  });

  it("a request that fails on fal is ERR4002, by poll and by webhook", async () => {
    fake.script({ fail: "prediction_failed" });
    const job = schnell({ callbackUrl: receiver.url });
    const submitted = await adapter.submit(job);
    const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
    expect(result).toMatchObject({ status: "failed", error: { code: "ERR4002", providerDetail: "HTTP 500 runner_server_error" } });

    const webhook = await webhookFor(submitted.predictionId);
    const parsed = await adapter.parseCallback!({ headers: webhook.headers, rawBody: webhook.rawBody });
    expect(parsed.result).toMatchObject({ status: "failed", error: { code: "ERR4002" } });
  });

  it("a request rejected by fal's content checker is ERR4005, by poll and by webhook", async () => {
    fake.script({ fail: "prediction_failed", errorText: "NSFW content detected in the output." });
    const job = schnell({ callbackUrl: receiver.url });
    const submitted = await adapter.submit(job);
    const { result } = await pollUntilSettled(adapter, submitted.predictionId, job);
    expect(result).toMatchObject({ status: "failed", error: { code: "ERR4005", providerDetail: "HTTP 422 content_policy_violation" } });

    const webhook = await webhookFor(submitted.predictionId);
    const parsed = await adapter.parseCallback!({ headers: webhook.headers, rawBody: webhook.rawBody });
    expect(parsed.result).toMatchObject({ status: "failed", error: { code: "ERR4005" } });
  });

  it("a rate limit while reading the result is the call's failure (thrown), not the job's", async () => {
    const job = schnell();
    const submitted = await adapter.submit(job);
    await pollUntilSettled(adapter, submitted.predictionId, job);
    fake.script({ fail: "rate_limit" });
    expect(await providerErrorOf(adapter.poll(submitted.predictionId, job))).toMatchObject({
      code: "ERR4002",
      providerDetail: "HTTP 429 retry_after=1",
    });
  });

  it("a refused connection is ERR4002; no answer in time is ERR4001, on submit and on poll", async () => {
    const closed = await startFalFake();
    await closed.close();
    expect(await providerErrorOf(makeAdapter({ baseUrl: closed.baseUrl }).submit(schnell()))).toMatchObject({
      code: "ERR4002",
      providerDetail: "ECONNREFUSED",
    });

    const job = schnell();
    const submitted = await adapter.submit(job);
    fake.script({ responseDelayMs: 400 });
    const impatient = makeAdapter({ timeoutMs: 100 });
    expect(await providerErrorOf(impatient.submit(job))).toMatchObject({ code: "ERR4001", providerDetail: "timeout 100ms" });
    expect(await providerErrorOf(impatient.poll(submitted.predictionId, job))).toMatchObject({ code: "ERR4001" });
  });
});

describe("cancel", () => {
  it("PUTs the cancel under the request's app; the request then reads as canceled", async () => {
    fake.script({ delayMs: 5_000 });
    const job = schnell();
    const submitted = await adapter.submit(job);

    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(true);
    const cancels = apiRequests().filter((request) => request.method === "PUT");
    expect(cancels.map((request) => request.path)).toEqual([`/fal-ai/flux/requests/${submitted.predictionId}/cancel`]);
    expect(cancels[0]?.headers.authorization).toBe(`Key ${fake.key}`);
    await expect(adapter.poll(submitted.predictionId, job)).resolves.toEqual({ status: "canceled" });
  });

  it("finds the app among the catalog's fal models when this process never saw the request", async () => {
    fake.script({ delayMs: 5_000 });
    const submitted = await adapter.submit(providerJob("google/veo-3", "fal"));
    const freshProcess = makeAdapter();
    await expect(freshProcess.cancel(submitted.predictionId)).resolves.toBe(true);
    const cancels = apiRequests()
      .filter((request) => request.method === "PUT")
      .map((request) => request.path);
    expect(cancels.at(-1)).toBe(`/fal-ai/veo3/requests/${submitted.predictionId}/cancel`);
  });

  it("is false, never a throw, once completed, for an unknown request, or when fal errs", async () => {
    const job = schnell();
    const submitted = await adapter.submit(job);
    await pollUntilSettled(adapter, submitted.predictionId, job);
    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(false);
    await expect(adapter.cancel("00000000-0000-4000-8000-000000000000")).resolves.toBe(false);
    fake.script({ fail: "server_error" });
    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(false);
  });
});

describe("configuration", () => {
  it("is configured by FAL_KEY, with fal's queue and JWKS as defaults", () => {
    expect(falFromEnv({ ...env(), FAL_KEY: undefined })).toBeNull();
    expect(falFromEnv({ ...env(), FAL_KEY: "id:secret" })).toMatchObject({
      token: "id:secret",
      baseUrl: process.env.FAL_QUEUE_BASE_URL ?? "https://queue.fal.run",
      jwksUrl: process.env.FAL_JWKS_URL ?? "https://rest.alpha.fal.ai/.well-known/jwks.json",
    });
  });
});

function sha256Hex(text: string) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
