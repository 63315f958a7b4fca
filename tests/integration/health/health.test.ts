import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisClient, disconnectRedis } from "@/server/base/cache/redis";
import { listModels, listProviders } from "@/server/catalog/index";
import { db, disconnectDb } from "@/server/base/db";
import { env, type RegionName } from "@/server/base/env";
import type { AttemptOutcome } from "@/server/base/generated/prisma/client";
import { checkCache } from "@/server/health/check-cache";
import { checkStorage } from "@/server/health/check-storage";
import { getModelHealth } from "@/server/health/model-health";
import { getProviderHealth, PROVIDER_HEALTH_WINDOW_SECONDS, type ProviderHealthEntry } from "@/server/health/provider-health";
import { localDiskStorage } from "@/server/storage/local-disk";
import { InvalidStorageKeyError, type OutputStorage } from "@/server/storage/storage";

// Provider health reads every account's attempts, so each scenario lives at its own moment in
// the 1990s, where no other suite writes: the database need not be empty.

const MINUTE_MS = 60_000;
const WINDOW_MS = PROVIDER_HEALTH_WINDOW_SECONDS * 1000;
const epoch = Date.UTC(1990, 0, 1) + Math.floor(Math.random() * 3_000) * 86_400_000;
const scenarioTime = (scenario: number) => new Date(epoch + scenario * 86_400_000);

let accountId: string;
let generationId: string;
let attemptNumber = 0;

type AttemptDetails = { modelIdentifier?: string; errorCode?: string; latencyMs?: number };

async function recordAttempts(
  finishedAt: Date,
  provider: string,
  outcome: AttemptOutcome,
  count = 1,
  region: RegionName = "us",
  details: AttemptDetails = {},
) {
  await db.providerAttempt.createMany({
    data: Array.from({ length: count }, () => ({
      generationId,
      accountId,
      region,
      modelIdentifier: details.modelIdentifier ?? "black-forest-labs/flux-schnell",
      errorCode: details.errorCode ?? null,
      latencyMs: details.latencyMs ?? null,
      provider,
      attemptNumber: ++attemptNumber,
      outcome,
      startedAt: new Date(finishedAt.getTime() - 10_000),
      finishedAt: outcome === "running" ? null : finishedAt,
    })),
  });
}

beforeAll(async () => {
  const account = await db.account.create({ data: { name: "Health test", email: `health-${randomUUID()}@example.test` } });
  accountId = account.id;
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: "black-forest-labs/flux-schnell",
      providerOrder: ["replicate", "fal"],
      estimatedCost: "0.003",
    },
  });
  generationId = generation.id;
});

afterAll(async () => {
  await db.account.deleteMany({ where: { id: accountId } });
  await disconnectDb();
  await disconnectRedis();
});

/** A (model, provider) pair's figures with no finished attempt in the window. */
const noAttempts = {
  attempts: 0,
  succeeded: 0,
  failed: 0,
  success_rate: null,
  p50_latency_ms: null,
  last_error_code: null,
  last_error_at: null,
};

const byProvider = (entries: ProviderHealthEntry[]) => Object.fromEntries(entries.map((entry) => [entry.provider, entry]));

