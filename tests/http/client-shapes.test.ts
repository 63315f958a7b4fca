import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/db";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";
import { IMPLEMENTATION_TEXT_FIELDS } from "@/tests/support/client-shapes";
import { accountWithKey, createTestAccount } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { inTransaction } from "@/server/transaction";

// What a typed client of this API shape reads, over the wire, beyond the documented
// shapes: library schema and implementation fields, health statuses and names, record
// fields by status and kind, cancel's refund fields (and the canceled webhook's), and the
// headers of a concurrency refusal.

const HEALTH_STATUSES = ["healthy", "recovering", "degraded", "unknown"];

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
  await disconnectDb();
});

const createVideo = (key: string, body: Record<string, unknown>) => api("/v1/generate/video/darkroom/lumen-video", { key, method: "POST", body });

describe("library", () => {
  it("lists a video model's durations, resolutions and audio inside schema, and keeps specific_schema_options", async () => {
    const { key } = await accountWithKey();
    const { models } = expectSuccess(await api("/v1/library/models", { key }));
    const byId = Object.fromEntries(models.map((model: any) => [model.model_identifier, model]));
    expect(byId["darkroom/lumen-video"].schema).toMatchObject({ generation_duration: [2, 4, 6], generation_resolution: ["480p", "720p"], generation_generate_audio: true });
    expect(byId["kwaivgi/kling-v2.1"].schema).toMatchObject({ generation_duration: [5, 10], generation_resolution: ["720p", "1080p"], generation_generate_audio: false });
    expect(byId["darkroom/lumen-video"].specific_schema_options).toEqual({ generation_duration: [2, 4, 6], generation_resolution: ["480p", "720p"], generation_generate_audio: [false, true] });
    for (const model of models.filter((entry: any) => entry.model_type === "image")) {
      expect(Object.keys(model.schema).filter((field) => ["generation_duration", "generation_resolution", "generation_generate_audio"].includes(field))).toEqual([]);
    }
  });

  it("carries the flat implementation fields beside integration, true to each adapter", async () => {
    const { key } = await accountWithKey();
    const { providers } = expectSuccess(await api("/v1/library/providers", { key }));
    const byId = Object.fromEntries(providers.map((provider: any) => [provider.provider_id, provider.darkroom_implementation]));
    for (const implementation of Object.values<any>(byId)) {
      for (const field of IMPLEMENTATION_TEXT_FIELDS) expect(typeof implementation[field], field).toBe("string");
      expect(implementation.integration).toEqual(expect.objectContaining({ delivery_method: implementation.delivery_method }));
      expect(implementation.supported_models_total).toBe(implementation.supported_models.length);
      expect(implementation.supported_media_types.length).toBeGreaterThan(0);
      expect(Array.isArray(implementation.capabilities)).toBe(true);
    }
    expect(byId.local).toMatchObject({ delivery_method: "synchronous", supported_media_types: ["image", "video"], supported_models_total: 2 });
    // The test app sets REPLICATE_WEBHOOK_SECRET, so Replicate is asked for webhooks.
    expect(byId.replicate).toMatchObject({ delivery_method: "webhook", supported_media_types: ["image", "video"] });
    expect(byId.replicate.webhook_verification).toContain("HMAC-SHA256");
    expect(byId.fal).toMatchObject({ delivery_method: "webhook" });
    expect(byId.openai).toMatchObject({ delivery_method: "synchronous", supported_media_types: ["image"], supported_models_total: 1 });
    expect(byId.openai.cancel_method).toMatch(/^none/);
  });
});

describe("health", () => {
  it("reports each provider as healthy, recovering, degraded or unknown; unconfigured ones unknown with the reason", async () => {
    const { key } = await accountWithKey();
    const health = expectSuccess(await api("/v1/health/inference/providers", { key }));
    for (const entry of health.providers) {
      expect(HEALTH_STATUSES).toContain(entry.status);
      expect(typeof entry.status_reason).toBe("string");
    }
    const fal = health.providers.find((entry: any) => entry.provider === "fal");
    expect(fal).toMatchObject({ status: "unknown", status_reason: "not configured: FAL_KEY is not set", available: false });
  });

  it("names the storage bucket, and answers cache as service redis with the real backend", async () => {
    const { key } = await accountWithKey();
    const storage = expectSuccess(await api("/v1/health/storage", { key }));
    expect(storage).toMatchObject({ service: "storage", healthy: true, driver: "local-disk" });
    expect(storage.bucket).toMatch(/^local:\S+/);
    const cache = expectSuccess(await api("/v1/health/cache", { key }));
    expect(cache).toMatchObject({ service: "redis", healthy: true, backend: process.env.REDIS_URL ? "redis" : "postgres" });
  });
});

