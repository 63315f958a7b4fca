import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { addCredits } from "@/server/credits/add-credits";
import { db } from "@/server/base/db";
import { inTransaction } from "@/server/base/transaction";
import { accountWithKey } from "@/tests/support/fixtures";
import { getProviderHealth } from "@/server/edge/http/operations/health";
import { callOperation, expectSuccess } from "@/tests/support/http";
import { cancel, createImage, createVideo, ledgerOf, waitForStatus } from "@/tests/support/generations";
import { startSecondInstance } from "@/tests/support/second-instance";

// Google's Gemini API through the real /v1 API: the test app talks to the Gemini API fake that
// scripts/test.ts starts (tests/fakes/google-fake.ts); `[google:…]` prompt markers steer it. Veo
// operations are polled every 3 s, so those generations take a few seconds.

function attemptsOf(generationId: string) {
  return db.providerAttempt.findMany({
    where: { generationId },
    orderBy: { attemptNumber: "asc" },
    select: { provider: true, outcome: true, errorCode: true, errorMessage: true },
  });
}

/** Veo 3 costs 3.200 credits for its 8 s: an account with the welcome credit and 10 more. */
async function fundedAccount() {
  const account = await accountWithKey();
  await inTransaction((tx) =>
    addCredits(tx, {
      accountId: account.accountId,
      amountMillis: 10_000,
      sourceKey: `google-test:${account.accountId}`,
      description: "test funds",
      actor: "system",
    }),
  );
  return account;
}

const kinds = async (generationId: string) => (await ledgerOf(generationId)).map((entry) => entry.split(":")[0]).sort();