describe("provider health", () => {
  const now = scenarioTime(1);
  const inWindow = new Date(now.getTime() - 5 * MINUTE_MS);
  const configured = new Set(["replicate", "fal"]);

  beforeAll(async () => {
    // local: 11 finished, 5 failed (one exactly on the window's start) → 0.455, but 5 of its 9
    // decided attempts failed: the routing breaker tripped, and is half-open 5 minutes on → recovering.
    await recordAttempts(inWindow, "local", "succeeded", 4);
    await recordAttempts(inWindow, "local", "failed", 4);
    await recordAttempts(inWindow, "local", "discarded");
    await recordAttempts(inWindow, "local", "canceled");
    await recordAttempts(new Date(now.getTime() - WINDOW_MS), "local", "failed");
    // Not counted: still running, finished a millisecond before the window, or after now.
    await recordAttempts(inWindow, "local", "running", 3);
    await recordAttempts(new Date(now.getTime() - WINDOW_MS - 1), "local", "failed", 5);
    await recordAttempts(new Date(now.getTime() + 1), "local", "failed", 5);
    // local-backup: 4 attempts, half failed, none succeeded after the last failure → degraded.
    await recordAttempts(inWindow, "local-backup", "succeeded", 2);
    await recordAttempts(inWindow, "local-backup", "failed", 2);
    // replicate: 9 of 10 failed → degraded and unavailable.
    await recordAttempts(inWindow, "replicate", "succeeded");
    await recordAttempts(inWindow, "replicate", "failed", 9);
    // fal: every attempt failed, 3 too few to judge the rate, but 3 in a row trip the breaker,
    // half-open 5 minutes on → recovering.
    await recordAttempts(inWindow, "fal", "failed", 3);
    // openai: failing, but its credentials are not configured.
    await recordAttempts(inWindow, "openai", "failed", 5);
    // Not a catalog provider: ignored.
    await recordAttempts(inWindow, "someone-else", "failed", 5);
    // Another region served from the same database: its own figures, never in us's.
    await recordAttempts(inWindow, "local", "succeeded", 7, "eu");
    await recordAttempts(inWindow, "replicate", "succeeded", 6, "eu");
  });

  it("judges each region by its own attempts", async () => {
    const eu = byProvider((await getProviderHealth({ region: "eu", configuredProviders: configured, now })).providers);
    expect(eu.local).toMatchObject({
      status: "healthy",
      failure_rate: 0,
      window: { total_attempts: 7, failures: 0, successes: 7, duration_seconds: 900 },
    });
    expect(eu.replicate).toMatchObject({
      status: "healthy",
      available: true,
      window: { total_attempts: 6, failures: 0, successes: 6, duration_seconds: 900 },
    });
    expect(eu.fal?.window.total_attempts).toBe(0);
    const euModels = await getModelHealth({ region: "eu", configuredProviders: new Set(["replicate", "fal"]), now });
    expect(
      euModels.models.find((model) => model.model_identifier === "black-forest-labs/flux-schnell")?.providers.replicate?.available,
    ).toBe(true);
    const jp = await getProviderHealth({ region: "jp", configuredProviders: configured, now });
    expect(jp.providers.every((entry) => entry.window.total_attempts === 0)).toBe(true);
  });

  it("judges each catalog provider by its window", async () => {
    const health = await getProviderHealth({ region: "us", configuredProviders: configured, now });
    expect(health.service).toBe("providers");
    expect(health.providers_total).toBe(listProviders().length);
    expect(health.providers.map((entry) => entry.provider)).toEqual(listProviders().map((provider) => provider.id));
    const window = (total_attempts: number, failures: number, successes: number) => ({
      total_attempts,
      failures,
      successes,
      duration_seconds: 900,
    });
    expect(byProvider(health.providers)).toEqual({
      local: {
        provider: "local",
        status: "recovering",
        status_reason: expect.stringContaining("half-open"),
        available: true,
        failure_rate: 0.455,
        window: window(11, 5, 4),
      },
      "local-backup": {
        provider: "local-backup",
        status: "degraded",
        status_reason: "failure rate 0.50 over 4 attempts",
        available: true,
        failure_rate: 0.5,
        window: window(4, 2, 2),
      },
      replicate: {
        provider: "replicate",
        status: "degraded",
        status_reason: "failure rate 0.90 over 10 attempts",
        available: false,
        failure_rate: 0.9,
        window: window(10, 9, 1),
      },
      fal: {
        provider: "fal",
        status: "recovering",
        status_reason: "circuit half-open after 3 consecutive failures: new attempts are let through",
        available: true,
        failure_rate: 1,
        window: window(3, 3, 0),
      },
      openai: {
        provider: "openai",
        status: "unknown",
        status_reason: "not configured: OPENAI_API_KEY is not set",
        available: false,
        failure_rate: 1,
        window: window(5, 5, 0),
      },
      bfl: {
        provider: "bfl",
        status: "unknown",
        status_reason: "not configured: BFL_API_KEY is not set",
        available: false,
        failure_rate: 0,
        window: window(0, 0, 0),
      },
      minimax: {
        provider: "minimax",
        status: "unknown",
        status_reason: "not configured: MINIMAX_API_KEY is not set",
        available: false,
        failure_rate: 0,
        window: window(0, 0, 0),
      },
      runway: {
        provider: "runway",
        status: "unknown",
        status_reason: "not configured: RUNWAYML_API_SECRET is not set",
        available: false,
        failure_rate: 0,
        window: window(0, 0, 0),
      },
      cloudflare: {
        provider: "cloudflare",
        status: "unknown",
        status_reason: "not configured: CLOUDFLARE_API_TOKEN or CLOUDFLARE_ACCOUNT_ID is not set",
        available: false,
        failure_rate: 0,
        window: window(0, 0, 0),
      },
      alibaba: {
        provider: "alibaba",
        status: "unknown",
        status_reason: "not configured: DASHSCOPE_API_KEY is not set",
        available: false,
        failure_rate: 0,
        window: window(0, 0, 0),
      },
      byteplus: {
        provider: "byteplus",
        status: "unknown",
        status_reason: "not configured: ARK_API_KEY is not set",
        available: false,
        failure_rate: 0,
        window: window(0, 0, 0),
      },
      google: {
        provider: "google",
        status: "unknown",
        status_reason: "not configured: GEMINI_API_KEY is not set",
        available: false,
        failure_rate: 0,
        window: window(0, 0, 0),
      },
    });
    // A configured provider is unavailable.
    expect(health.healthy).toBe(false);
  });

  it("is healthy when only unconfigured providers are down", async () => {
    const health = await getProviderHealth({ region: "us", configuredProviders: new Set(["fal"]), now });
    expect(byProvider(health.providers).replicate?.status).toBe("unknown");
    expect(byProvider(health.providers)["local-backup"]?.status).toBe("degraded");
    expect(health.healthy).toBe(true);
  });

  it("moves with now: the start is inclusive and the end is now", async () => {
    // One millisecond later the failure stamped on the window's start drops out and the 5 failures
    // finished at now + 1 ms come in: 15 attempts, 9 failed → 0.6, degraded.
    const later = await getProviderHealth({ region: "us", configuredProviders: configured, now: new Date(now.getTime() + 1) });
    expect(byProvider(later.providers).local?.window).toEqual({ total_attempts: 15, failures: 9, successes: 4, duration_seconds: 900 });
    expect(byProvider(later.providers).local?.status).toBe("degraded");

    // One millisecond earlier the window reaches back to the 5 failures finished just before it,
    // keeps the one on its old start and loses those after now: 16 attempts, 10 failed.
    const earlier = await getProviderHealth({ region: "us", configuredProviders: configured, now: new Date(now.getTime() - 1) });
    expect(byProvider(earlier.providers).local?.window).toEqual({ total_attempts: 16, failures: 10, successes: 4, duration_seconds: 900 });
  });

  it("takes the window length as an option", async () => {
    const health = await getProviderHealth({ region: "us", configuredProviders: configured, now, windowSeconds: 60 });
    for (const entry of health.providers) {
      expect(entry.window).toEqual({ total_attempts: 0, failures: 0, successes: 0, duration_seconds: 60 });
      expect(entry.failure_rate).toBe(0);
    }
    expect(health.healthy).toBe(true);
  });

  it("reports every configured provider healthy with no attempts at all", async () => {
    const health = await getProviderHealth({ region: "us", configuredProviders: configured, now: scenarioTime(2) });
    expect(Object.fromEntries(health.providers.map((entry) => [entry.provider, entry.status]))).toEqual({
      local: "healthy",
      "local-backup": "healthy",
      replicate: "healthy",
      fal: "healthy",
      openai: "unknown",
      bfl: "unknown",
      minimax: "unknown",
      runway: "unknown",
      cloudflare: "unknown",
      alibaba: "unknown",
      byteplus: "unknown",
      google: "unknown",
    });
    expect(health.healthy).toBe(true);
  });

  it("marks a provider unavailable at a 90% failure rate with 4 attempts, not with 3", async () => {
    const now = scenarioTime(3);
    const at = new Date(now.getTime() - MINUTE_MS);
    await recordAttempts(at, "fal", "failed", 3);
    let health = await getProviderHealth({ region: "us", configuredProviders: configured, now });
    expect(byProvider(health.providers).fal).toMatchObject({ status: "recovering", available: true });
    await recordAttempts(at, "fal", "failed");
    health = await getProviderHealth({ region: "us", configuredProviders: configured, now });
    expect(byProvider(health.providers).fal).toMatchObject({ status: "degraded", available: false, failure_rate: 1 });
    expect(health.healthy).toBe(false);
  });
});

