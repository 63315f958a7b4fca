import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { db } from "@/server/base/db";
import { accountWithKey } from "@/tests/support/fixtures";
import { until } from "@/tests/support/until";
import { cancel, createImage, createVideo, ledgerOf, waitForStatus } from "@/tests/support/generations";
import { api, expectError, expectSuccess } from "@/tests/support/http";

// Runway through the real /v1 API: scripts/test.ts starts a Runway fake written from the published
// API and hands its address and secret to the app (RUNWAY_BASE_URL, RUNWAYML_API_SECRET) and to
// this suite, which reads the fake's tasks as Runway's own clients would. Runway's tasks are
// polled every 3 s, so each generation here takes a few seconds.

const runwayBaseUrl = process.env.RUNWAY_BASE_URL ?? "";
const runwaySecret = process.env.RUNWAYML_API_SECRET ?? "";

function attemptsOf(generationId: string) {
  return db.providerAttempt.findMany({
    where: { generationId },
    orderBy: { attemptNumber: "asc" },
    select: { provider: true, outcome: true, errorCode: true, predictionId: true },
  });
}

/** The task as Runway reports it (GET /v1/tasks/{id}). */
async function runwayTask(id: string): Promise<{ status: number; body: { status?: string } }> {
  const answer = await fetch(`${runwayBaseUrl}/v1/tasks/${id}`, {
    headers: { Authorization: `Bearer ${runwaySecret}`, "X-Runway-Version": "2024-11-06" },
  });
  return { status: answer.status, body: (await answer.json()) as { status?: string } };
}

