import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { db } from "@/server/base/db";
import { accountWithKey } from "@/tests/support/fixtures";
import { getProviderHealth } from "@/server/edge/http/operations/health";
import { callOperation, expectSuccess } from "@/tests/support/http";
import { cancel, createImage, createVideo, ledgerOf, waitForStatus } from "@/tests/support/generations";
import { startSecondInstance } from "@/tests/support/second-instance";

// BytePlus ModelArk through the real /v1 API: the test app talks to the ModelArk fake that
// scripts/test.ts starts (tests/fakes/byteplus-fake.ts); `[byteplus:…]` prompt markers steer it.

const IMAGE = "bytedance/seedream-4";
const VIDEO = "bytedance/seedance-1-pro";

function attemptsOf(generationId: string) {
  return db.providerAttempt.findMany({
    where: { generationId },
    orderBy: { attemptNumber: "asc" },
    select: { provider: true, outcome: true, errorCode: true, errorMessage: true },
  });
}

const kinds = async (generationId: string) => (await ledgerOf(generationId)).map((entry) => entry.split(":")[0]).sort();

describe("a BytePlus ModelArk generation end to end", () => {
  it("a Seedream image succeeds: the base64 picture is stored and served, the credits charged", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "a paper crane on a desk", generation_provider_order: "byteplus", generation_ratio: "16:9" },
        {},
        IMAGE,
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "byteplus" });
    const file = await fetch(record.generation_output_file[0]!);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe("jpeg");
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "byteplus", outcome: "succeeded", errorCode: null, errorMessage: null },
    ]);
    expect(await kinds(data.generation_id)).toEqual(["charge", "reserve"]);
  });

  it("a Seedance video task succeeds as one MP4", async () => {
    const { key } = await accountWithKey();
    const body = {
      generation_prompt: "waves on a pier",
      generation_provider_order: "byteplus",
      generation_duration: 5,
      generation_resolution: "480p",
    };
    const data = expectSuccess(await createVideo(key, body, {}, VIDEO), 202);
    const record = await waitForStatus(key, data.generation_id, undefined, 60_000);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "byteplus" });
    expect(record.generation_prediction_id).toMatch(/^cgt-/);
    expect((await fetch(record.generation_output_file[0]!)).headers.get("content-type")).toBe("video/mp4");
  });

  it("fails over to Replicate's Seedream when ModelArk rate-limits (429)", async () => {
    const { key } = await accountWithKey();
    const body = { generation_prompt: "a paper crane [byteplus:rate_limit]", generation_provider_order: "byteplus,replicate" };
    const data = expectSuccess(await createImage(key, body, {}, IMAGE), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    const attempts = await attemptsOf(data.generation_id);
    expect(attempts.map((attempt) => [attempt.provider, attempt.outcome, attempt.errorCode])).toEqual([
      ["byteplus", "failed", "ERR4002"],
      ["replicate", "succeeded", null],
    ]);
    expect(attempts[0]?.errorMessage).toMatch(/^byteplus: The request has exceeded the rate limit/);
  });

  it.each([
    ["an answer not understood", "[byteplus:garbled]", "ERR4002", "byteplus: the answer was not understood (no data[] of images)"],
    ["an oversized answer", "[byteplus:oversized]", "ERR4003", "byteplus: the answer is larger than the 50331648 bytes allowed"],
  ])("%s fails that attempt with a provider error naming byteplus, and the chain moves on", async (_label, marker, code, message) => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(key, { generation_prompt: `a crane ${marker}`, generation_provider_order: "byteplus,replicate" }, {}, IMAGE),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect((await attemptsOf(data.generation_id))[0]).toEqual({
      provider: "byteplus",
      outcome: "failed",
      errorCode: code,
      errorMessage: message,
    });
  });

  it("a moderated prompt fails the generation at once, without failover, and refunds", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "a crane [byteplus:moderated]", generation_provider_order: "byteplus,replicate" },
        {},
        IMAGE,
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_output_file: [] });
    const attempts = await attemptsOf(data.generation_id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ provider: "byteplus", outcome: "failed", errorCode: "ERR4005" });
    expect(await kinds(data.generation_id)).toEqual(["refund", "reserve"]);
  });

  it("a queued Seedance task is canceled: DELETE reaches ModelArk, the generation is canceled and refunded", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createVideo(
        key,
        { generation_prompt: "a slow tide [byteplus:slow]", generation_provider_order: "byteplus", generation_duration: 5 },
        {},
        VIDEO,
      ),
      202,
    );
    await waitForStatus(key, data.generation_id, ["processing"]);
    await expect
      .poll(async () => (await db.generation.findUnique({ where: { id: data.generation_id } }))?.predictionId ?? "", { timeout: 10_000 })
      .toMatch(/^cgt-/);
    const canceled = expectSuccess(await cancel(key, data.generation_id));
    expect(canceled).toMatchObject({ generation_status: "canceled", provider_cancel_sent: true, credits_refunded: true });
    expect(await kinds(data.generation_id)).toEqual(["refund", "reserve"]);
  });
});

describe("the health row and configuration", () => {
  it("lists byteplus in /v1/health/inference/providers with its attempts counted", async () => {
    const { key } = await accountWithKey();
    const health = expectSuccess(await callOperation(getProviderHealth, { key }));
    const row = health.providers.find((entry) => entry.provider === "byteplus");
    expect(row?.window.total_attempts).toBeGreaterThan(0);
  });

  it("a deployment without ARK_API_KEY lists byteplus not_configured in the library", async () => {
    const { key } = await accountWithKey();
    const instance = await startSecondInstance({ ARK_API_KEY: "" });
    try {
      const response = await fetch(`${instance.baseUrl}/v1/library/providers`, { headers: { authorization: `Bearer ${key}` } });
      const library = ((await response.json()) as { data: { providers: Array<{ provider_id: string; provider_status: string }> } }).data;
      expect(library.providers.find((provider) => provider.provider_id === "byteplus")?.provider_status).toBe("not_configured");
    } finally {
      await instance.stop();
    }
  });
});
