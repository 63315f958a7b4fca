import { describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey } from "@/tests/support/fixtures";
import { IMPLEMENTATION_KEYS } from "@/tests/support/client-shapes";

// The shape of every read route, field by field.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("GET /v1/status", () => {
  it("identifies the key and its account", async () => {
    const { key, keyId, accountId, prefix } = await accountWithKey();
    const data = expectSuccess(await api("/v1/status", { key }));
    expect(Object.keys(data).sort()).toEqual(["account_id", "apikey_created_at", "apikey_expires_at", "apikey_id", "apikey_last_used_at", "apikey_name", "apikey_prefix"]);
    expect(data).toMatchObject({ account_id: accountId, apikey_id: keyId, apikey_name: "test key", apikey_prefix: prefix, apikey_expires_at: null });
    expect(data.apikey_prefix).toBe(key.slice(0, 9));
    expect(data.apikey_created_at).toMatch(ISO);
    expect(data.apikey_last_used_at).toMatch(ISO);
  });
});

describe("GET /v1/user/account and /v1/user/billing", () => {
  it("returns the account profile", async () => {
    const { key, accountId, email } = await accountWithKey();
    const data = expectSuccess(await api("/v1/user/account", { key }));
    expect(Object.keys(data).sort()).toEqual(["account_created_at", "account_email", "account_id", "account_is_personal", "account_name", "account_picture_url"]);
    expect(data).toMatchObject({ account_id: accountId, account_email: email, account_is_personal: true, account_picture_url: null });
    expect(data.account_created_at).toMatch(ISO);
  });

  it("returns plan, balance and subscription state", async () => {
    const { key, accountId } = await accountWithKey({ plan: "starter" });
    const data = expectSuccess(await api("/v1/user/billing", { key }));
    expect(data).toMatchObject({
      account_id: accountId,
      billing_plan: "starter",
      billing_credit_balance: 1,
      billing_subscription_status: "manual",
      billing_cancel_at_period_end: false,
      billing_currency: "usd",
      billing_period_starts_at: null,
      billing_period_ends_at: null,
    });
    expect(data.billing_created_at).toMatch(ISO);
    expect(data.billing_updated_at).toMatch(ISO);
  });

  it("shows the subscription period when there is one", async () => {
    const { key, accountId } = await accountWithKey({ plan: "pro" });
    const start = new Date("2026-11-01T00:00:00.000Z");
    const end = new Date("2026-12-01T00:00:00.000Z");
    await db.subscription.create({ data: { accountId, plan: "pro", status: "active", currentPeriodStart: start, currentPeriodEnd: end, cancelAtPeriodEnd: true } });
    const data = expectSuccess(await api("/v1/user/billing", { key }));
    expect(data).toMatchObject({ billing_subscription_status: "active", billing_cancel_at_period_end: true, billing_period_starts_at: start.toISOString(), billing_period_ends_at: end.toISOString() });
  });
});

describe("GET /v1/library/*", () => {
  it("lists models with their documented fields", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await api("/v1/library/models", { key }));
    expect(data.models_total).toBe(data.models.length);
    const lumen = data.models.find((model: any) => model.model_identifier === "darkroom/lumen-image");
    expect(lumen).toMatchObject({ model_type: "image", model_pricing: 0.002, model_supported_provider: ["local", "local-backup"] });
    expect(Object.keys(lumen.schema).sort()).toEqual(["generation_input_file", "generation_output_format", "generation_output_number", "generation_prompt", "generation_ratio"]);
    const video = data.models.find((model: any) => model.model_identifier === "darkroom/lumen-video");
    expect(video.model_type).toBe("video");
    expect(video.specific_schema).toContain("generation_duration");
    for (const model of data.models) expect(model.model_identifier).toMatch(/^[a-z0-9.-]+\/[a-z0-9.-]+$/);
  });

  it("lists providers with their implementation block", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await api("/v1/library/providers", { key }));
    expect(data.providers_total).toBe(data.providers.length);
    const local = data.providers.find((provider: any) => provider.provider_id === "local");
    expect(local).toMatchObject({ provider_status: "active" });
    // The documented integration and arrays, plus the flat fields clients read.
    expect(Object.keys(local.darkroom_implementation).sort()).toEqual(IMPLEMENTATION_KEYS);
    expect(Object.keys(local.darkroom_implementation.integration).sort()).toEqual(["delivery_method", "supports_cancel", "timeout_seconds", "webhook_signature"]);
    expect(local.darkroom_implementation.supported_models).toContain("darkroom/lumen-image");
    // The test server configures Replicate (against a local fake) and not fal.
    expect(data.providers.find((provider: any) => provider.provider_id === "replicate").provider_status).toBe("active");
    expect(data.providers.find((provider: any) => provider.provider_id === "fal").provider_status).toBe("not_configured");
  });
});

