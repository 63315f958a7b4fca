import { describe, expect, it } from "vitest";
import { estimateCost } from "@/server/catalog/estimate";
import { findModel, type ModelDefinition } from "@/server/catalog/index";
import { ApiError } from "@/server/base/error-table";
import { estimateQuerySchema, parseQuery } from "@/server/edge/contract/index";

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

/** The query as the route receives it: text, parsed by the operation's schema, then priced. */
function estimate(target: ModelDefinition, raw: Record<string, string | null> | URLSearchParams) {
  const query =
    raw instanceof URLSearchParams
      ? raw
      : new URLSearchParams(Object.entries(raw).filter((entry): entry is [string, string] => entry[1] !== null));
  return estimateCost(target, parseQuery(estimateQuerySchema, query));
}

const schnell = model("black-forest-labs/flux-schnell");
const lumenVideo = model("darkroom/lumen-video");
const veo = model("google/veo-3");
const kling = model("kwaivgi/kling-v2.1");

describe("estimateCost count", () => {
  it("defaults to 1", () => {
    expect(estimate(schnell, {})).toEqual({ costPerGenerationMillis: 3, totalMillis: 3, assetsCount: 1 });
    expect(estimate(schnell, { count: "" }).assetsCount).toBe(1);
    expect(estimate(schnell, { count: null }).assetsCount).toBe(1);
  });

  it("clamps to 1..100", () => {
    expect(estimate(schnell, { count: "0" }).assetsCount).toBe(1);
    expect(estimate(schnell, { count: "-7" }).assetsCount).toBe(1);
    expect(estimate(schnell, { count: "500" })).toEqual({ costPerGenerationMillis: 3, totalMillis: 300, assetsCount: 100 });
    expect(estimate(schnell, { count: "99999999999999999999999" }).assetsCount).toBe(100);
    expect(estimate(schnell, { count: "3" }).totalMillis).toBe(9);
  });

  it.each([["abc"], ["1.5"], ["2x"], ["0x10"], ["1e2"]])("rejects count %s with the field named", (count) => {
    expect(invalidField(() => estimate(schnell, { count }))).toBe("count");
  });

  it("reads URLSearchParams too", () => {
    const priced = estimate(lumenVideo, new URLSearchParams("count=2&duration=6&resolution=720p&audio=1"));
    expect(priced).toMatchObject({ assetsCount: 2, totalMillis: 300, durationSeconds: 6, resolution: "720p", audio: true });
  });
});

describe("estimateCost video options", () => {
  it("uses the model defaults", () => {
    expect(estimate(veo, {})).toEqual({
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
    expect(estimate(kling, { duration: "10", resolution: "1080p" }).totalMillis).toBe(900);
    expect(estimate(veo, { audio: "true" }).totalMillis).toBe(5200);
    expect(estimate(veo, { audio: "TRUE" }).audio).toBe(true);
    expect(estimate(veo, { audio: "0" }).audio).toBe(false);
    expect(estimate(kling, { audio: "false" }).totalMillis).toBe(250);
  });

  it.each([
    ["duration", { duration: "3" }],
    ["duration", { duration: "five" }],
    ["resolution", { resolution: "4k" }],
    ["audio", { audio: "yes" }],
  ])("rejects an invalid %s", (field, query) => {
    expect(invalidField(() => estimate(lumenVideo, query))).toBe(field);
  });

  it("rejects audio on a model without audio pricing", () => {
    expect(invalidField(() => estimate(kling, { audio: "true" }))).toBe("audio");
  });

  it("ignores well-formed video parameters on image models", () => {
    expect(estimate(schnell, { duration: "3", resolution: "4k", audio: "true", count: "2" })).toEqual({
      costPerGenerationMillis: 3,
      totalMillis: 6,
      assetsCount: 2,
    });
  });

  it("refuses text that is not a value of its type, on any model", () => {
    expect(invalidField(() => estimate(schnell, { audio: "maybe" }))).toBe("audio");
    expect(invalidField(() => estimate(schnell, { duration: "five" }))).toBe("duration");
  });
});
