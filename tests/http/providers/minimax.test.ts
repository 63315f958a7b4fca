import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { db } from "@/server/base/db";
import { listProviders } from "@/server/edge/http/operations/catalog";
import { getProviderHealth } from "@/server/edge/http/operations/health";
import { accountWithKey } from "@/tests/support/fixtures";
import { api, callOperation, expectError, expectSuccess } from "@/tests/support/http";
import { cancel, createImage, createVideo, expectAttemptCanceled, waitForStatus } from "@/tests/support/generations";
import { attemptsOf, expectServedMp4, ledgerTypes, refusedOutputs } from "@/tests/support/provider-runs";

// MiniMax through the real /v1 API: the test app talks to a local MiniMax that follows its
// published protocol (scripts/test.ts starts it and sets MINIMAX_API_KEY / MINIMAX_BASE_URL). Prompt
// markers steer the fake (tests/fakes/minimax-fake.ts). Replicate, configured against its own fake,
// serves the same models, so it is the failover.

describe("MiniMax end to end", () => {
  it("an image-01 generation succeeds in the submit call; the JPEG is stored and served", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "a lighthouse", generation_ratio: "16:9", generation_provider_order: "minimax" },
        {},
        "minimax/image-01",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "minimax" });
    const file = await fetch(record.generation_output_file[0]!);
    expect(file.status).toBe(200);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe("jpeg");
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "minimax", outcome: "succeeded", errorCode: null, errorMessage: null },
    ]);
    expect(await ledgerTypes(data.generation_id)).toEqual(["charge", "reserve"]);
  });

  it("a Hailuo video succeeds: task accepted, polled to Success, its file fetched by file_id", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createVideo(
        key,
        { generation_prompt: "waves at dawn", generation_duration: 6, generation_provider_order: "minimax" },
        {},
        "minimax/hailuo-02",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id, ["succeeded", "failed", "canceled"], 60_000);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "minimax" });
    expect(record.generation_prediction_id).toMatch(/^\d+$/);
    await expectServedMp4(record.generation_output_file[0]!);
  }, 90_000);

  it("a rate limit (1002) fails over to Replicate, which succeeds", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "a kite [minimax:rate-limit]", generation_provider_order: "minimax,replicate" },
        {},
        "minimax/image-01",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "minimax", outcome: "failed", errorCode: "ERR4002", errorMessage: "minimax: rate limit exceeded(RPM)" },
      { provider: "replicate", outcome: "succeeded", errorCode: null, errorMessage: null },
    ]);
  });

  it("sensitive input (1026) is final: no failover, nothing charged", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "a kite [minimax:moderated]", generation_provider_order: "minimax,replicate" },
        {},
        "minimax/image-01",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record.generation_status).toBe("failed");
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "minimax", outcome: "failed", errorCode: "ERR4005", errorMessage: "minimax: input new_sensitive" },
    ]);
    expect(await ledgerTypes(data.generation_id)).toEqual(["refund", "reserve"]);
  });

  it.each(refusedOutputs("minimax"))("%s fails the attempt with ERR4003, and the chain moves on", async (_label, marker, reason) => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: `a kite ${marker}`, generation_provider_order: "minimax,replicate" },
        {},
        "minimax/image-01",
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    const [first] = await attemptsOf(data.generation_id);
    expect(first).toMatchObject({
      provider: "minimax",
      outcome: "failed",
      errorCode: "ERR4003",
      errorMessage: expect.stringContaining(reason),
    });
  });

  it("a video canceled while its task runs ends canceled and refunded", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createVideo(
        key,
        { generation_prompt: "a slow tide [minimax:slow]", generation_duration: 10, generation_provider_order: "minimax" },
        {},
        "minimax/hailuo-02",
      ),
      202,
    );
    await waitForStatus(key, data.generation_id, ["processing"]);
    await expect
      .poll(async () => (await db.providerAttempt.findFirst({ where: { generationId: data.generation_id } }))?.predictionId ?? null, {
        timeout: 20_000,
      })
      .toMatch(/^\d+$/);
    // MiniMax publishes no cancel: nothing is sent for the task, and the run stops waiting for it.
    expect(expectSuccess(await cancel(key, data.generation_id))).toMatchObject({
      generation_status: "canceled",
      provider_cancel_sent: false,
    });
    // The attempt ends with the cancel although MiniMax never confirms it (it stayed `running` before).
    await expectAttemptCanceled(data.generation_id);
    const record = await waitForStatus(key, data.generation_id, ["canceled"]);
    expect(record.generation_status).toBe("canceled");
    expect(record.generation_output_file).toEqual([]);
    expect(await ledgerTypes(data.generation_id)).toEqual(["refund", "reserve"]);
  }, 60_000);

  it("refuses a callback claiming to be MiniMax's: its callbacks are unsigned, so none is taken", async () => {
    const forged = await api("/api/providers/minimax/callback", {
      method: "POST",
      body: { task_id: "1", status: "Success", file_id: "2", base_resp: { status_code: 0, status_msg: "success" } },
    });
    expectError(forged, "ERR1006");
    const challenge = await api("/api/providers/minimax/callback", { method: "POST", body: { challenge: "abc" } });
    expectError(challenge, "ERR1006");
  });

  it("is listed active in /v1/library/providers and reported in /v1/health/inference/providers", async () => {
    const { key } = await accountWithKey();
    const { providers } = expectSuccess(await callOperation(listProviders, { key }));
    const minimax = providers.find((provider) => provider.provider_id === "minimax");
    expect(minimax).toMatchObject({ provider_status: "active" });
    expect(minimax?.darkroom_implementation).toMatchObject({
      delivery_method: "polling",
      supported_models: [
        "minimax/image-01",
        "minimax/hailuo-02",
        "minimax/hailuo-2.3",
        "minimax/video-01",
        "minimax/video-01-director",
        "minimax/i2v-01",
        "minimax/i2v-01-director",
        "minimax/hailuo-02-pro",
      ],
    });
    expect(minimax?.darkroom_implementation.webhook_verification).toMatch(/^none/);
    const health = expectSuccess(await callOperation(getProviderHealth, { key }));
    const row = health.providers.find((entry) => entry.provider === "minimax");
    expect(row).toMatchObject({ available: true });
  });
});