describe("model health", () => {
  const now = scenarioTime(1); // the provider-health scenario: replicate unavailable, local-backup degraded

  it("lists every model with each provider's availability and raw model id", async () => {
    const health = await getModelHealth({ region: "us", configuredProviders: new Set(["replicate", "fal"]), now });
    expect(health.service).toBe("models");
    expect(health.models_total).toBe(listModels().length);
    expect(health.models.map((model) => model.model_identifier)).toEqual(listModels().map((model) => model.identifier));
    const models = Object.fromEntries(health.models.map((model) => [model.model_identifier, model]));
    expect(models["darkroom/lumen-image"]).toEqual({
      model_identifier: "darkroom/lumen-image",
      model_type: "image",
      model_pricing: 0.002,
      model_status: "active",
      providers: {
        local: { available: true, raw_model_id: "lumen-image", ...noAttempts },
        "local-backup": { available: true, raw_model_id: "lumen-image", ...noAttempts },
      },
    });
    // The scenario's attempts are flux-schnell's: its own figures per provider (no latency or error code recorded).
    const lastFailure = new Date(now.getTime() - 5 * MINUTE_MS).toISOString();
    expect(models["black-forest-labs/flux-schnell"]).toEqual({
      model_identifier: "black-forest-labs/flux-schnell",
      model_type: "image",
      model_pricing: 0.003,
      model_status: "active",
      providers: {
        replicate: {
          ...noAttempts,
          available: false,
          raw_model_id: "black-forest-labs/flux-schnell",
          attempts: 10,
          succeeded: 1,
          failed: 9,
          success_rate: 0.1,
          last_error_at: lastFailure,
        },
        fal: {
          ...noAttempts,
          available: true,
          raw_model_id: "fal-ai/flux/schnell",
          attempts: 3,
          failed: 3,
          success_rate: 0,
          last_error_at: lastFailure,
        },
      },
    });
    expect(models["openai/gpt-image-1"]).toMatchObject({
      model_status: "not_configured",
      providers: { openai: { available: false, raw_model_id: "gpt-image-1", ...noAttempts } },
    });
    expect(models["google/veo-3"]?.model_pricing).toBe(0.4);
    expect(models["google/veo-3"]?.model_type).toBe("video");
    // A model whose only configured provider is the unavailable Replicate (MiniMax's, ByteDance's,
    // Qwen-Image: their own providers are not configured here) has none available, so the whole is
    // unhealthy; every model that fal also serves still has one.
    const onlyReplicate = listModels().filter(
      (model) => (model.providers as readonly string[]).includes("replicate") && !(model.providers as readonly string[]).includes("fal"),
    );
    expect(onlyReplicate.length).toBeGreaterThan(0);
    for (const model of onlyReplicate)
      expect(Object.values(models[model.identifier]!.providers).some((provider) => provider.available)).toBe(false);
    for (const model of listModels().filter((entry) => (entry.providers as readonly string[]).includes("fal")))
      expect(models[model.identifier]!.providers.fal?.available).toBe(true);
    expect(health.healthy).toBe(false);
  });

  it("is unhealthy when a model's configured providers are all unavailable", async () => {
    const health = await getModelHealth({ region: "us", configuredProviders: new Set(["replicate"]), now });
    const schnell = health.models.find((model) => model.model_identifier === "black-forest-labs/flux-schnell");
    expect(schnell?.providers).toMatchObject({
      replicate: { available: false, raw_model_id: "black-forest-labs/flux-schnell" },
      fal: { available: false, raw_model_id: "fal-ai/flux/schnell" },
    });
    expect(health.healthy).toBe(false);
  });

  it("is healthy when unconfigured providers are the only gaps", async () => {
    const health = await getModelHealth({ region: "us", configuredProviders: new Set(), now: scenarioTime(2) });
    expect(health.healthy).toBe(true);
    const lumen = health.models.find((model) => model.model_identifier === "darkroom/lumen-video");
    expect(lumen?.providers).toEqual({
      local: { available: true, raw_model_id: "lumen-video", ...noAttempts },
      "local-backup": { available: true, raw_model_id: "lumen-video", ...noAttempts },
    });
  });

  it("does not count providers or models turned off: unavailable, but no outage", async () => {
    // Replicate is down in this scenario; turned off, the models it alone serves are disabled, not unhealthy.
    const turnedOff = await getModelHealth({
      region: "us",
      configuredProviders: new Set(["replicate"]),
      disabled: { models: new Set(), providers: new Set(["replicate"]) },
      now,
    });
    expect(turnedOff.healthy).toBe(true);
    const schnell = turnedOff.models.find((model) => model.model_identifier === "black-forest-labs/flux-schnell");
    expect(schnell).toMatchObject({
      model_status: "disabled",
      providers: { replicate: { available: false, attempts: 10, failed: 9 }, fal: { available: false } },
    });
    const providers = await getProviderHealth({
      region: "us",
      configuredProviders: new Set(["replicate"]),
      disabledProviders: new Set(["replicate", "local"]),
      now,
    });
    expect(byProvider(providers.providers).replicate).toMatchObject({
      status: "unknown",
      status_reason: "disabled: turned off on this deployment (CATALOG_DISABLED_PROVIDERS)",
      available: false,
      window: { total_attempts: 10 },
    });
    expect(byProvider(providers.providers).local).toMatchObject({ status: "unknown", available: false });
    expect(providers.healthy).toBe(true);

    // A model turned off does not count either, though its configured provider is down.
    const modelOff = await getModelHealth({
      region: "us",
      configuredProviders: new Set(["replicate"]),
      disabled: { models: new Set(listModels().map((model) => model.identifier)), providers: new Set() },
      now,
    });
    expect(modelOff.healthy).toBe(true);
    expect(new Set(modelOff.models.map((model) => model.model_status))).toEqual(new Set(["disabled"]));
  });
});

