import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { db } from "@/server/base/db";
import { getProviderHealth } from "@/server/edge/http/operations/health";
import { listProviders } from "@/server/edge/http/operations/catalog";
import { accountWithKey } from "@/tests/support/fixtures";
import { cancel, createImage, ledgerOf, waitForStatus } from "@/tests/support/generations";
import { api, callOperation, expectError, expectSuccess } from "@/tests/support/http";
import { until } from "@/tests/support/until";

// Black Forest Labs end to end: the test app talks to a local BFL that follows its published API
// (scripts/test.ts starts it with BFL_API_KEY, BFL_BASE_URL and BFL_WEBHOOK_SECRET). The task is
// accepted, the fake POSTs its signed webhook to /api/providers/bfl/callback, the run polls the
// task and downloads the sample. The fake's prompt markers steer its failures.

const PRO = "black-forest-labs/flux-1.1-pro";
const prices: Record<string, string> = {
  [PRO]: "0.040",
  "black-forest-labs/flux-1.1-pro-ultra": "0.060",
  "black-forest-labs/flux-kontext-pro": "0.040",
};
const price = (model: string) => prices[model] ?? "unknown";

function attemptsOf(generationId: string) {
  return db.providerAttempt.findMany({
    where: { generationId },
    orderBy: { attemptNumber: "asc" },
    select: { provider: true, outcome: true, errorCode: true },
  });
}

async function generate(prompt: string, order: string, model = PRO) {
  const { key, accountId } = await accountWithKey();
  const data = expectSuccess(await createImage(key, { generation_prompt: prompt, generation_provider_order: order }, {}, model), 202);
  return { key, accountId, generationId: data.generation_id, record: await waitForStatus(key, data.generation_id) };
}

/** The task as the fake BFL reports it, asked the way the adapter asks. */
async function bflTask(taskId: string) {
  const answer = await fetch(`${process.env.BFL_BASE_URL}/v1/get_result?id=${encodeURIComponent(taskId)}`, {
    headers: { "x-key": process.env.BFL_API_KEY ?? "" },
  });
  return (await answer.json()) as { status: string };
}

describe("a generation on bfl", () => {
  it.each([PRO, "black-forest-labs/flux-1.1-pro-ultra", "black-forest-labs/flux-kontext-pro"])(
    "%s succeeds: accepted, called back, polled, stored, charged",
    async (model) => {
      const { generationId, record } = await generate("a red kite over the dunes", "bfl", model);
      expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "bfl" });
      const file = await fetch(record.generation_output_file[0]!);
      expect(file.status).toBe(200);
      expect(["png", "jpeg"]).toContain((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format);
      expect(await attemptsOf(generationId)).toEqual([{ provider: "bfl", outcome: "succeeded", errorCode: null }]);
      const attempt = await db.providerAttempt.findFirstOrThrow({ where: { generationId } });
      expect(attempt.predictionId).toBe(record.generation_prediction_id);
      expect((await bflTask(attempt.predictionId!)).status).toBe("Ready");
      expect(await ledgerOf(generationId)).toEqual(expect.arrayContaining([`reserve:${price(model)}`, `charge:${price(model)}`]));
    },
  );

  it.each([
    ["a task that ends in Error", "[bfl:error]", "ERR4002"],
    ["a submit answered 429 (too many active tasks)", "[bfl:rate-limit]", "ERR4002"],
    ["a sample larger than the output cap", "[bfl:output-oversized]", "ERR4003"],
    ["a result answer in no published shape", "[bfl:garbled]", "ERR4002"],
  ])("fails over to Replicate after %s (%s)", async (_label, marker, code) => {
    const { generationId, record } = await generate(`a red kite ${marker}`, "bfl,replicate");
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect(await attemptsOf(generationId)).toEqual([
      { provider: "bfl", outcome: "failed", errorCode: code },
      { provider: "replicate", outcome: "succeeded", errorCode: null },
    ]);
  });

  it.each(["[bfl:request-moderated]", "[bfl:content-moderated]"])(
    "a task %s fails the generation with ERR4005, without failing over",
    async (marker) => {
      const { generationId, record } = await generate(`a red kite ${marker}`, "bfl,replicate");
      expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4005", generation_output_file: [] });
      expect(record.generation_error).toContain("moderation");
      expect(await attemptsOf(generationId)).toEqual([{ provider: "bfl", outcome: "failed", errorCode: "ERR4005" }]);
      expect(await ledgerOf(generationId)).toEqual(["reserve:0.040", "refund:0.040"]);
    },
  );

  it("is canceled while the task runs: refunded at once, and the task's late result discarded", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(key, { generation_prompt: "a slow kite [bfl:slow=5000]", generation_provider_order: "bfl" }, {}, PRO),
      202,
    );
    await waitForStatus(key, data.generation_id, ["processing"]);
    // Running at BFL: its task id recorded (processing starts with the attempt, before BFL answered the submit).
    const attempt = await until(
      () => db.providerAttempt.findFirst({ where: { generationId: data.generation_id, predictionId: { not: null } } }),
      "the BFL task submitted and its id recorded",
      { everyMs: 100 },
    );
    const canceled = expectSuccess(await cancel(key, data.generation_id));
    // BFL has no cancel endpoint: nothing is sent, the refund does not wait for the provider.
    expect(canceled).toMatchObject({
      generation_status: "canceled",
      provider_cancel_sent: false,
      credits_refunded: true,
      credits_refunded_amount: 0.04,
    });

    await until(async () => (await bflTask(attempt.predictionId!)).status === "Ready", "the fake's slow BFL task finished (Ready)", {
      everyMs: 250,
    });
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "canceled", generation_output_file: [] });
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.040", "refund:0.040"]);
  });
});