describe("GET /v1/estimate/{model_identifier}", () => {
  it("prices an image model to three decimals against the balance", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await api("/v1/estimate/darkroom/lumen-image?count=3", { key }));
    expect(data).toEqual({
      model_identifier: "darkroom/lumen-image",
      model_type: "image",
      assets_count: 3,
      cost_per_generation: 0.002,
      cost_total_consumed: 0.006,
      credit_balance: 1,
      credit_balance_can_afford: true,
      credit_balance_max_affordable: 500,
    });
  });

  it("clamps count to 1..100", async () => {
    const { key } = await accountWithKey();
    expect(expectSuccess(await api("/v1/estimate/darkroom/lumen-image?count=0", { key })).assets_count).toBe(1);
    const capped = expectSuccess(await api("/v1/estimate/darkroom/lumen-image?count=500", { key }));
    expect(capped).toMatchObject({ assets_count: 100, cost_total_consumed: 0.2 });
  });

  it("prices video by duration, resolution and audio", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await api("/v1/estimate/darkroom/lumen-video?duration=6&resolution=720p&audio=true&count=2", { key }));
    expect(data).toMatchObject({
      model_type: "video",
      assets_count: 2,
      cost_per_second: 0.025,
      duration_seconds: 6,
      resolution: "720p",
      cost_per_generation: 0.15,
      cost_total_consumed: 0.3,
      credit_balance: 1,
      credit_balance_can_afford: true,
      credit_balance_max_affordable: 6,
    });
    const defaults = expectSuccess(await api("/v1/estimate/darkroom/lumen-video", { key }));
    expect(defaults).toMatchObject({ duration_seconds: 4, resolution: "480p", cost_per_second: 0.01, cost_per_generation: 0.04 });
  });

  it("says when the balance cannot pay", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await api("/v1/estimate/google/veo-3?duration=8&audio=true", { key }));
    expect(data.credit_balance_can_afford).toBe(false);
    expect(data.credit_balance_max_affordable).toBe(0);
  });

  it("refuses unknown models and invalid video parameters", async () => {
    const { key } = await accountWithKey();
    expectError(await api("/v1/estimate/nobody/nothing", { key }), "ERR1012");
    expectError(await api("/v1/estimate/darkroom", { key }), "ERR1012");
    const duration = expectError(await api("/v1/estimate/darkroom/lumen-video?duration=7", { key }), "ERR1001");
    expect(duration.details.fields[0].field).toBe("duration");
    const count = expectError(await api("/v1/estimate/darkroom/lumen-image?count=abc", { key }), "ERR1001");
    expect(count.details.fields[0].field).toBe("count");
  });
});

describe("GET /v1/health/*", () => {
  it("reports providers with their window", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await api("/v1/health/inference/providers", { key }));
    expect(data.service).toBe("providers");
    expect(data.providers_total).toBe(data.providers.length);
    const local = data.providers.find((provider: any) => provider.provider === "local");
    expect(typeof local.status).toBe("string");
    expect(typeof local.failure_rate).toBe("number");
    expect(Object.keys(local.window).sort()).toEqual(["duration_seconds", "failures", "successes", "total_attempts"]);
  });

  it("reports model availability per provider", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await api("/v1/health/inference/models", { key }));
    expect(data).toMatchObject({ service: "models", healthy: true });
    const lumen = data.models.find((model: any) => model.model_identifier === "darkroom/lumen-image");
    expect(lumen.providers.local).toEqual({ available: true, raw_model_id: expect.any(String) });
    expect(lumen.model_pricing).toBe(0.002);
  });

  it("probes storage and cache for real", async () => {
    const { key } = await accountWithKey();
    const storage = expectSuccess(await api("/v1/health/storage", { key }));
    expect(storage).toMatchObject({ service: "storage", healthy: true, driver: "local-disk" });
    expect(typeof storage.latency_ms).toBe("number");
    const cache = expectSuccess(await api("/v1/health/cache", { key }));
    expect(cache).toMatchObject({ service: "redis", healthy: true, backend: process.env.REDIS_URL ? "redis" : "postgres" });
  });
});
