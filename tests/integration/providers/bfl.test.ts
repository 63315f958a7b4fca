import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { bflFromEnv, createBflAdapter } from "@/server/providers/bfl";
import { CallbackRejectedError } from "@/server/providers/http-errors";
import type { ProviderAdapter } from "@/server/providers/types";
import { startBflFake, type BflFake } from "@/tests/fakes/bfl-fake";
import { pollUntilSettled, providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { providerJob } from "@/tests/fakes/provider-job";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";

// The Black Forest Labs adapter against a local fake written from BFL's OpenAPI document and
// webhook guide: submit, poll at the polling_url, moderation, errors, signed webhooks. Real HTTP.

const WEBHOOK_SECRET = "bfl-webhook-secret-for-tests";

let fake: BflFake;
let receiver: WebhookReceiver;
let adapter: ProviderAdapter;

beforeAll(async () => {
  fake = await startBflFake();
  receiver = await startWebhookReceiver();
  adapter = createBflAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, webhookSecret: WEBHOOK_SECRET, timeoutMs: 2_000 });
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
});

beforeEach(() => fake.reset());

const pro = (overrides = {}) => providerJob("black-forest-labs/flux-1.1-pro", "bfl", overrides);
const kontext = (overrides = {}) => providerJob("black-forest-labs/flux-kontext-pro", "bfl", overrides);
const pollOnly = () => createBflAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, timeoutMs: 2_000 });
const webhookFor = (taskId: string) => receiver.next((webhook) => webhook.rawBody.includes(`"id":"${taskId}"`));

async function settle(job = pro(), client = adapter) {
  const submitted = await client.submit(job);
  return { submitted, ...(await pollUntilSettled(client, submitted.predictionId, job)) };
}