describe("Runway end to end (its published task API)", () => {
  it("a Gen-4 Image generation succeeds on Runway: the task's PNG is stored and served, the catalog price charged", async () => {
    const { key } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: "a red kite", generation_provider_order: "runway", generation_ratio: "16:9" },
      {},
      "runway/gen4-image",
    );
    const data = expectSuccess(created, 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "runway" });
    const file = await fetch(record.generation_output_file[0]!);
    expect(file.status).toBe(200);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe("png");
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "runway", outcome: "succeeded", errorCode: null, predictionId: record.generation_prediction_id },
    ]);
    expect((await runwayTask(record.generation_prediction_id!)).body.status).toBe("SUCCEEDED");
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.080", "charge:0.080"]);
  });

  it("a Gen-4 Turbo video succeeds from its start image, as one MP4", async () => {
    const { key } = await accountWithKey();
    const body = {
      generation_prompt: "waves",
      generation_input_file: ["https://images.example.test/start.png"],
      generation_duration: 10,
      generation_provider_order: "runway",
    };
    const data = expectSuccess(await createVideo(key, body, {}, "runway/gen4-turbo"), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "runway" });
    expect((await fetch(record.generation_output_file[0]!)).headers.get("content-type")).toBe("video/mp4");
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.500", "charge:0.500"]);
  });

  it("an Aleph edit of an input video succeeds on Runway alone, priced per second of its 5 s output", async () => {
    const { key } = await accountWithKey();
    const body = {
      generation_prompt: "make it snow",
      generation_input_file: ["https://videos.example.test/in.mp4"],
      generation_duration: 5,
      generation_ratio: "9:16",
    };
    const data = expectSuccess(await createVideo(key, body, {}, "runway/gen4-aleph"), 202);
    expect(data.generation_provider_order).toEqual(["runway"]);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "runway" });
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.750", "charge:0.750"]);
  });

  it("fails over from a task Runway failed (INTERNAL.BAD_OUTPUT) to Gen-4 Image on Replicate, never to a built-in renderer", async () => {
    const { key } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: "a red kite [runway:internal]", generation_ratio: "21:9", generation_provider_order: "runway,replicate" },
      {},
      "runway/gen4-image",
    );
    const data = expectSuccess(created, 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    const file = await fetch(record.generation_output_file[0]!);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe("png");
    expect(await attemptsOf(data.generation_id)).toMatchObject([
      { provider: "runway", outcome: "failed", errorCode: "ERR4002" },
      { provider: "replicate", outcome: "succeeded" },
    ]);
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.080", "charge:0.080"]);
  });

  it("fails a Gen-4 Turbo video over to Gen-4 Turbo on Replicate: one MP4, the Runway price", async () => {
    const { key } = await accountWithKey();
    const body = {
      generation_prompt: "waves [runway:internal]",
      generation_input_file: ["https://images.example.test/start.png"],
      generation_duration: 5,
      generation_provider_order: "runway,replicate",
    };
    const data = expectSuccess(await createVideo(key, body, {}, "runway/gen4-turbo"), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect((await fetch(record.generation_output_file[0]!)).headers.get("content-type")).toBe("video/mp4");
    expect((await attemptsOf(data.generation_id)).map((attempt) => [attempt.provider, attempt.outcome])).toEqual([
      ["runway", "failed"],
      ["replicate", "succeeded"],
    ]);
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.250", "charge:0.250"]);
  });

  it("refuses the built-in renderers for a Runway model: they are not its providers", async () => {
    const { key } = await accountWithKey();
    const body = { generation_prompt: "a red kite", generation_provider_order: "runway,local" };
    expectError(await createImage(key, body, {}, "runway/gen4-image"), "ERR1001");
  });

  it("a task refused by Runway's moderation (SAFETY.INPUT.TEXT) is final: no failover, refunded", async () => {
    const { key } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: "a red kite [runway:moderated]", generation_provider_order: "runway,replicate" },
      {},
      "runway/gen4-image",
    );
    const data = expectSuccess(created, 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4005" });
    expect(record.generation_error).toContain("content moderation");
    expect(await attemptsOf(data.generation_id)).toMatchObject([{ provider: "runway", outcome: "failed", errorCode: "ERR4005" }]);
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.080", "refund:0.080"]);
  });

  it("an answer Runway's API does not publish fails the attempt as a Runway provider error, never ERR5000", async () => {
    const { key } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: "a red kite [runway:garbled]", generation_provider_order: "runway" },
      {},
      "runway/gen4-image",
    );
    const record = await waitForStatus(key, expectSuccess(created, 202).generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4004" });
    expect(record.generation_error).toContain("runway ERR4002");
    expect(record.generation_error).not.toContain("ERR5000");
  });

  it.each([
    ["an output URL on an address that reaches loopback", "[runway:output-internal]", "An output URL was refused"],
    ["an output larger than the cap", "[runway:output-oversized]", "An output is larger than"],
  ])("%s fails the attempt with ERR4003, nothing charged", async (_label, marker, reason) => {
    const { key } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: `a red kite ${marker}`, generation_provider_order: "runway" },
      {},
      "runway/gen4-image",
    );
    const data = expectSuccess(created, 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_output_file: [] });
    expect(record.generation_error).toContain(`runway ERR4003 (${reason}`);
    expect(record.generation_error).not.toContain("internal secret");
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.080", "refund:0.080"]);
  });

  it("a cancel reaches Runway as DELETE /v1/tasks/{id}: the task is CANCELLED and the credits refunded", async () => {
    const { key } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: "a slow kite [runway:slow]", generation_provider_order: "runway" },
      {},
      "runway/gen4-image",
    );
    const data = expectSuccess(created, 202);
    await waitForStatus(key, data.generation_id, ["processing"]);
    const predictionId = await until(
      async () => (await attemptsOf(data.generation_id))[0]?.predictionId,
      "the attempt's prediction id recorded",
    );
    expect(predictionId).toEqual(expect.any(String));
    expect((await runwayTask(predictionId)).body.status).toMatch(/^(PENDING|RUNNING)$/);

    const canceled = expectSuccess(await cancel(key, data.generation_id));
    expect(canceled).toMatchObject({
      generation_status: "canceled",
      provider_cancel_sent: true,
      credits_refunded: true,
      credits_refunded_amount: 0.08,
    });
    expect((await runwayTask(predictionId)).body.status).toBe("CANCELLED");
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.080", "refund:0.080"]);
  });
});

describe("Runway in the library and health", () => {
  it("lists Runway as an active polling provider, with its models and a health row", async () => {
    const { key } = await accountWithKey();
    const providers = await api("/v1/library/providers", { key });
    expect(providers.status).toBe(200);
    expect(JSON.stringify(providers.body)).toContain('"runway"');
    const health = await api("/v1/health/inference/providers", { key });
    expect(health.status).toBe(200);
    expect(JSON.stringify(health.body)).toContain('"runway"');
  });

  it("refuses a callback addressed to Runway, which sends none", async () => {
    expectError(await api("/api/providers/runway/callback", { method: "POST", body: { id: "t1", status: "SUCCEEDED" } }), "ERR1006");
  });
});
