import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";

// The whole life of a generation on the built-in providers, through HTTP (issue: generations).
// Prompt directives like [local:fail] steer the local renderers' faults (LOCAL_PROVIDER_PROMPT_FAULTS=1
// in the test server).

async function ledgerOf(generationId: string) {
  return (await db.ledgerEntry.findMany({ where: { generationId }, orderBy: { createdAt: "asc" } })).map((entry) => `${entry.type}:${entry.amount.toFixed(3)}`);
}

async function balanceOf(accountId: string) {
  return Number((await db.account.findUniqueOrThrow({ where: { id: accountId } })).creditBalance);
}

describe("image generation on the local providers", () => {
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
    const data = expectSuccess(await createImage(key, { generation_prompt: "failover [local:fail]", generation_provider_order: "local,local-backup" }), 202);
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
    const data = expectSuccess(await createImage(key, { generation_prompt: "refused [local:reject]", generation_provider_order: "local,local-backup" }), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4005" });
    expect(await db.providerAttempt.count({ where: { generationId: data.generation_id } })).toBe(1);
  });

  it("makes a real MP4 on the video route", async () => {
    const { key } = await accountWithKey();
    const created = await api("/v1/generate/video/darkroom/lumen-video", { key, method: "POST", body: { generation_prompt: "waves", generation_duration: 2, generation_ratio: "16:9" } });
    const data = expectSuccess(created, 202);
    const record = await waitForStatus(key, data.generation_id, undefined, 60_000);
    expect(record.generation_status).toBe("succeeded");
    const file = await fetch(record.generation_output_file[0]);
    expect(file.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(4, 8).toString("ascii")).toBe("ftyp");
  });
});

describe("cancel and delete", () => {
  it("cancels while processing: refund, and the late result charges nothing", async () => {
    const { key, accountId } = await accountWithKey();
    const data = expectSuccess(await createImage(key, { generation_prompt: "slow [local:slow=3000]", generation_provider_order: "local" }), 202);
    await waitForStatus(key, data.generation_id, ["processing"]);
    const canceled = expectSuccess(await api(`/v1/content/generation/cancel/${data.generation_id}`, { key, method: "POST" }));
    expect(canceled).toEqual({ generation_id: data.generation_id, generation_status: "canceled", provider_cancel_sent: true, credits_refunded: true, credits_refunded_amount: 0.002 });
    expect(await balanceOf(accountId)).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 3500));
    const record = expectSuccess(await api(`/v1/content/${data.generation_id}`, { key }));
    expect(record.generation_status).toBe("canceled");
    expect(record.generation_output_file).toEqual([]);
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.002", "refund:0.002"]);
    expect(await balanceOf(accountId)).toBe(1);

    const again = await api(`/v1/content/generation/cancel/${data.generation_id}`, { key, method: "POST" });
    expectError(again, "ERR1010");
  });

  it("deletes the files and marks the record removed", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await createImage(key, { generation_prompt: "to be deleted" }), 202);
    const record = await waitForStatus(key, data.generation_id);
    const [url] = record.generation_output_file;
    expect((await fetch(url)).status).toBe(200);

    const deleted = expectSuccess(await api(`/v1/content/${data.generation_id}`, { key, method: "DELETE" }));
    expect(deleted).toEqual({ generation_id: data.generation_id, files_deleted: 1 });
    expect((await fetch(url)).status).toBe(404);
    const after = expectSuccess(await api(`/v1/content/${data.generation_id}`, { key }));
    expect(after).toMatchObject({ generation_removed: "true", generation_output_file: [], generation_status: "succeeded" });
  });

  it("keeps other accounts out: ERR1006 for read, cancel and delete", async () => {
    const owner = await accountWithKey();
    const stranger = await accountWithKey();
    const data = expectSuccess(await createImage(owner.key, { generation_prompt: "mine" }), 202);
    for (const [path, method] of [
      [`/v1/content/${data.generation_id}`, "GET"],
      [`/v1/content/${data.generation_id}`, "DELETE"],
      [`/v1/content/generation/cancel/${data.generation_id}`, "POST"],
      [`/v1/image-generation/${data.generation_id}`, "GET"],
    ] as const) {
      expectError(await api(path, { key: stranger.key, method }), "ERR1006");
    }
    expectError(await api("/v1/content/not-a-uuid", { key: owner.key }), "ERR1006");
  });
});
