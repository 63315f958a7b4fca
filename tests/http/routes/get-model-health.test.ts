import { describe, expect, it } from "vitest";
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
});