describe("submit: the request BFL receives", () => {
  it("posts FLUX1.1 [pro] to /v1/flux-pro-1.1 with x-key, pixels from the ratio, jpeg, seed and the webhook", async () => {
    const job = pro({ ratio: "16:9", outputFormat: "jpg", callbackUrl: receiver.url });
    expect(await adapter.submit(job)).toMatchObject({ kind: "accepted", predictionId: expect.any(String) });
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/flux-pro-1.1" });
    expect(request?.headers["x-key"]).toBe(fake.apiKey);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({
      prompt: job.prompt,
      seed: job.seed,
      output_format: "jpeg",
      width: 1344,
      height: 768,
      webhook_url: receiver.url,
      webhook_secret: WEBHOOK_SECRET,
    });
  });

  it("sends Ultra and Kontext an aspect_ratio, Kontext its input images as input_image … input_image_4", async () => {
    await adapter.submit(providerJob("black-forest-labs/flux-1.1-pro-ultra", "bfl", { ratio: "21:9" }));
    await pollOnly().submit(kontext({ ratio: "9:21", inputFiles: ["https://img.example.test/a.png", "https://img.example.test/b.png"] }));
    const [ultra, edit] = fake.requests;
    expect(ultra?.path).toBe("/v1/flux-pro-1.1-ultra");
    expect(ultra?.body).toMatchObject({ aspect_ratio: "21:9", output_format: "jpeg" });
    expect(ultra?.body).not.toHaveProperty("width");
    expect(edit?.path).toBe("/v1/flux-kontext-pro");
    expect(edit?.body).toEqual({
      prompt: expect.any(String),
      seed: 1_234_567,
      output_format: "png",
      aspect_ratio: "9:21",
      input_image: "https://img.example.test/a.png",
      input_image_2: "https://img.example.test/b.png",
    });
  });

  it.each(["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"])("every FLUX1.1 [pro] ratio (%s) is a size BFL accepts", async (ratio) => {
    const { result } = await settle(pro({ ratio }));
    expect(result.status).toBe("succeeded");
  });

  it("posts FLUX.1 [dev] to /v1/flux-dev as FluxDevInputs: pixels from the ratio, no aspect_ratio, and it runs to Ready", async () => {
    const job = providerJob("black-forest-labs/flux-dev", "bfl", { ratio: "2:3", outputFormat: "jpg" });
    const { result } = await settle(job, pollOnly());
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/flux-dev" });
    expect(request?.body).toEqual({ prompt: job.prompt, seed: job.seed, output_format: "jpeg", width: 832, height: 1216 });
    expect(result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url", contentType: "image/jpeg" }] });
  });
});

describe("results", () => {
  it("succeeds by polling at the polling_url: Pending, then the sample URL (downloadable) and the duration", async () => {
    fake.script({ delayMs: 200 });
    const { submitted, result, seen } = await settle(pro(), pollOnly());
    expect(seen[0]).toBe("running");
    expect(result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url", contentType: "image/png" }] });
    if (result.status !== "succeeded") return;
    expect(result.predictTimeSeconds).toBeCloseTo(0.2, 1);
    const output = result.outputs[0];
    const download = await fetch(output?.kind === "url" ? output.url : "");
    expect(download.headers.get("content-type")).toBe("image/png");
    const gets = fake.requests.filter((request) => request.method === "GET");
    expect(gets.length).toBeGreaterThan(1);
    expect(gets.every((request) => request.path === "/v1/get_result" && request.query.get("id") === submitted.predictionId)).toBe(true);
    expect(gets.every((request) => request.headers["x-key"] === fake.apiKey)).toBe(true);
  });

  it("succeeds by callback: the signed webhook parses to the task's result", async () => {
    const submitted = await adapter.submit(pro({ callbackUrl: receiver.url }));
    const webhook = await webhookFor(submitted.predictionId);
    expect(webhook.headers.get("x-bfl-signature")).toMatch(/^sha256=[0-9a-f]{64}$/);
    const parsed = await adapter.parseCallback!({ headers: webhook.headers, rawBody: webhook.rawBody });
    expect(parsed).toMatchObject({ predictionId: submitted.predictionId, result: { status: "succeeded", outputs: [{ kind: "url" }] } });
  });

  it("refuses a webhook with a tampered body, a forged or malformed signature, or none", async () => {
    const submitted = await adapter.submit(pro({ callbackUrl: receiver.url }));
    const webhook = await webhookFor(submitted.predictionId);
    const parse = (headers: Headers, rawBody: string) => adapter.parseCallback!({ headers, rawBody });

    await expect(parse(webhook.headers, webhook.rawBody.replace('"Ready"', '"Error"'))).rejects.toBeInstanceOf(CallbackRejectedError);
    const signedBy = (secret: string) =>
      new Headers({ "x-bfl-signature": `sha256=${createHmac("sha256", secret).update(webhook.rawBody).digest("hex")}` });
    await expect(parse(signedBy("another secret"), webhook.rawBody)).rejects.toThrow(/does not match/);
    await expect(parse(new Headers({ "x-bfl-signature": "deadbeef" }), webhook.rawBody)).rejects.toThrow(/sha256=/);
    await expect(parse(new Headers(), webhook.rawBody)).rejects.toThrow(/missing/);
    // The control: the same body signed with our secret passes.
    await expect(parse(signedBy(WEBHOOK_SECRET), webhook.rawBody)).resolves.toMatchObject({ result: { status: "succeeded" } });
  });

  it("follows a polling_url only on the configured origin: one elsewhere never receives the key", async () => {
    const client = pollOnly();
    fake.script({ pollingOrigin: new URL(receiver.url).origin });
    const job = pro();
    const submitted = await client.submit(job);
    fake.script({});
    expect((await pollUntilSettled(client, submitted.predictionId, job)).result.status).toBe("succeeded");
    expect(receiver.received.filter((webhook) => webhook.headers.get("x-key") !== null)).toEqual([]);
    expect(
      fake.requests.filter((request) => request.method === "GET").every((request) => request.query.get("id") === submitted.predictionId),
    ).toBe(true);
  });

  it("asks for no webhook and offers no parseCallback without a webhook secret; the answer then has a polling_url", async () => {
    const client = pollOnly();
    expect(client.parseCallback).toBeUndefined();
    await client.submit(pro());
    expect(fake.requests[0]?.body).not.toHaveProperty("webhook_url");
    expect(fake.requests[0]?.body).not.toHaveProperty("webhook_secret");
  });
});

describe("error mapping", () => {
  it.each([
    ["rate_limit", "ERR4002", "HTTP 429 retry_after=1"],
    ["insufficient_credits", "ERR4002", "HTTP 402"],
    ["server_error", "ERR4002", "HTTP 500"],
    ["unauthorized", "ERR4002", "HTTP 403"],
  ] as const)("%s on submit → %s, failing over", async (fail, code, detail) => {
    fake.script({ fail });
    const error = await providerErrorOf(adapter.submit(pro()));
    expect(error).toMatchObject({ provider: "bfl", code, providerDetail: detail });
    expect(error.failover).toBe(true);
    expect(error.message).not.toContain(fake.apiKey);
  });

  it("a wrong key is ERR4002 (our credentials), and the message does not echo it", async () => {
    const wrongKey = createBflAdapter({ apiKey: "bfl_wrong", baseUrl: fake.baseUrl, timeoutMs: 2_000 });
    const error = await providerErrorOf(wrongKey.submit(pro()));
    expect(error).toMatchObject({ code: "ERR4002", providerDetail: "HTTP 403", message: "bfl: the provider refused our credentials" });
  });

  it("an input BFL's schema refuses (422 HTTPValidationError) is ERR4005, final", async () => {
    const error = await providerErrorOf(adapter.submit(pro({ ratio: "5:4", outputFormat: "webp" })));
    expect(error).toMatchObject({ code: "ERR4005", providerDetail: "HTTP 422 enum", message: "bfl: Input should be 'jpeg' or 'png'" });
    expect(error.failover).toBe(false);
  });

  it.each([
    ["[bfl:request-moderated]", "bfl: the request was refused by moderation", "status Request Moderated (Derivative Works Filter)"],
    ["[bfl:content-moderated]", "bfl: the output was refused by moderation", "status Content Moderated (NSFW)"],
  ])("a task %s is ERR4005, final, by poll and by callback", async (marker, message, detail) => {
    const job = pro({ prompt: `a lighthouse ${marker}`, callbackUrl: receiver.url });
    const { submitted, result } = await settle(job);
    expect(result).toMatchObject({ status: "failed", error: { code: "ERR4005", message, providerDetail: detail } });
    if (result.status === "failed") expect(result.error.failover).toBe(false);
    const webhook = await webhookFor(submitted.predictionId);
    const parsed = await adapter.parseCallback!({ headers: webhook.headers, rawBody: webhook.rawBody });
    expect(parsed.result).toMatchObject({ status: "failed", error: { code: "ERR4005" } });
  });

  it("a task that ends in Error is ERR4002 (fail over), or ERR4005 when BFL names a policy", async () => {
    fake.script({ fail: "prediction_failed" });
    const { result } = await settle();
    expect(result).toMatchObject({
      status: "failed",
      error: { code: "ERR4002", providerDetail: "status Error", message: expect.stringContaining("internal error") },
    });
    fake.script({ fail: "prediction_failed", errorText: "The prompt violated the content policy" });
    expect((await settle()).result).toMatchObject({ status: "failed", error: { code: "ERR4005" } });
  });

  it("an unknown task fails the attempt with ERR4002 (Task not found), without asking again", async () => {
    await expect(adapter.poll("00000000-0000-0000-0000-000000000000", pro())).resolves.toMatchObject({
      status: "failed",
      error: { provider: "bfl", code: "ERR4002", providerDetail: "status Task not found" },
    });
  });

  it("a poll answered 429, 5xx or 403 throws (the run asks again); the task itself is untouched", async () => {
    const job = pro();
    const submitted = await adapter.submit(job);
    for (const fail of ["rate_limit", "server_error", "unauthorized"] as const) {
      fake.script({ fail });
      expect(await providerErrorOf(adapter.poll(submitted.predictionId, job))).toMatchObject({ provider: "bfl", code: "ERR4002" });
    }
    fake.script({});
    expect((await pollUntilSettled(adapter, submitted.predictionId, job)).result.status).toBe("succeeded");
  });

  it("an answer in no published shape fails the attempt with a provider error naming bfl, never a crash", async () => {
    const job = pro({ prompt: "a lighthouse [bfl:garbled]" });
    const submitted = await adapter.submit(job);
    await expect(adapter.poll(submitted.predictionId, job)).resolves.toMatchObject({
      status: "failed",
      error: { provider: "bfl", code: "ERR4002", message: "bfl: the result answer is not a task result" },
    });
    fake.script({ fail: "server_error" });
    expect(await providerErrorOf(adapter.submit(job))).toMatchObject({ provider: "bfl", code: "ERR4002" });
    fake.script({});
    const parse = (rawBody: string) =>
      adapter.parseCallback!({
        headers: new Headers({ "x-bfl-signature": `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(rawBody).digest("hex")}` }),
        rawBody,
      });
    await expect(parse('{"id":"x","status":"Processing"}')).rejects.toBeInstanceOf(CallbackRejectedError);
    await expect(parse('{"id":"x","status":"Ready","result":{}}')).resolves.toMatchObject({
      result: { status: "failed", error: { provider: "bfl", code: "ERR4002" } },
    });
  });

  it("a refused connection is ERR4002; an answer too slow is ERR4001, on submit and on poll", async () => {
    const closed = await startBflFake();
    await closed.close();
    const unreachable = createBflAdapter({ apiKey: "k", baseUrl: closed.baseUrl, timeoutMs: 2_000 });
    expect(await providerErrorOf(unreachable.submit(pro()))).toMatchObject({ code: "ERR4002", providerDetail: "ECONNREFUSED" });

    const submitted = await adapter.submit(pro());
    fake.script({ responseDelayMs: 400 });
    const impatient = createBflAdapter({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, timeoutMs: 100 });
    expect(await providerErrorOf(impatient.submit(pro()))).toMatchObject({ code: "ERR4001", providerDetail: "timeout 100ms" });
    expect(await providerErrorOf(impatient.poll(submitted.predictionId, pro()))).toMatchObject({ code: "ERR4001" });
  });
});

describe("outputs", () => {
  it("passes an oversized sample on as a URL, for the capped download to refuse (tests/http/providers/bfl.test.ts)", async () => {
    const { result } = await settle(pro({ prompt: "a lighthouse [bfl:output-oversized]" }));
    expect(result).toMatchObject({ status: "succeeded", outputs: [{ kind: "url", url: expect.stringContaining("/files/") }] });
  });
});

describe("cancel", () => {
  it("is false, never a throw: BFL has no cancel endpoint, and nothing is sent", async () => {
    const submitted = await adapter.submit(pro());
    const before = fake.requests.length;
    await expect(adapter.cancel(submitted.predictionId)).resolves.toBe(false);
    await expect(adapter.cancel("unknown")).resolves.toBe(false);
    expect(fake.requests).toHaveLength(before);
  });
});

describe("configuration", () => {
  it("is configured by BFL_API_KEY, with the public API root as the default base URL", () => {
    expect(bflFromEnv({ ...env(), BFL_API_KEY: undefined })).toBeNull();
    expect(bflFromEnv({ ...env(), BFL_API_KEY: "k", BFL_WEBHOOK_SECRET: "s" })).toMatchObject({
      apiKey: "k",
      webhookSecret: "s",
      baseUrl: process.env.BFL_BASE_URL ?? "https://api.bfl.ai",
    });
  });
});
