import { describe, expect, it } from "vitest";
import { findModel } from "@/server/catalog/index";
import { modelStatus } from "@/server/catalog/model-status";
import type { ProviderId } from "@/server/catalog/providers";
import { listModels, listProviders } from "@/server/http/operations/catalog";
import { accountWithKey } from "@/tests/support/fixtures";
import { api, callOperation, expectSuccess } from "@/tests/support/http";
import { startSecondInstance } from "@/tests/support/second-instance";

// GET /v1/library/models (listModels): every model with its create schema, providers and pricing.

describe("200", () => {
  it("lists models with their documented fields", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await callOperation(listModels, { key }));
    expect(data.models_total).toBe(data.models.length);
    const lumen = data.models.find((model) => model.model_identifier === "darkroom/lumen-image");
    expect(lumen).toMatchObject({ model_type: "image", model_pricing: 0.002, model_supported_provider: ["local", "local-backup"] });
    expect(Object.keys(lumen?.schema ?? {}).sort()).toEqual(["generation_input_file", "generation_output_format", "generation_output_number", "generation_prompt", "generation_ratio"]);
    const video = data.models.find((model) => model.model_identifier === "darkroom/lumen-video");
    expect(video?.model_type).toBe("video");
    expect(video?.specific_schema).toContain("generation_duration");
    for (const model of data.models) expect(model.model_identifier).toMatch(/^[a-z0-9.-]+\/[a-z0-9.-]+$/);
  });

  it("lists a video model's durations, resolutions and audio inside schema, and keeps specific_schema_options", async () => {
    const { key } = await accountWithKey();
    const { models } = expectSuccess(await callOperation(listModels, { key }));
    const byId = Object.fromEntries(models.map((model) => [model.model_identifier, model]));
    expect(byId["darkroom/lumen-video"]?.schema).toMatchObject({ generation_duration: [2, 4, 6], generation_resolution: ["480p", "720p"], generation_generate_audio: true });
    expect(byId["kwaivgi/kling-v2.1"]?.schema).toMatchObject({ generation_duration: [5, 10], generation_resolution: ["720p", "1080p"], generation_generate_audio: false });
    expect(byId["darkroom/lumen-video"]?.specific_schema_options).toEqual({ generation_duration: [2, 4, 6], generation_resolution: ["480p", "720p"], generation_generate_audio: [false, true] });
    for (const model of models.filter((entry) => entry.model_type === "image")) {
      expect(Object.keys(model.schema).filter((field) => ["generation_duration", "generation_resolution", "generation_generate_audio"].includes(field))).toEqual([]);
    }
  });
});

describe("model_status", () => {
  it("is active for a model with an active provider, not_configured for one without, on a deployment that turned nothing off", async () => {
    const { key } = await accountWithKey();
    const { models } = expectSuccess(await callOperation(listModels, { key }));
    const { providers } = expectSuccess(await callOperation(listProviders, { key }));
    const active = new Set(providers.filter((provider) => provider.provider_status === "active").map((provider) => provider.provider_id as string));
    for (const model of models) {
      expect(model.model_status, model.model_identifier).toBe(model.model_supported_provider.some((provider) => active.has(provider)) ? "active" : "not_configured");
    }
  });

  it("follows CATALOG_DISABLED_MODELS and CATALOG_DISABLED_PROVIDERS, model_supported_provider unchanged", async () => {
    const { key } = await accountWithKey();
    const shared = expectSuccess(await callOperation(listModels, { key })).models;
    const configured = new Set(
      expectSuccess(await callOperation(listProviders, { key }))
        .providers.filter((provider) => provider.provider_status === "active")
        .map((provider) => provider.provider_id as string),
    );
    configured.delete("google");
    const disabled = { models: new Set(["darkroom/lumen-video"]), providers: new Set<ProviderId>(["replicate", "local-backup"]) };
    const instance = await startSecondInstance({ CATALOG_DISABLED_MODELS: "darkroom/lumen-video", CATALOG_DISABLED_PROVIDERS: "replicate, local-backup", GEMINI_API_KEY: "" });
    try {
      const { models } = expectSuccess(await api<{ models: typeof shared }>("/v1/library/models", { key, base: instance.baseUrl }));
      expect(models.map((model) => [model.model_identifier, model.model_supported_provider])).toEqual(shared.map((model) => [model.model_identifier, model.model_supported_provider]));
      const status = Object.fromEntries(models.map((model) => [model.model_identifier, model.model_status]));
      expect(status).toMatchObject({ "darkroom/lumen-video": "disabled", "darkroom/lumen-image": "active" });
      for (const model of models) expect(model.model_status, model.model_identifier).toBe(modelStatus(findModel(model.model_identifier)!, configured, disabled));
      expect(new Set(Object.values(status))).toEqual(new Set(["active", "not_configured", "disabled"]));
    } finally {
      await instance.stop();
    }
  });

  it("refuses to start with a model identifier or provider id the catalog does not hold, naming it", async () => {
    await expect(startSecondInstance({ CATALOG_DISABLED_MODELS: "darkroom/lumen-image,nobody/nothing" })).rejects.toThrow(
      "Invalid configuration: CATALOG_DISABLED_MODELS: no model nobody/nothing in the catalog",
    );
    await expect(startSecondInstance({ CATALOG_DISABLED_PROVIDERS: "replicate,acme" })).rejects.toThrow("Invalid configuration: CATALOG_DISABLED_PROVIDERS: no provider acme in the catalog");
  });
});
