import { describe, expect, it } from "vitest";
import { listModels } from "@/server/edge/http/operations/catalog";
import { getModelHealth } from "@/server/edge/http/operations/health";
import { accountWithKey } from "@/tests/support/fixtures";
import { api, callOperation, expectSuccess } from "@/tests/support/http";
import { startSecondInstance } from "@/tests/support/second-instance";

// GET /v1/health/inference/models (getModelHealth): which providers of each model can take work.

describe("200", () => {
  it("reports model availability per provider", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await callOperation(getModelHealth, { key }));
    expect(data).toMatchObject({ service: "models", healthy: true });
    const lumen = data.models.find((model) => model.model_identifier === "darkroom/lumen-image");
    expect(lumen?.providers.local).toMatchObject({ available: true, raw_model_id: expect.any(String) });
    expect(lumen?.model_pricing).toBe(0.002);
  });

  it("types every entry as the library does (model_type)", async () => {
    const { key } = await accountWithKey();
    const health = expectSuccess(await callOperation(getModelHealth, { key }));
    const library = expectSuccess(await callOperation(listModels, { key }));
    const libraryTypes = new Map(library.models.map((model) => [model.model_identifier, model.model_type]));
    expect(health.models.length).toBeGreaterThan(0);
    for (const model of health.models) expect(model.model_type, model.model_identifier).toBe(libraryTypes.get(model.model_identifier));
    expect(new Set(health.models.map((model) => model.model_type))).toEqual(new Set(["image", "video"]));
  });
});

describe("per model per provider", () => {
  it("carries each provider's figures for the model and the model's status", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await callOperation(getModelHealth, { key }));
    const library = expectSuccess(await callOperation(listModels, { key }));
    const statuses = new Map(library.models.map((model) => [model.model_identifier, model.model_status]));
    for (const model of data.models) {
      expect(model.model_status, model.model_identifier).toBe(statuses.get(model.model_identifier));
      for (const [provider, entry] of Object.entries(model.providers)) {
        expect(Object.keys(entry).sort(), provider).toEqual([
          "attempts",
          "available",
          "failed",
          "last_error_at",
          "last_error_code",
          "p50_latency_ms",
          "raw_model_id",
          "succeeded",
          "success_rate",
        ]);
        expect(entry.succeeded + entry.failed).toBeLessThanOrEqual(entry.attempts);
        expect(entry.success_rate).toBe(entry.attempts === 0 ? null : Math.round((entry.succeeded / entry.attempts) * 1000) / 1000);
        if (entry.last_error_at !== null) expect(entry.failed).toBeGreaterThan(0);
      }
    }
  });

  it("shows a disabled provider unavailable and a disabled model as such, without calling either an outage", async () => {
    const { key } = await accountWithKey();
    const instance = await startSecondInstance({ CATALOG_DISABLED_MODELS: "darkroom/lumen-video", CATALOG_DISABLED_PROVIDERS: "local" });
    try {
      const data = expectSuccess(
        await api<{
          healthy: boolean;
          models: Array<{ model_identifier: string; model_status: string; providers: Record<string, { available: boolean }> }>;
        }>("/v1/health/inference/models", {
          key,
          base: instance.baseUrl,
        }),
      );
      const byId = Object.fromEntries(data.models.map((model) => [model.model_identifier, model]));
      expect(byId["darkroom/lumen-image"]).toMatchObject({
        model_status: "active",
        providers: { local: { available: false }, "local-backup": { available: true } },
      });
      expect(byId["darkroom/lumen-video"]).toMatchObject({ model_status: "disabled", providers: { local: { available: false } } });
    } finally {
      await instance.stop();
    }
  });
});