describe("model health per provider", () => {
  const now = scenarioTime(5);
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * MINUTE_MS);
  const lumen = { modelIdentifier: "darkroom/lumen-image" };

  beforeAll(async () => {
    // lumen-image on local: 3 succeeded (100, 200, 900 ms) and 2 failed, the newer ERR4005; one
    // canceled counts as an attempt only. On local-backup: one success of 40 ms.
    await recordAttempts(at(10), "local", "succeeded", 1, "us", { ...lumen, latencyMs: 100 });
    await recordAttempts(at(9), "local", "succeeded", 1, "us", { ...lumen, latencyMs: 900 });
    await recordAttempts(at(8), "local", "succeeded", 1, "us", { ...lumen, latencyMs: 200 });
    await recordAttempts(at(7), "local", "failed", 1, "us", { ...lumen, errorCode: "ERR4002", latencyMs: 5 });
    await recordAttempts(at(3), "local", "failed", 1, "us", { ...lumen, errorCode: "ERR4005", latencyMs: 7 });
    await recordAttempts(at(2), "local", "canceled", 1, "us", lumen);
    await recordAttempts(at(4), "local-backup", "succeeded", 1, "us", { ...lumen, latencyMs: 40 });
    // Not counted for lumen-image: another model on the same provider, another region, outside the window.
    await recordAttempts(at(6), "local", "failed", 4, "us", { modelIdentifier: "darkroom/lumen-video", errorCode: "ERR4001" });
    await recordAttempts(at(6), "local", "failed", 3, "eu", { ...lumen, errorCode: "ERR4001" });
    await recordAttempts(at(20), "local", "failed", 3, "us", { ...lumen, errorCode: "ERR4001" });
  });

  it("reports each model's own attempts on each provider in the window", async () => {
    const health = await getModelHealth({ region: "us", configuredProviders: new Set(), now });
    const models = Object.fromEntries(health.models.map((model) => [model.model_identifier, model]));
    expect(models["darkroom/lumen-image"]?.providers).toEqual({
      local: {
        available: true,
        raw_model_id: "lumen-image",
        attempts: 6,
        succeeded: 3,
        failed: 2,
        success_rate: 0.5,
        p50_latency_ms: 200,
        last_error_code: "ERR4005",
        last_error_at: at(3).toISOString(),
      },
      "local-backup": {
        available: true,
        raw_model_id: "lumen-image",
        attempts: 1,
        succeeded: 1,
        failed: 0,
        success_rate: 1,
        p50_latency_ms: 40,
        last_error_code: null,
        last_error_at: null,
      },
    });
    expect(models["darkroom/lumen-video"]?.providers.local).toMatchObject({
      attempts: 4,
      succeeded: 0,
      failed: 4,
      success_rate: 0,
      p50_latency_ms: null,
      last_error_code: "ERR4001",
    });
    expect(models["darkroom/lumen-video"]?.providers["local-backup"]).toMatchObject(noAttempts);
    // The provider's own window holds both models' attempts.
    const providers = byProvider((await getProviderHealth({ region: "us", configuredProviders: new Set(), now })).providers);
    expect(providers.local?.window.total_attempts).toBe(10);
  });

  it("takes the window length as an option", async () => {
    const health = await getModelHealth({ region: "us", configuredProviders: new Set(), now, windowSeconds: 150 });
    expect(health.models.find((model) => model.model_identifier === "darkroom/lumen-image")?.providers.local).toMatchObject({
      attempts: 1,
      succeeded: 0,
      failed: 0,
      success_rate: 0,
      last_error_code: null,
    });
  });
});

