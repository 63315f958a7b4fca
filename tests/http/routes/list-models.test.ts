import { describe, expect, it } from "vitest";
import { findModel } from "@/server/catalog/index";
import { modelStatus } from "@/server/catalog/model-status";
import type { ProviderId } from "@/server/catalog/providers";
import { listModels, listProviders } from "@/server/edge/http/operations/catalog";
import { accountWithKey } from "@/tests/support/fixtures";
import { api, callOperation, expectError, expectSuccess } from "@/tests/support/http";
import { startSecondInstance } from "@/tests/support/second-instance";

// GET /v1/library/models (listModels): every model with its create schema, providers and pricing.

describe("200", () => {
  it("lists models with their documented fields", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await callOperation(listModels, { key }));
    expect(data.models_total).toBe(data.models.length);
    const lumen = data.models.find((model) => model.model_identifier === "darkroom/lumen-image");
    expect(lumen).toMatchObject({ model_type: "image", model_pricing: 0.002, model_supported_provider: ["local", "local-backup"] });
    expect(Object.keys(lumen?.schema ?? {}).sort()).toEqual([
      "generation_input_file",
      "generation_output_format",
      "generation_output_number",
      "generation_prompt",
      "generation_ratio",
    ]);
    const video = data.models.find((model) => model.model_identifier === "darkroom/lumen-video");
    expect(video?.model_type).toBe("video");
    expect(video?.specific_schema).toContain("generation_duration");
    for (const model of data.models) expect(model.model_identifier).toMatch(/^[a-z0-9.-]+\/[a-z0-9.-]+$/);
  });

  it("lists a video model's durations, resolutions and audio inside schema, and keeps specific_schema_options", async () => {
    const { key } = await accountWithKey();
    const { models } = expectSuccess(await callOperation(listModels, { key }));
    const byId = Object.fromEntries(models.map((model) => [model.model_identifier, model]));
    expect(byId["darkroom/lumen-video"]?.schema).toMatchObject({
      generation_duration: [2, 4, 6],
      generation_resolution: ["480p", "720p"],
      generation_generate_audio: true,
    });
    expect(byId["kwaivgi/kling-v2.1"]?.schema).toMatchObject({
      generation_duration: [5, 10],
      generation_resolution: ["720p", "1080p"],
      generation_generate_audio: false,
    });
    expect(byId["darkroom/lumen-video"]?.specific_schema_options).toEqual({
      generation_duration: [2, 4, 6],
      generation_resolution: ["480p", "720p"],
      generation_generate_audio: [false, true],
    });
    for (const model of models.filter((entry) => entry.model_type === "image")) {
      expect(
        Object.keys(model.schema).filter((field) =>
          ["generation_duration", "generation_resolution", "generation_generate_audio"].includes(field),
        ),
      ).toEqual([]);
    }
  });
});

describe("filters", () => {
  it("narrows by type, provider and workflow, every given filter holding, in catalog order", async () => {
    const { key } = await accountWithKey();
    const all = expectSuccess(await callOperation(listModels, { key })).models;
    const ids = (models: typeof all) => models.map((model) => model.model_identifier);
    const videos = expectSuccess(await callOperation(listModels, { key, query: { type: "video" } }));
    expect(ids(videos.models)).toEqual(ids(all.filter((model) => model.model_type === "video")));
    expect(videos.models_total).toBe(videos.models.length);
    expect(videos.models.length).toBeGreaterThan(0);
    const onFal = expectSuccess(await callOperation(listModels, { key, query: { provider: "fal" } })).models;
    expect(ids(onFal)).toEqual(ids(all.filter((model) => model.model_supported_provider.includes("fal"))));
    expect(ids(onFal)).toContain("black-forest-labs/flux-schnell");
    const edits = expectSuccess(await callOperation(listModels, { key, query: { workflow: "image-edit", provider: "bfl" } })).models;
    expect(ids(edits)).toEqual(["black-forest-labs/flux-kontext-pro", "black-forest-labs/flux-kontext-max"]);
    for (const model of edits) expect(model.model_workflows).toContain("image-edit");
    const none = expectSuccess(await callOperation(listModels, { key, query: { type: "image", workflow: "image-to-video" } }));
    expect(none).toEqual({ models_total: 0, models: [] });
    // An empty value counts as absent.
    expect(expectSuccess(await callOperation(listModels, { key, query: { type: "" } })).models_total).toBe(all.length);
  });

  it("refuses an unknown type, provider or workflow with ERR1001 naming the parameter", async () => {
    const { key } = await accountWithKey();
    for (const [name, value] of [
      ["type", "audio"],
      ["provider", "midjourney"],
      ["workflow", "text-to-song"],
    ] as const) {
      const error = expectError(await callOperation(listModels, { key, query: { [name]: value } }), "ERR1001");
      expect(error.details?.fields?.[0]?.field).toBe(name);
      expect(error.message).toMatch(/must be one of/);
    }
  });
});

describe("model_status", () => {
  it("is active for a model with an active provider, not_configured for one without, on a deployment that turned nothing off", async () => {
    const { key } = await accountWithKey();
    const { models } = expectSuccess(await callOperation(listModels, { key }));
    const { providers } = expectSuccess(await callOperation(listProviders, { key }));
    const active = new Set(
      providers.filter((provider) => provider.provider_status === "active").map((provider) => provider.provider_id as string),
    );
    for (const model of models) {
      expect(model.model_status, model.model_identifier).toBe(
        model.model_supported_provider.some((provider) => active.has(provider)) ? "active" : "not_configured",
      );
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
    const instance = await startSecondInstance({
      CATALOG_DISABLED_MODELS: "darkroom/lumen-video",
      CATALOG_DISABLED_PROVIDERS: "replicate, local-backup",
      GEMINI_API_KEY: "",
    });
    try {
      const { models } = expectSuccess(await api<{ models: typeof shared }>("/v1/library/models", { key, base: instance.baseUrl }));
      expect(models.map((model) => [model.model_identifier, model.model_supported_provider])).toEqual(
        shared.map((model) => [model.model_identifier, model.model_supported_provider]),
      );
      const status = Object.fromEntries(models.map((model) => [model.model_identifier, model.model_status]));
      expect(status).toMatchObject({ "darkroom/lumen-video": "disabled", "darkroom/lumen-image": "active" });
      for (const model of models)
        expect(model.model_status, model.model_identifier).toBe(modelStatus(findModel(model.model_identifier)!, configured, disabled));
      expect(new Set(Object.values(status))).toEqual(new Set(["active", "not_configured", "disabled"]));
    } finally {
      await instance.stop();
    }
  });

  it("refuses to start with a model identifier or provider id the catalog does not hold, naming it", async () => {
    await expect(startSecondInstance({ CATALOG_DISABLED_MODELS: "darkroom/lumen-image,nobody/nothing" })).rejects.toThrow(
      "Invalid configuration: CATALOG_DISABLED_MODELS: no model nobody/nothing in the catalog",
    );
    await expect(startSecondInstance({ CATALOG_DISABLED_PROVIDERS: "replicate,acme" })).rejects.toThrow(
      "Invalid configuration: CATALOG_DISABLED_PROVIDERS: no provider acme in the catalog",
    );
  });
});
