import { describe, expect, it } from "vitest";
import { listModels } from "@/server/http/operations/catalog";
import { getModelHealth } from "@/server/http/operations/health";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectSuccess } from "@/tests/support/http";

// GET /v1/health/inference/models (getModelHealth): which providers of each model can take work.

describe("200", () => {
  it("reports model availability per provider", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await callOperation(getModelHealth, { key }));
    expect(data).toMatchObject({ service: "models", healthy: true });
    const lumen = data.models.find((model) => model.model_identifier === "darkroom/lumen-image");
    expect(lumen?.providers.local).toEqual({ available: true, raw_model_id: expect.any(String) });
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