describe("cache health", () => {
  it.skipIf(!env().REDIS_URL)("pings Redis when REDIS_URL is set", async () => {
    const health = await checkCache();
    expect(health).toEqual({ service: "redis", healthy: true, latency_ms: expect.any(Number), backend: "redis" });
  });

  it("reports an unreachable Redis as unhealthy", async () => {
    const unreachable = createRedisClient("redis://127.0.0.1:1");
    try {
      const health = await checkCache({ redis: unreachable });
      expect(health).toMatchObject({ service: "redis", healthy: false, backend: "redis" });
    } finally {
      unreachable.disconnect();
    }
  });

  it("checks the PostgreSQL counter table without Redis", async () => {
    const health = await checkCache({ redis: null });
    expect(health).toEqual({ service: "redis", healthy: true, latency_ms: expect.any(Number), backend: "postgres" });
  });
});

describe("local-disk storage", () => {
  let root: string;
  let storage: OutputStorage;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "darkroom-storage-"));
    storage = localDiskStorage(path.join(root, "files"));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("puts, gets, overwrites and deletes an object", async () => {
    const key = `outputs/${randomUUID()}/${randomUUID()}/0.png`;
    const bytes = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    await storage.put(key, bytes, "image/png");
    const stored = await storage.get(key);
    expect(stored?.contentType).toBe("image/png");
    expect(Buffer.from(stored?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);

    await storage.put(key, Buffer.from("webp now"), "image/webp");
    const replaced = await storage.get(key);
    expect(replaced?.contentType).toBe("image/webp");
    expect(Buffer.from(replaced?.bytes ?? []).toString()).toBe("webp now");

    expect(await storage.delete(key)).toBe(true);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.delete(key)).toBe(false);
  });

  it("writes under its root and removes emptied directories on delete", async () => {
    const sibling = `outputs/acct/gen/1.png`;
    const key = `outputs/acct/gen/0.png`;
    await storage.put(key, Buffer.from("zero"), "image/png");
    await storage.put(sibling, Buffer.from("one"), "image/png");
    expect((await readdir(path.join(root, "files", "outputs", "acct", "gen"))).filter((name) => !name.startsWith(".")).sort()).toEqual([
      "0.png",
      "1.png",
    ]);

    await storage.delete(key);
    expect((await readdir(path.join(root, "files", "outputs", "acct", "gen"))).sort()).toEqual([".1.png.content-type", "1.png"]);
    await storage.delete(sibling);
    expect(await readdir(path.join(root, "files"))).toEqual([]);
  });

  it("answers null for a missing key and for a directory", async () => {
    expect(await storage.get("outputs/nothing/here.png")).toBeNull();
    await storage.put("outputs/dir/file.bin", Buffer.from("x"), "application/octet-stream");
    expect(await storage.get("outputs/dir")).toBeNull();
    await storage.delete("outputs/dir/file.bin");
  });

  it.each([
    "../escape.png",
    "/etc/passwd",
    "outputs/../../escape",
    "outputs/./0.png",
    "outputs//0.png",
    "outputs/0.png/",
    "",
    ".hidden",
    "outputs\\0.png",
    "outputs/\u0000.png",
    "a/..",
  ])("rejects the key %j", async (key) => {
    await expect(storage.put(key, Buffer.from("x"), "text/plain")).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
  });

  it("probes with a round trip and leaves nothing behind", async () => {
    const probe = await storage.probe();
    expect(probe).toEqual({ healthy: true, latency_ms: expect.any(Number), driver: "local-disk" });
    expect(await readdir(path.join(root, "files"))).toEqual([]);
  });

  it("checks storage health through the probe", async () => {
    expect(await checkStorage(storage)).toEqual({
      service: "storage",
      healthy: true,
      latency_ms: expect.any(Number),
      bucket: "local:files",
      driver: "local-disk",
    });
  });

  it("is unhealthy when the root cannot be written", async () => {
    const blocker = path.join(root, "not-a-directory");
    await writeFile(blocker, "a file where the root should be");
    const broken = localDiskStorage(path.join(blocker, "files"));
    expect(await broken.probe()).toMatchObject({ healthy: false, driver: "local-disk" });
    expect(await checkStorage(broken)).toMatchObject({ service: "storage", healthy: false, driver: "local-disk" });
  });
});