describe("a Gemini API generation end to end", () => {
  it("an Imagen 4 generation succeeds: its base64 pictures are stored and served, the catalog price charged", async () => {
    const { key } = await accountWithKey();
    const body = { generation_prompt: "a lighthouse at dusk", generation_ratio: "16:9", generation_output_number: 2 };
    const data = expectSuccess(await createImage(key, body, {}, "google/imagen-4"), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "google" });
    expect(record.generation_output_file).toHaveLength(2);
    const file = await fetch(record.generation_output_file[0]!);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe("png");
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "google", outcome: "succeeded", errorCode: null, errorMessage: null },
    ]);
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.080", "charge:0.080"]);
  });

  it("a Gemini 2.5 Flash Image generation succeeds", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(key, { generation_prompt: "a paper crane", generation_ratio: "4:5" }, {}, "google/gemini-2.5-flash-image"),
      202,
    );
    expect(await waitForStatus(key, data.generation_id)).toMatchObject({
      generation_status: "succeeded",
      generation_provider_used: "google",
    });
  });

  it("a Veo 3 video succeeds on Google: the operation is polled and its video downloaded", async () => {
    const { key } = await fundedAccount();
    const data = expectSuccess(
      await createVideo(
        key,
        { generation_prompt: "waves on rocks", generation_provider_order: "google", generation_duration: 8 },
        {},
        "google/veo-3",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id, undefined, 60_000);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "google" });
    expect(record.generation_prediction_id).toMatch(/^models\/veo-3\.0-generate-001\/operations\//);
    expect((await fetch(record.generation_output_file[0]!)).headers.get("content-type")).toBe("video/mp4");
  });

  it("Veo 3 fails over to Replicate's copy of the model when Google's quota is used up (429 RESOURCE_EXHAUSTED)", async () => {
    const { key } = await fundedAccount();
    const body = { generation_prompt: "waves [google:rate_limit]", generation_provider_order: "google,replicate", generation_duration: 8 };
    const data = expectSuccess(await createVideo(key, body, {}, "google/veo-3"), 202);
    const record = await waitForStatus(key, data.generation_id, undefined, 60_000);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect(await attemptsOf(data.generation_id)).toEqual([
      {
        provider: "google",
        outcome: "failed",
        errorCode: "ERR4002",
        errorMessage: "google: You exceeded your current quota, please check your plan and billing details.",
      },
      { provider: "replicate", outcome: "succeeded", errorCode: null, errorMessage: null },
    ]);
  });

  it("an oversized Veo video fails that attempt with ERR4003 and the chain moves on to Replicate", async () => {
    const { key } = await fundedAccount();
    const body = { generation_prompt: "waves [google:oversized]", generation_provider_order: "google,replicate", generation_duration: 8 };
    const data = expectSuccess(await createVideo(key, body, {}, "google/veo-3"), 202);
    const record = await waitForStatus(key, data.generation_id, undefined, 60_000);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect((await attemptsOf(data.generation_id)).map((attempt) => [attempt.provider, attempt.outcome, attempt.errorCode])).toEqual([
      ["google", "failed", "ERR4003"],
      ["replicate", "succeeded", null],
    ]);
  });

  it("an Imagen answer not understood fails the generation with a provider error naming google, never ERR5000", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await createImage(key, { generation_prompt: "a kite [google:malformed]" }, {}, "google/imagen-4"), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed" });
    expect(await attemptsOf(data.generation_id)).toEqual([
      {
        provider: "google",
        outcome: "failed",
        errorCode: "ERR4002",
        errorMessage: "google: the answer was not understood (not a predict response)",
      },
    ]);
    expect(await kinds(data.generation_id)).toEqual(["refund", "reserve"]);
  });

  it("a blocked prompt fails the generation at once (ERR4005) and refunds", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(key, { generation_prompt: "a kite [google:blocked]" }, {}, "google/gemini-2.5-flash-image"),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_output_file: [] });
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "google", outcome: "failed", errorCode: "ERR4005", errorMessage: "google: the prompt was refused by the safety filter" },
    ]);
    expect(await kinds(data.generation_id)).toEqual(["refund", "reserve"]);
  });

  it("an Imagen call is canceled mid-call: the call is aborted, the generation canceled and refunded", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await createImage(key, { generation_prompt: "a slow kite [google:slow]" }, {}, "google/imagen-4"), 202);
    await waitForStatus(key, data.generation_id, ["processing"]);
    await expect.poll(async () => (await attemptsOf(data.generation_id)).length, { timeout: 10_000 }).toBe(1);
    const canceled = expectSuccess(await cancel(key, data.generation_id));
    expect(canceled).toMatchObject({ generation_status: "canceled", provider_cancel_sent: true, credits_refunded: true });
    expect(await waitForStatus(key, data.generation_id)).toMatchObject({ generation_status: "canceled", generation_output_file: [] });
    expect(await kinds(data.generation_id)).toEqual(["refund", "reserve"]);
  });

  it("a Veo operation is canceled: the generation ends canceled and refunded (the operation is left to run)", async () => {
    const { key } = await fundedAccount();
    const data = expectSuccess(
      await createVideo(
        key,
        { generation_prompt: "slow waves [google:slow]", generation_provider_order: "google", generation_duration: 8 },
        {},
        "google/veo-3",
      ),
      202,
    );
    await expect.poll(async () => (await attemptsOf(data.generation_id)).length, { timeout: 10_000 }).toBe(1);
    const canceled = expectSuccess(await cancel(key, data.generation_id));
    expect(canceled).toMatchObject({ generation_status: "canceled", credits_refunded: true });
    expect(await waitForStatus(key, data.generation_id)).toMatchObject({ generation_status: "canceled", generation_output_file: [] });
    expect(await kinds(data.generation_id)).toEqual(["refund", "reserve"]);
  });
});

describe("the health row", () => {
  it("lists google in /v1/health/inference/providers, configured, with its attempts counted", async () => {
    const { key } = await accountWithKey();
    const health = expectSuccess(await callOperation(getProviderHealth, { key }));
    const row = health.providers.find((entry) => entry.provider === "google");
    expect(row?.status).not.toBe("unknown");
    expect(row?.window.total_attempts).toBeGreaterThan(0);
  });
});

describe("configuration", () => {
  it("a deployment without GEMINI_API_KEY lists google not_configured in the library and in health", async () => {
    const { key } = await accountWithKey();
    const instance = await startSecondInstance({ GEMINI_API_KEY: "" });
    try {
      const read = async (route: string) =>
        (
          (await (await fetch(`${instance.baseUrl}${route}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
            data: Record<string, unknown>;
          }
        ).data;
      const library = (await read("/v1/library/providers")) as { providers: Array<{ provider_id: string; provider_status: string }> };
      expect(library.providers.find((provider) => provider.provider_id === "google")?.provider_status).toBe("not_configured");
      const health = (await read("/v1/health/inference/providers")) as {
        providers: Array<{ provider: string; status: string; status_reason: string; available: boolean }>;
      };
      expect(health.providers.find((entry) => entry.provider === "google")).toMatchObject({
        status: "unknown",
        status_reason: "not configured: GEMINI_API_KEY is not set",
        available: false,
      });
    } finally {
      await instance.stop();
    }
  });
});
