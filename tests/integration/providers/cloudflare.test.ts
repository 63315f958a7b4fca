import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/server/base/env";
import { createCloudflareAdapter } from "@/server/providers/cloudflare";
import { cloudflareFromEnv } from "@/server/providers/cloudflare";
import { cloudflarePredictionId } from "@/server/providers/cloudflare/cloudflare-adapter";
import type { ProviderAdapter } from "@/server/providers/types";
import { startCloudflareFake, type CloudflareFake } from "@/tests/fakes/cloudflare-fake";
import { providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { providerJob } from "@/tests/fakes/provider-job";

// The Workers AI adapter against a local fake of the published REST API. Synchronous: the answer
// of submit is the finished result; a cancel aborts the call in flight. Real HTTP, no mocks.

let fake: CloudflareFake;
let adapter: ProviderAdapter;

beforeAll(async () => {
  fake = await startCloudflareFake();
  adapter = createCloudflareAdapter({ token: fake.token, accountId: fake.accountId, baseUrl: fake.apiBaseUrl, timeoutMs: 2_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => fake.reset());

const flux = (overrides = {}) => providerJob("cloudflare/flux-1-schnell", "cloudflare", overrides);

describe("submit", () => {
  it("posts the published input to /accounts/{account}/ai/run/{model} with Bearer auth", async () => {
    const job = flux();
    await adapter.submit(job);
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe(`/client/v4/accounts/${fake.accountId}/ai/run/@cf/black-forest-labs/flux-1-schnell`);
    expect(request?.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(request?.body).toEqual({ prompt: job.prompt, steps: 4, seed: job.seed });
  });

  it.each([
    ["1:1", 1024, 1024],
    ["16:9", 1280, 720],
    ["2:3", 832, 1248],
  ])("sends Lucid Origin its published input, ratio %s as %i×%i", async (ratio, width, height) => {
    const job = providerJob("leonardo/lucid-origin", "cloudflare", { ratio });
    await expect(adapter.submit(job)).resolves.toMatchObject({ kind: "completed", result: { status: "succeeded" } });
    expect(fake.requests[0]?.path).toBe(`/client/v4/accounts/${fake.accountId}/ai/run/@cf/leonardo/lucid-origin`);
    expect(fake.requests[0]?.body).toEqual({ prompt: job.prompt, width, height, num_steps: 4, seed: job.seed });
  });

  it("answers completed with the decoded JPEG as bytes, under the id named up front", async () => {
    const job = flux();
    const submitted = await adapter.submit(job);
    expect(submitted).toMatchObject({
      kind: "completed",
      predictionId: adapter.predictionIdFor?.(job),
      result: { status: "succeeded", predictTimeSeconds: null },
    });
    if (submitted.kind !== "completed" || submitted.result.status !== "succeeded") return;
    const [output] = submitted.result.outputs;
    expect(output).toMatchObject({ kind: "bytes", contentType: "image/jpeg" });
    if (output?.kind === "bytes") expect([...output.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it("makes one call per output, with successive seeds", async () => {
    const job = flux({ outputCount: 3 });
    const submitted = await adapter.submit(job);
    expect(submitted.kind === "completed" && submitted.result.status === "succeeded" ? submitted.result.outputs : []).toHaveLength(3);
    expect(fake.requests.map((request) => (request.body as { seed: number }).seed)).toEqual([job.seed, job.seed + 1, job.seed + 2]);
  });

  it("names a prediction per generation and attempt, the same for a retried step", () => {
    const job = flux();
    expect(cloudflarePredictionId(job)).toBe(cloudflarePredictionId({ ...job }));
    expect(cloudflarePredictionId({ ...job, attempt: 2 })).not.toBe(cloudflarePredictionId(job));
  });

  it("has nothing to poll or call back", async () => {
    expect(adapter.parseCallback).toBeUndefined();
    expect(await providerErrorOf(adapter.poll("cloudflare-1", flux()))).toMatchObject({ code: "ERR4002", provider: "cloudflare" });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("cancel", () => {
  it("aborts the call in flight: the submit answers canceled and the fake sees its client leave", async () => {
    fake.script({ delayMs: 1_500 });
    const job = flux();
    const submitting = adapter.submit(job);
    await expect.poll(() => fake.requests.length).toBe(1);
    await expect(adapter.cancel(cloudflarePredictionId(job))).resolves.toBe(true);
    await expect(submitting).resolves.toMatchObject({ kind: "completed", result: { status: "canceled" } });
    await expect.poll(() => fake.abandoned.length).toBe(1);
  });

  it("a prediction not in flight is not canceled", async () => {
    await expect(adapter.cancel("cloudflare-unknown")).resolves.toBe(false);
  });
});

describe("error mapping", () => {
  it.each([
    ["rate_limit", "ERR4002", true, "HTTP 429 3040"],
    ["daily_limit", "ERR4002", true, "HTTP 429 3036"],
    ["server_error", "ERR4002", true, "HTTP 500 3043"],
    ["unauthorized", "ERR4002", true, "HTTP 401 10000"],
    ["account_blocked", "ERR4002", true, "HTTP 403 3023"],
    ["timeout", "ERR4001", true, "HTTP 408 3007"],
    ["content_policy", "ERR4005", false, "HTTP 400 3030"],
  ] as const)("%s → %s (failover %s)", async (fail, code, failover, detail) => {
    fake.script({ fail });
    const error = await providerErrorOf(adapter.submit(flux()));
    expect(error).toMatchObject({ code, failover, provider: "cloudflare", providerDetail: detail });
    expect(error.message).toMatch(/^cloudflare: /);
    expect(error.message).not.toContain(fake.token);
  });

  it("the NSFW refusal keeps Cloudflare's words; a refused token does not", async () => {
    fake.script({ fail: "content_policy" });
    expect((await providerErrorOf(adapter.submit(flux()))).message).toBe("cloudflare: AiError: Input prompt contains NSFW content.");
    fake.script({ fail: "unauthorized" });
    expect((await providerErrorOf(adapter.submit(flux()))).message).toBe("cloudflare: the provider refused our credentials");
  });

  it("an unknown model (5007) and an input the schema refuses (5006) are ERR4005", async () => {
    expect(await providerErrorOf(adapter.submit(flux({ providerModelId: "@cf/nobody/nothing" })))).toMatchObject({
      code: "ERR4005",
      providerDetail: "HTTP 400 5007",
    });
    expect(await providerErrorOf(adapter.submit(flux({ prompt: "x".repeat(2049) })))).toMatchObject({
      code: "ERR4005",
      providerDetail: "HTTP 400 5006",
    });
  });

  it.each([
    ["malformed", "no result.image"],
    ["not_an_image", "result.image is not a JPEG, PNG or WebP picture"],
  ] as const)("an answer not understood (%s) fails the attempt with ERR4002 naming cloudflare", async (fail, what) => {
    fake.script({ fail });
    const error = await providerErrorOf(adapter.submit(flux()));
    expect(error).toMatchObject({
      code: "ERR4002",
      provider: "cloudflare",
      message: `cloudflare: the answer was not understood (${what})`,
      providerDetail: "HTTP 200 unexpected body",
    });
  });

  it("an oversized answer fails the attempt with ERR4003", async () => {
    fake.script({ fail: "oversized" });
    expect(await providerErrorOf(adapter.submit(flux()))).toMatchObject({
      code: "ERR4003",
      provider: "cloudflare",
      providerDetail: "too_large",
    });
    const strict = createCloudflareAdapter({ token: fake.token, accountId: fake.accountId, baseUrl: fake.apiBaseUrl, maxAnswerBytes: 64 });
    fake.script({});
    expect(await providerErrorOf(strict.submit(flux()))).toMatchObject({ code: "ERR4003", providerDetail: "too_large" });
  });

  it("a refused connection is ERR4002; no answer within the timeout is ERR4001", async () => {
    const closed = await startCloudflareFake();
    await closed.close();
    const unreachable = createCloudflareAdapter({ token: "t", accountId: "a", baseUrl: closed.apiBaseUrl, timeoutMs: 2_000 });
    expect(await providerErrorOf(unreachable.submit(flux()))).toMatchObject({ code: "ERR4002", providerDetail: "ECONNREFUSED" });

    fake.script({ delayMs: 400 });
    const impatient = createCloudflareAdapter({ token: fake.token, accountId: fake.accountId, baseUrl: fake.apiBaseUrl, timeoutMs: 100 });
    expect(await providerErrorOf(impatient.submit(flux()))).toMatchObject({
      code: "ERR4001",
      providerDetail: "timeout 100ms",
      failover: true,
    });
  });
});

describe("configuration", () => {
  it("needs both CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID, with the public v4 root as the default base URL", () => {
    const unset = { ...env(), CLOUDFLARE_API_TOKEN: undefined, CLOUDFLARE_ACCOUNT_ID: undefined };
    expect(cloudflareFromEnv(unset)).toBeNull();
    expect(cloudflareFromEnv({ ...unset, CLOUDFLARE_API_TOKEN: "t" })).toBeNull();
    expect(cloudflareFromEnv({ ...unset, CLOUDFLARE_ACCOUNT_ID: "a" })).toBeNull();
    expect(cloudflareFromEnv({ ...unset, CLOUDFLARE_API_TOKEN: "t", CLOUDFLARE_ACCOUNT_ID: "a" })).toEqual({
      token: "t",
      accountId: "a",
      baseUrl: process.env.CLOUDFLARE_BASE_URL ?? "https://api.cloudflare.com/client/v4",
    });
  });
});
