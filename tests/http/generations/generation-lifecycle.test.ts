import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { listGenerations } from "@/server/edge/http/operations/generations";
import { callOperation, expectSuccess } from "@/tests/support/http";
import { accountWithKey } from "@/tests/support/fixtures";
import { balanceOf, createImage, createVideo, ledgerOf, waitForStatus } from "@/tests/support/generations";

// The whole life of a generation on the built-in providers, through HTTP: create, then poll the
// record until it is terminal (the routes one by one are in routes/).
// Prompt directives like [local:fail] steer the local renderers' faults (LOCAL_PROVIDER_PROMPT_FAULTS=1
// in the test server).

describe("a generation on the local providers", () => {
  it("runs pending → succeeded, stores real files and charges the reservation", async () => {
    const { key, accountId } = await accountWithKey();
    const created = await createImage(key, {
      generation_prompt: "a lighthouse at dusk",
      generation_ratio: "16:9",
      generation_output_number: 2,
      generation_output_format: "png",
      generation_provider_order: "local",
    });
    const data = expectSuccess(created, 202);
    expect(data).toEqual({
      model_identifier: "darkroom/lumen-image",
      generation_provider_order: ["local"],
      generation_prediction_id: null,
      generation_id: expect.any(String),
      generation_initialized: true,
    });

    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({
      account_id: accountId,
      generation_id: data.generation_id,
      generation_status: "succeeded",
      generation_prompt: "a lighthouse at dusk",
      generation_ratio: "16:9",
      generation_output_format: "png",
      generation_output_number: 2,
      generation_provider_order: ["local"],
      generation_provider_used: "local",
    });
    // The error fields appear only on failed records.
    expect(record).not.toHaveProperty("generation_error");
    expect(record).not.toHaveProperty("generation_error_code");
    expect(record.generation_prediction_id).toMatch(/^local-/);
    expect(record.generation_metrics_total_time).toBeGreaterThan(0);
    expect(record.generation_metrics_predict_time).toBeGreaterThan(0);
    expect(record.generation_output_file).toHaveLength(2);

    for (const url of record.generation_output_file) {
      const file = await fetch(url);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("image/png");
      const bytes = Buffer.from(await file.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: "png", width: 1024, height: 576 });
    }
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.004", "charge:0.004"]);
    expect(await balanceOf(accountId)).toBe(0.996);
  });

  it("fails over from a failing provider to the next", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(key, { generation_prompt: "failover [local:fail]", generation_provider_order: "local,local-backup" }),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "local-backup" });
    const attempts = await db.providerAttempt.findMany({ where: { generationId: data.generation_id }, orderBy: { attemptNumber: "asc" } });
    expect(attempts.map((attempt) => [attempt.provider, attempt.outcome, attempt.errorCode])).toEqual([
      ["local", "failed", "ERR4002"],
      ["local-backup", "succeeded", null],
    ]);
    expect(attempts.every((attempt) => attempt.latencyMs !== null)).toBe(true);
  });

  it("refunds when every provider fails, with ERR4004", async () => {
    const { key, accountId } = await accountWithKey();
    const data = expectSuccess(await createImage(key, { generation_prompt: "doomed [local:fail] [local-backup:fail]" }), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4004", generation_output_file: [] });
    expect(record.generation_error).toContain("local");
    expect(record.generation_error).toContain("local-backup");
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.002", "refund:0.002"]);
    expect(await balanceOf(accountId)).toBe(1);
  });

  it("does not retry a content refusal elsewhere (ERR4005)", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(key, { generation_prompt: "refused [local:reject]", generation_provider_order: "local,local-backup" }),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4005" });
    expect(await db.providerAttempt.count({ where: { generationId: data.generation_id } })).toBe(1);
  });

  it("omits the error fields unless failed, and carries the video settings on video records only", async () => {
    const { key } = await accountWithKey();
    const image = expectSuccess(await createImage(key, { generation_prompt: "a plain image", generation_provider_order: "local" }), 202);
    const video = expectSuccess(
      await createVideo(key, { generation_prompt: "a short clip", generation_duration: 2, generation_generate_audio: true }),
      202,
    );
    const failed = expectSuccess(await createImage(key, { generation_prompt: "doomed [local:fail] [local-backup:fail]" }), 202);

    const imageRecord = await waitForStatus(key, image.generation_id);
    expect(imageRecord.generation_status).toBe("succeeded");
    for (const field of [
      "generation_error",
      "generation_error_code",
      "generation_duration",
      "generation_resolution",
      "generation_generate_audio",
    ]) {
      expect(imageRecord, field).not.toHaveProperty(field);
    }

    const videoRecord = await waitForStatus(key, video.generation_id, undefined, 60_000);
    expect(videoRecord).toMatchObject({
      generation_status: "succeeded",
      generation_duration: 2,
      generation_resolution: "480p",
      generation_generate_audio: true,
    });
    expect(videoRecord).not.toHaveProperty("generation_error");

    const failedRecord = await waitForStatus(key, failed.generation_id);
    expect(failedRecord).toMatchObject({
      generation_status: "failed",
      generation_error_code: "ERR4004",
      generation_error: expect.any(String),
    });

    // The list shows the same records.
    const list = expectSuccess(await callOperation(listGenerations, { key, query: { limit: 10 } }));
    const listed = Object.fromEntries(list.generations.map((record) => [record.generation_id, record]));
    expect(listed[video.generation_id]).toMatchObject({
      generation_duration: 2,
      generation_resolution: "480p",
      generation_generate_audio: true,
    });
    expect(listed[image.generation_id]).not.toHaveProperty("generation_error");
  }, 90_000);
});
