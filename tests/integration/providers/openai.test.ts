import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/server/env";
import { createOpenAIAdapter, openaiFromEnv } from "@/server/providers/openai";
import type { ProviderAdapter } from "@/server/providers/types";
import { providerErrorOf } from "@/tests/fakes/expect-provider-error";
import { startOpenAIFake, type OpenAIFake } from "@/tests/fakes/openai-fake";
import { providerJob } from "@/tests/fakes/provider-job";

// The OpenAI Images adapter against a local fake of the Images API. Synchronous: the answer of
// submit is the finished result. Real HTTP, no mocks.

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

describe("submit", () => {
  it("posts images/generations with the model, size from the ratio, medium quality and Bearer auth", async () => {
    const job = gptImage({ ratio: "3:2", outputFormat: "jpg", outputCount: 2 });
    await adapter.submit(job);
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/images/generations");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(request?.body).toEqual({ model: "gpt-image-1", prompt: job.prompt, n: 2, size: "1536x1024", quality: "medium", output_format: "jpeg" });
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

describe("configuration", () => {
  it("is configured by OPENAI_API_KEY, with the published API as the default base URL", () => {
    expect(openaiFromEnv({ ...env(), OPENAI_API_KEY: undefined })).toBeNull();
    expect(openaiFromEnv({ ...env(), OPENAI_API_KEY: "sk-x" })).toEqual({ token: "sk-x", baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com" });
  });
});