describe("POST /api/providers/bfl/callback", () => {
  const body = JSON.stringify({
    id: "00000000-0000-0000-0000-000000000000",
    status: "Ready",
    result: { sample: "https://example.test/a.png" },
  });

  it("refuses a callback without X-BFL-Signature, or signed with another secret (ERR1002)", async () => {
    expectError(await api("/api/providers/bfl/callback", { method: "POST", rawBody: body }), "ERR1002");
    const forged = `sha256=${createHmac("sha256", "not our secret").update(body).digest("hex")}`;
    expectError(
      await api("/api/providers/bfl/callback", { method: "POST", rawBody: body, headers: { "X-BFL-Signature": forged } }),
      "ERR1002",
    );
  });

  it("accepts the same body signed with the deployment's BFL_WEBHOOK_SECRET, matched to its attempt", async () => {
    const { generationId } = await generate("a red kite", "bfl");
    const attempt = await db.providerAttempt.findFirstOrThrow({ where: { generationId } });
    const signed = JSON.stringify({ id: attempt.predictionId, status: "Ready", result: { sample: "https://example.test/a.png" } });
    const signature = `sha256=${createHmac("sha256", process.env.BFL_WEBHOOK_SECRET ?? "")
      .update(signed)
      .digest("hex")}`;
    const reply = await api("/api/providers/bfl/callback", { method: "POST", rawBody: signed, headers: { "X-BFL-Signature": signature } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ data: { received: true, matched: true } });
  });
});

describe("bfl in the library and in health", () => {
  it("is listed active, polled with signed webhooks, with its models", async () => {
    const { key } = await accountWithKey();
    const { providers } = expectSuccess(await callOperation(listProviders, { key }));
    const bfl = providers.find((provider) => provider.provider_id === "bfl");
    expect(bfl).toMatchObject({ provider_status: "active" });
    expect(bfl?.darkroom_implementation).toMatchObject({ delivery_method: "webhook", supported_media_types: ["image"] });
    expect(bfl?.darkroom_implementation.webhook_verification).toContain("X-BFL-Signature");
    expect(bfl?.darkroom_implementation.supported_models).toEqual(
      expect.arrayContaining([
        PRO,
        "black-forest-labs/flux-1.1-pro-ultra",
        "black-forest-labs/flux-kontext-pro",
        "black-forest-labs/flux-kontext-max",
      ]),
    );

    const health = expectSuccess(await callOperation(getProviderHealth, { key }));
    expect(health.providers.find((entry) => entry.provider === "bfl")).toMatchObject({ available: true });
  });
});