describe("generation records", () => {
  it("omit the error fields unless failed, and carry the video settings on video records only", async () => {
    const { key } = await accountWithKey();
    const image = expectSuccess(await createImage(key, { generation_prompt: "a plain image", generation_provider_order: "local" }), 202);
    const video = expectSuccess(await createVideo(key, { generation_prompt: "a short clip", generation_duration: 2, generation_generate_audio: true }), 202);
    const failed = expectSuccess(await createImage(key, { generation_prompt: "doomed [local:fail] [local-backup:fail]" }), 202);

    const imageRecord = await waitForStatus(key, image.generation_id);
    expect(imageRecord.generation_status).toBe("succeeded");
    for (const field of ["generation_error", "generation_error_code", "generation_duration", "generation_resolution", "generation_generate_audio"]) {
      expect(imageRecord, field).not.toHaveProperty(field);
    }

    const videoRecord = await waitForStatus(key, video.generation_id, undefined, 60_000);
    expect(videoRecord).toMatchObject({ generation_status: "succeeded", generation_duration: 2, generation_resolution: "480p", generation_generate_audio: true });
    expect(videoRecord).not.toHaveProperty("generation_error");

    const failedRecord = await waitForStatus(key, failed.generation_id);
    expect(failedRecord).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4004", generation_error: expect.any(String) });

    // The list shows the same records.
    const list = expectSuccess(await api("/v1/content/list?limit=10", { key }));
    const listed = Object.fromEntries(list.generations.map((record: any) => [record.generation_id, record]));
    expect(listed[video.generation_id]).toMatchObject({ generation_duration: 2, generation_resolution: "480p", generation_generate_audio: true });
    expect(listed[image.generation_id]).not.toHaveProperty("generation_error");
  }, 90_000);
});

describe("cancel", () => {
  it("answers credits_refunded as a boolean with the amount beside it, and the canceled webhook carries both", async () => {
    const { key, accountId } = await accountWithKey();
    const path = `/hook/${randomUUID()}`;
    await inTransaction((tx) => createWebhookEndpoint(tx, { accountId, url: receiver.url.replace("/api/providers/callback", path), events: ["generation.canceled"], actor: "system" }));

    const slow = expectSuccess(await createImage(key, { generation_prompt: "slow [local:slow=3000]", generation_provider_order: "local", generation_output_number: 2 }), 202);
    await waitForStatus(key, slow.generation_id, ["processing"]);
    const canceled = expectSuccess(await api(`/v1/content/generation/cancel/${slow.generation_id}`, { key, method: "POST" }));
    expect(canceled).toEqual({ generation_id: slow.generation_id, generation_status: "canceled", provider_cancel_sent: true, credits_refunded: true, credits_refunded_amount: 0.004 });

    const delivery = await receiver.next((webhook) => webhook.path === path, 20_000);
    const body = JSON.parse(delivery.rawBody);
    expect(body.webhook_event).toBe("generation.canceled");
    expect(body.webhook_data).toMatchObject({ generation_id: slow.generation_id, generation_status: "canceled", credits_refunded: true, credits_refunded_amount: 0.004 });
    expect(body.webhook_data).not.toHaveProperty("generation_error");

    // Too late to cancel again: nothing more is refunded.
    expectError(await api(`/v1/content/generation/cancel/${slow.generation_id}`, { key, method: "POST" }), "ERR1010");
  }, 40_000);
});

describe("a concurrency refusal (ERR1009)", () => {
  it("carries a whole-second Retry-After and claims no remaining capacity, keeping Limit and Reset", async () => {
    const { key } = await accountWithKey({ plan: "free" });
    const slow = { generation_prompt: "hold [local:slow=5000]", generation_provider_order: "local" };
    const held = [expectSuccess(await createImage(key, slow), 202), expectSuccess(await createImage(key, slow), 202)];
    const refused = await createImage(key, slow);
    const error = expectError(refused, "ERR1009");
    const retryAfter = refused.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // lumen-image times out at 60 s: its slot is free by then at the latest.
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(error.details.retry_after_seconds).toBe(Number(retryAfter));
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("10");
    expect(Number(refused.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    for (const generation of held) await api(`/v1/content/generation/cancel/${generation.generation_id}`, { key, method: "POST" });
  }, 30_000);

  it("estimates Retry-After from the in-flight generation's model's typical run time", async () => {
    // History: lumen-video runs that took 20 s (in an account of their own).
    const history = await createTestAccount();
    const finishedAt = new Date();
    await db.generation.createMany({
      data: Array.from({ length: 9 }, () => ({
        accountId: history.accountId,
        region: "us" as const,
        mediaKind: "video" as const,
        modelIdentifier: "darkroom/lumen-video",
        status: "succeeded" as const,
        estimatedCost: "0.020",
        providerOrder: ["local"],
        metricsTotalTime: 20,
        completedAt: finishedAt,
      })),
    });

    const { key } = await accountWithKey({ plan: "free" });
    const held = expectSuccess(await createVideo(key, { generation_prompt: "hold [local:slow=8000]", generation_duration: 2, generation_provider_order: "local" }), 202);
    const refused = await createVideo(key, { generation_prompt: "one more", generation_duration: 2 });
    expectError(refused, "ERR1009");
    // 20 s typical, a second or so already spent: the slot frees in about 19 s.
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(15);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    await api(`/v1/content/generation/cancel/${held.generation_id}`, { key, method: "POST" });
    await db.account.delete({ where: { id: history.accountId } });
  }, 30_000);
});
