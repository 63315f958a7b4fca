import { describe, expect, it } from "vitest";
import { listModels } from "@/server/http/operations/catalog";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectSuccess } from "@/tests/support/http";

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
