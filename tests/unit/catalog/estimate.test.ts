import { describe, expect, it } from "vitest";
import { estimateCost } from "../../../server/catalog/estimate";
import { findModel, type ModelDefinition } from "../../../server/catalog/index";
import { ApiError } from "../../../server/http/errors";

function model(identifier: string): ModelDefinition {
  const found = findModel(identifier);
  if (!found) throw new Error(`missing ${identifier}`);
  return found;
}

function invalidField(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.code).toBe("ERR1001");
    const fields = apiError.details.fields as Array<{ field: string }>;
    return fields[0]?.field;
  }
  throw new Error("expected ERR1001");
}

const schnell = model("black-forest-labs/flux-schnell");
const lumenVideo = model("darkroom/lumen-video");
const veo = model("google/veo-3");
const kling = model("kwaivgi/kling-v2.1");

describe("estimateCost count", () => {
  it("defaults to 1", () => {
    expect(estimateCost(schnell, {})).toEqual({ costPerGenerationMillis: 3, totalMillis: 3, assetsCount: 1 });
    expect(estimateCost(schnell, { count: "" }).assetsCount).toBe(1);
    expect(estimateCost(schnell, { count: null }).assetsCount).toBe(1);
  });

  it("clamps to 1..100", () => {
    expect(estimateCost(schnell, { count: "0" }).assetsCount).toBe(1);
    expect(estimateCost(schnell, { count: "-7" }).assetsCount).toBe(1);
    expect(estimateCost(schnell, { count: "500" })).toEqual({ costPerGenerationMillis: 3, totalMillis: 300, assetsCount: 100 });
    expect(estimateCost(schnell, { count: "99999999999999999999999" }).assetsCount).toBe(100);
    expect(estimateCost(schnell, { count: "3" }).totalMillis).toBe(9);
  });

  it.each([["abc"], ["1.5"], ["2x"], ["0x10"], ["1e2"]])("rejects count %s with the field named", (count) => {
    expect(invalidField(() => estimateCost(schnell, { count }))).toBe("count");
  });

  it("reads URLSearchParams too", () => {
    const estimate = estimateCost(lumenVideo, new URLSearchParams("count=2&duration=6&resolution=720p&audio=1"));
    expect(estimate).toMatchObject({ assetsCount: 2, totalMillis: 300, durationSeconds: 6, resolution: "720p", audio: true });
  });
});

describe("estimateCost video options", () => {
  it("uses the model defaults", () => {
    expect(estimateCost(veo, {})).toEqual({
      costPerGenerationMillis: 3200,
      totalMillis: 3200,
      costPerSecondMillis: 400,
      durationSeconds: 8,
      resolution: "720p",
      audio: false,
      assetsCount: 1,
    });
  });

  it("prices duration, resolution and audio", () => {
    expect(estimateCost(kling, { duration: "10", resolution: "1080p" }).totalMillis).toBe(900);
    expect(estimateCost(veo, { audio: "true" }).totalMillis).toBe(5200);
    expect(estimateCost(veo, { audio: "TRUE" }).audio).toBe(true);
    expect(estimateCost(veo, { audio: "0" }).audio).toBe(false);
    expect(estimateCost(kling, { audio: "false" }).totalMillis).toBe(250);
  });

  it.each([
    ["duration", { duration: "3" }],
    ["duration", { duration: "five" }],
    ["resolution", { resolution: "4k" }],
    ["audio", { audio: "yes" }],
  ])("rejects an invalid %s", (field, query) => {
    expect(invalidField(() => estimateCost(lumenVideo, query))).toBe(field);
  });

  it("rejects audio on a model without audio pricing", () => {
    expect(invalidField(() => estimateCost(kling, { audio: "true" }))).toBe("audio");
  });

  it("ignores video parameters on image models", () => {
    expect(estimateCost(schnell, { duration: "3", resolution: "4k", audio: "maybe", count: "2" })).toEqual({
      costPerGenerationMillis: 3,
      totalMillis: 6,
      assetsCount: 2,
    });
  });
});
