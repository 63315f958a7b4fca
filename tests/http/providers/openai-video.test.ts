import { describe, expect, it } from "vitest";
import { addCredits } from "@/server/credits/add-credits";
import { db } from "@/server/base/db";
import { usd } from "@/server/base/money";
import { inTransaction } from "@/server/base/transaction";
import { accountWithKey } from "@/tests/support/fixtures";
import { until } from "@/tests/support/until";
import { cancel, createVideo, ledgerOf, waitForStatus } from "@/tests/support/generations";
import { api, expectError, expectSuccess } from "@/tests/support/http";

// Sora through the real /v1 API: scripts/test.ts starts the OpenAI fake (Images and Videos API as
// published) and hands its address and key to the app (OPENAI_BASE_URL, OPENAI_API_KEY) and to
// this suite, which reads the fake's videos as OpenAI's own clients would. Sora jobs are polled
// every 3 s, so each generation here takes a few seconds. Only OpenAI serves Sora: no failover.

const openaiBaseUrl = process.env.OPENAI_BASE_URL ?? "";
const openaiKey = process.env.OPENAI_API_KEY ?? "";

function attemptsOf(generationId: string) {
  return db.providerAttempt.findMany({
    where: { generationId },
    orderBy: { attemptNumber: "asc" },
    select: { provider: true, outcome: true, errorCode: true, predictionId: true },
  });
}

/** The video as OpenAI reports it (GET /v1/videos/{id}). */
async function openaiVideo(id: string): Promise<{ status: number; body: { status?: string; seconds?: string; size?: string } }> {
  const answer = await fetch(`${openaiBaseUrl}/v1/videos/${id}`, { headers: { Authorization: `Bearer ${openaiKey}` } });
  return { status: answer.status, body: (await answer.json()) as { status?: string } };
}

describe("Sora end to end (OpenAI's Videos API)", () => {
  it("a Sora 2 generation succeeds: the MP4 downloaded with our key is stored and served, priced per second", async () => {
    const { key } = await accountWithKey();
    const body = { generation_prompt: "a paper boat on a stream", generation_duration: 8, generation_ratio: "16:9" };
    const data = expectSuccess(await createVideo(key, body, {}, "openai/sora-2"), 202);
    expect(data.generation_provider_order).toEqual(["openai"]);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "openai" });
    const file = await fetch(record.generation_output_file[0]!);
    expect(file.headers.get("content-type")).toBe("video/mp4");
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe("ftyp");
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "openai", outcome: "succeeded", errorCode: null, predictionId: record.generation_prediction_id },
    ]);
    expect((await openaiVideo(record.generation_prediction_id!)).body).toMatchObject({
      status: "completed",
      seconds: "8",
      size: "1280x720",
    });
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.800", "charge:0.800"]);
  });

  it("Sora 2 Pro at 1024p asks OpenAI for 1024x1792 in portrait, at the 1024p price", async () => {
    const { key, accountId } = await accountWithKey();
    await inTransaction((tx) =>
      addCredits(tx, { accountId, amountMillis: usd("5"), sourceKey: `test:sora-pro:${accountId}`, description: "test grant" }),
    );
    const body = { generation_prompt: "a paper boat", generation_duration: 4, generation_ratio: "9:16", generation_resolution: "1024p" };
    const data = expectSuccess(await createVideo(key, body, {}, "openai/sora-2-pro"), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "openai" });
    expect((await openaiVideo(record.generation_prediction_id!)).body).toMatchObject({ seconds: "4", size: "1024x1792" });
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:2.000", "charge:2.000"]);
  });

  it("never fails over to the built-in renderers, which do not make Sora's videos", async () => {
    const { key } = await accountWithKey();
    const refused = expectError(
      await createVideo(
        key,
        { generation_prompt: "x", generation_duration: 4, generation_provider_order: "openai,local" },
        {},
        "openai/sora-2",
      ),
      "ERR1001",
    );
    expect(JSON.stringify(refused.details)).toContain("generation_provider_order");
    expectError(
      await createVideo(key, { generation_prompt: "x", generation_duration: 4, generation_resolution: "1024p" }, {}, "openai/sora-2"),
      "ERR1001",
    );
  });

  it("a job OpenAI's moderation blocked is final (ERR4005) and refunded", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createVideo(key, { generation_prompt: "a paper boat [openai:moderated]", generation_duration: 4 }, {}, "openai/sora-2"),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4005" });
    expect(await attemptsOf(data.generation_id)).toMatchObject([{ provider: "openai", outcome: "failed", errorCode: "ERR4005" }]);
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.400", "refund:0.400"]);
  });

  it("a job that failed inside OpenAI fails the generation as an openai provider error, never ERR5000", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createVideo(key, { generation_prompt: "a paper boat [openai:internal]", generation_duration: 4 }, {}, "openai/sora-2"),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4004" });
    expect(record.generation_error).toContain("openai ERR4002");
    expect(record.generation_error).not.toContain("ERR5000");
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.400", "refund:0.400"]);
  });

  it("a cancel reaches OpenAI as DELETE /v1/videos/{id}: the video is gone and the credits refunded", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createVideo(key, { generation_prompt: "a slow boat [openai:slow]", generation_duration: 4 }, {}, "openai/sora-2"),
      202,
    );
    await waitForStatus(key, data.generation_id, ["processing"]);
    const predictionId = await until(
      async () => (await attemptsOf(data.generation_id))[0]?.predictionId,
      "the attempt's prediction id recorded",
    );
    expect(predictionId).toMatch(/^video_/);
    expect((await openaiVideo(predictionId)).body.status).toMatch(/^(queued|in_progress)$/);

    const canceled = expectSuccess(await cancel(key, data.generation_id));
    expect(canceled).toMatchObject({
      generation_status: "canceled",
      provider_cancel_sent: true,
      credits_refunded: true,
      credits_refunded_amount: 0.4,
    });
    expect((await openaiVideo(predictionId)).status).toBe(404);
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.400", "refund:0.400"]);
  });
});

describe("Sora callbacks", () => {
  it("refuses a callback addressed to OpenAI: Sora jobs are polled, no webhook is requested", async () => {
    expectError(
      await api("/api/providers/openai/callback", { method: "POST", body: { type: "video.completed", data: { id: "video_1" } } }),
      "ERR1006",
    );
  });
});

describe("Sora in the estimate", () => {
  it("prices Sora 2 Pro per second at the resolution asked", async () => {
    const { key } = await accountWithKey();
    const estimate = await api("/v1/estimate/openai/sora-2-pro?duration=12&resolution=1024p", { key });
    expect(estimate.status).toBe(200);
    expect((estimate.body as { data: unknown }).data).toMatchObject({
      model_type: "video",
      cost_per_second: 0.5,
      duration_seconds: 12,
      resolution: "1024p",
      cost_per_generation: 6,
    });
  });
});
