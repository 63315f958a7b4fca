import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { db } from "@/server/base/db";
import { listProviders } from "@/server/edge/http/operations/catalog";
import { getProviderHealth } from "@/server/edge/http/operations/health";
import { accountWithKey } from "@/tests/support/fixtures";
import { api, callOperation, expectError, expectSuccess } from "@/tests/support/http";
import { cancel, createImage, createVideo, waitForStatus } from "@/tests/support/generations";
import { attemptsOf, expectServedMp4, ledgerTypes, refusedOutputs } from "@/tests/support/provider-runs";

// Alibaba Cloud Model Studio through the real /v1 API: the test app talks to a local DashScope that
// follows its published protocol (scripts/test.ts starts it and sets DASHSCOPE_API_KEY /
// DASHSCOPE_BASE_URL). Prompt markers steer the fake (tests/fakes/alibaba-fake.ts). Replicate,
// configured against its own fake, serves Qwen-Image too, so it is that model's failover.

describe("Alibaba Cloud Model Studio end to end", () => {
  it("a Qwen-Image generation succeeds: task accepted, polled to SUCCEEDED, the PNG stored and served", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "a lighthouse", generation_ratio: "16:9", generation_provider_order: "alibaba" },
        {},
        "qwen/qwen-image",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "alibaba" });
    const file = await fetch(record.generation_output_file[0]!);
    expect(file.status).toBe(200);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe("png");
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "alibaba", outcome: "succeeded", errorCode: null, errorMessage: null },
    ]);
    expect(await ledgerTypes(data.generation_id)).toEqual(["charge", "reserve"]);
  });

  it("a Wan 2.2 video succeeds: its video_url is fetched and stored", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createVideo(
        key,
        { generation_prompt: "waves at dawn", generation_duration: 5, generation_provider_order: "alibaba" },
        {},
        "alibaba/wan-2.2-plus",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id, ["succeeded", "failed", "canceled"], 60_000);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "alibaba" });
    await expectServedMp4(record.generation_output_file[0]!);
  }, 90_000);

  it("a rate limit (429 Throttling.RateQuota) fails over to Replicate, which succeeds", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "a kite [alibaba:rate-limit]", generation_provider_order: "alibaba,replicate" },
        {},
        "qwen/qwen-image",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect(await attemptsOf(data.generation_id)).toEqual([
      {
        provider: "alibaba",
        outcome: "failed",
        errorCode: "ERR4002",
        errorMessage: "alibaba: Requests rate limit exceeded, please try again later.",
      },
      { provider: "replicate", outcome: "succeeded", errorCode: null, errorMessage: null },
    ]);
  });

  it("moderated input (400 DataInspectionFailed) is final: no failover, nothing charged", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "a kite [alibaba:moderated]", generation_provider_order: "alibaba,replicate" },
        {},
        "qwen/qwen-image",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record.generation_status).toBe("failed");
    expect(await attemptsOf(data.generation_id)).toEqual([
      {
        provider: "alibaba",
        outcome: "failed",
        errorCode: "ERR4005",
        errorMessage: "alibaba: Input data may contain inappropriate content.",
      },
    ]);
    expect(await ledgerTypes(data.generation_id)).toEqual(["refund", "reserve"]);
  });

  it.each(refusedOutputs("alibaba"))("%s fails the attempt with ERR4003, and the chain moves on", async (_label, marker, reason) => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: `a kite ${marker}`, generation_provider_order: "alibaba,replicate" },
        {},
        "qwen/qwen-image",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    const [first] = await attemptsOf(data.generation_id);
    expect(first).toMatchObject({
      provider: "alibaba",
      outcome: "failed",
      errorCode: "ERR4003",
      errorMessage: expect.stringContaining(reason),
    });
  });

  it("a video canceled while its task is PENDING is canceled on DashScope too, and refunded", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createVideo(
        key,
        { generation_prompt: "a slow tide [alibaba:slow]", generation_duration: 5, generation_provider_order: "alibaba" },
        {},
        "alibaba/wan-2.2-plus",
      ),
      202,
    );
    await waitForStatus(key, data.generation_id, ["processing"]);
    await expect
      .poll(async () => (await db.providerAttempt.findFirst({ where: { generationId: data.generation_id } }))?.predictionId ?? null, {
        timeout: 20_000,
      })
      .toMatch(/^[0-9a-f-]{36}$/);
    expect(expectSuccess(await cancel(key, data.generation_id))).toMatchObject({
      generation_status: "canceled",
      provider_cancel_sent: true,
    });
    const record = await waitForStatus(key, data.generation_id, ["canceled"]);
    expect(record.generation_output_file).toEqual([]);
    expect(await ledgerTypes(data.generation_id)).toEqual(["refund", "reserve"]);
  }, 60_000);

  it("refuses a callback claiming to be DashScope's: it sends none, so none is taken", async () => {
    const forged = await api("/api/providers/alibaba/callback", {
      method: "POST",
      body: { request_id: "r", output: { task_id: "t", task_status: "SUCCEEDED", video_url: "https://example.test/v.mp4" } },
    });
    expectError(forged, "ERR1006");
  });

  it("is listed active in /v1/library/providers and reported in /v1/health/inference/providers", async () => {
    const { key } = await accountWithKey();
    const { providers } = expectSuccess(await callOperation(listProviders, { key }));
    const alibaba = providers.find((provider) => provider.provider_id === "alibaba");
    expect(alibaba).toMatchObject({ provider_status: "active" });
    expect(alibaba?.darkroom_implementation).toMatchObject({
      delivery_method: "polling",
      supported_models: expect.arrayContaining([
        "qwen/qwen-image",
        "alibaba/wan-2.2-t2i-flash",
        "alibaba/wan-2.2-plus",
        "qwen/qwen-image-edit",
        "alibaba/wan-2.5-preview",
      ]),
    });
    expect(alibaba?.darkroom_implementation.webhook_verification).toMatch(/^none/);
    const health = expectSuccess(await callOperation(getProviderHealth, { key }));
    expect(health.providers.find((entry) => entry.provider === "alibaba")).toMatchObject({ available: true });
  });
});
