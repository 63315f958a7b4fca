import { describe, expect, it } from "vitest";
import { getEstimate } from "@/server/edge/http/operations/catalog";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectError, expectSuccess, invalidFields, type QueryOf } from "@/tests/support/http";

// GET /v1/estimate/{model_identifier} (getEstimate): the price create would reserve, against the balance.

const estimate = (key: string, model: string, query: QueryOf<typeof getEstimate> = {}) =>
  callOperation(getEstimate, { key, params: { model_identifier: model }, query });

describe("200", () => {
  it("prices an image model to three decimals against the balance", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await estimate(key, "darkroom/lumen-image", { count: 3 }));
    expect(data).toEqual({
      model_identifier: "darkroom/lumen-image",
      model_type: "image",
      assets_count: 3,
      cost_per_generation: 0.002,
      cost_total_consumed: 0.006,
      credit_balance: 1,
      credit_balance_can_afford: true,
      credit_balance_max_affordable: 500,
      apikey_spend_remaining: null,
    });
  });

  it("prices the ratio asked for (a flat per-image price is the same at every ratio)", async () => {
    const { key } = await accountWithKey();
    const wide = expectSuccess(await estimate(key, "darkroom/lumen-image", { ratio: "16:9", count: 2 }));
    expect(wide).toMatchObject({ cost_per_generation: 0.002, cost_total_consumed: 0.004 });
  });

  it("clamps count to 1..100", async () => {
    const { key } = await accountWithKey();
    expect(expectSuccess(await estimate(key, "darkroom/lumen-image", { count: 0 })).assets_count).toBe(1);
    const capped = expectSuccess(await estimate(key, "darkroom/lumen-image", { count: 500 }));
    expect(capped).toMatchObject({ assets_count: 100, cost_total_consumed: 0.2 });
  });

  it("prices video by duration, resolution and audio", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await estimate(key, "darkroom/lumen-video", { duration: 6, resolution: "720p", audio: true, count: 2 }));
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
    const defaults = expectSuccess(await estimate(key, "darkroom/lumen-video"));
    expect(defaults).toMatchObject({ duration_seconds: 4, resolution: "480p", cost_per_second: 0.01, cost_per_generation: 0.04 });
  });

  it("says when the balance cannot pay", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await estimate(key, "google/veo-3", { duration: 8, audio: true }));
    expect(data.credit_balance_can_afford).toBe(false);
    expect(data.credit_balance_max_affordable).toBe(0);
  });
});

describe("400", () => {
  it("refuses invalid video parameters naming them", async () => {
    const { key } = await accountWithKey();
    const duration = expectError(await estimate(key, "darkroom/lumen-video", { duration: 7 }), "ERR1001");
    expect(invalidFields(duration)[0]).toBe("duration");
    const count = expectError(await estimate(key, "darkroom/lumen-image", { count: "abc" }), "ERR1001");
    expect(invalidFields(count)[0]).toBe("count");
    const ratio = expectError(await estimate(key, "darkroom/lumen-image", { ratio: "5:1" }), "ERR1001");
    expect(invalidFields(ratio)[0]).toBe("ratio");
  });
});

describe("404", () => {
  it("refuses unknown models", async () => {
    const { key } = await accountWithKey();
    expectError(await estimate(key, "nobody/nothing"), "ERR1012");
    expectError(await estimate(key, "darkroom"), "ERR1012");
  });
});
