import { describe, expect, it } from "vitest";
import { findModel, listModels, type ImageModel, type ModelDefinition, type VideoModel } from "@/server/catalog/index";
import { formatCredits, listPriceMillis, parseCreditsToMillis, priceGeneration, providerCostMicros } from "@/server/catalog/pricing";
import { ApiError } from "@/server/base/error-table";

function model(identifier: string): ModelDefinition {
  const found = findModel(identifier);
  if (!found) throw new Error(`missing ${identifier}`);
  return found;
}

const image = (price: number): ImageModel => ({ ...(model("darkroom/lumen-image") as ImageModel), pricePerOutputMillis: price });

describe("parseCreditsToMillis and formatCredits", () => {
  it("round-trips three-decimal amounts exactly", () => {
    expect(parseCreditsToMillis("1.234")).toBe(1234);
    expect(parseCreditsToMillis("0.003")).toBe(3);
    expect(parseCreditsToMillis("10")).toBe(10000);
    expect(parseCreditsToMillis("0.5")).toBe(500);
    expect(parseCreditsToMillis(1.1)).toBe(1100);
    expect(parseCreditsToMillis(0)).toBe(0);
    expect(formatCredits(1234)).toBe(1.234);
    expect(formatCredits(3)).toBe(0.003);
    expect(formatCredits(0)).toBe(0);
    expect(String(formatCredits(9))).toBe("0.009");
  });

  it.each([["1.2345"], ["-1"], ["abc"], [""], ["NaN"], ["Infinity"], ["1e3"], [".5"], ["1."], [-0.5], [Number.NaN], [0.1 + 0.2], [1e21]])(
    "rejects %s as ERR1001",
    (value) => {
      const attempt = () => parseCreditsToMillis(value, "threshold");
      expect(attempt).toThrow(ApiError);
      try {
        attempt();
      } catch (error) {
        expect((error as ApiError).code).toBe("ERR1001");
        expect((error as ApiError).details).toEqual({ fields: [expect.objectContaining({ field: "threshold" })] });
      }
    },
  );

  it("refuses non-integer millicredits when formatting", () => {
    expect(() => formatCredits(1.5)).toThrow(RangeError);
  });
});

describe("priceGeneration: images", () => {
  it("multiplies the per-output price by the count in millicredits", () => {
    expect(priceGeneration(image(3), { count: 3 })).toEqual({ costPerGenerationMillis: 3, totalMillis: 9 });
    expect(formatCredits(priceGeneration(image(3), { count: 3 }).totalMillis)).toBe(0.009);
  });

  it("never drifts the way floats do (0.1 × 3, 1.1 + 2.2)", () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(formatCredits(priceGeneration(image(100), { count: 3 }).totalMillis)).toBe(0.3);
    expect(1.1 + 2.2).not.toBe(3.3);
    const a = priceGeneration(image(parseCreditsToMillis("1.1")), { count: 1 }).totalMillis;
    const b = priceGeneration(image(parseCreditsToMillis("2.2")), { count: 1 }).totalMillis;
    expect(formatCredits(a + b)).toBe(3.3);
    expect(formatCredits(priceGeneration(image(7), { count: 100 }).totalMillis)).toBe(0.7);
  });

  it("prices catalog images", () => {
    expect(priceGeneration(model("black-forest-labs/flux-schnell"), { count: 4 }).totalMillis).toBe(12);
    expect(priceGeneration(model("darkroom/lumen-image"), { count: 1 }).totalMillis).toBe(2);
    expect(priceGeneration(model("openai/gpt-image-1"), { count: 10 }).totalMillis).toBe(630);
  });

  it("ignores video options on images", () => {
    expect(priceGeneration(image(2), { count: 2, durationSeconds: 99, resolution: "8k", audio: true })).toEqual({
      costPerGenerationMillis: 2,
      totalMillis: 4,
    });
  });

  it.each([[0], [-1], [1.5], [Number.NaN]])("refuses count %s", (count) => {
    expect(() => priceGeneration(image(2), { count })).toThrow(RangeError);
  });
});

describe("priceGeneration: videos", () => {
  const lumen = model("darkroom/lumen-video") as VideoModel;
  const veo = model("google/veo-3") as VideoModel;
  const kling = model("kwaivgi/kling-v2.1") as VideoModel;

  it("uses the default duration and resolution without audio", () => {
    expect(priceGeneration(lumen, { count: 1 })).toEqual({
      costPerGenerationMillis: 40,
      totalMillis: 40,
      costPerSecondMillis: 10,
      durationSeconds: 4,
      resolution: "480p",
      audio: false,
    });
  });

  it("prices per second × duration × count, per resolution", () => {
    expect(priceGeneration(lumen, { count: 1, durationSeconds: 6, resolution: "720p" }).totalMillis).toBe(120);
    expect(priceGeneration(lumen, { count: 3, durationSeconds: 2, resolution: "480p" }).totalMillis).toBe(60);
    expect(priceGeneration(kling, { count: 1, durationSeconds: 10, resolution: "1080p" }).totalMillis).toBe(900);
    expect(priceGeneration(kling, { count: 2, durationSeconds: 5, resolution: "720p" }).totalMillis).toBe(500);
  });

  it("adds the audio per-second price when audio is on", () => {
    const withAudio = priceGeneration(lumen, { count: 2, durationSeconds: 6, resolution: "720p", audio: true });
    expect(withAudio).toMatchObject({ costPerSecondMillis: 25, costPerGenerationMillis: 150, totalMillis: 300, audio: true });
    expect(formatCredits(withAudio.totalMillis)).toBe(0.3);
    expect(priceGeneration(veo, { count: 1, audio: false }).totalMillis).toBe(3200);
    expect(priceGeneration(veo, { count: 1, audio: true }).totalMillis).toBe(5200);
    expect(formatCredits(priceGeneration(veo, { count: 1, resolution: "1080p", audio: true }).totalMillis)).toBe(6);
  });

  it("refuses values outside the model's lists", () => {
    expect(() => priceGeneration(lumen, { count: 1, durationSeconds: 5 })).toThrow(RangeError);
    expect(() => priceGeneration(lumen, { count: 1, resolution: "1080p" })).toThrow(RangeError);
    expect(() => priceGeneration(kling, { count: 1, audio: true })).toThrow(RangeError);
  });

  it("gives the library list price: per output for images, per second at the default resolution for videos", () => {
    expect(listPriceMillis(model("black-forest-labs/flux-1.1-pro"))).toBe(40);
    expect(listPriceMillis(lumen)).toBe(10);
    expect(listPriceMillis(veo)).toBe(400);
  });
});

describe("providerCostMicros", () => {
  it("prices what a provider charges us in micro-USD, per picture, per megapixel, per second with audio", () => {
    const schnell = findModel("black-forest-labs/flux-schnell")!;
    expect(providerCostMicros(schnell, "replicate", { count: 3 })).toBe(9000);
    // fal bills FLUX schnell per megapixel: one megapixel a picture at $0.003.
    expect(providerCostMicros(schnell, "fal", { count: 2, ratio: "16:9" })).toBe(6000);
    const veo = findModel("google/veo-3")!;
    expect(providerCostMicros(veo, "fal", { count: 1, durationSeconds: 8, resolution: "720p", audio: true })).toBe(8 * (200_000 + 200_000));
    expect(providerCostMicros(veo, "replicate", { count: 1, durationSeconds: 8, resolution: "1080p", audio: false })).toBe(8 * 200_000);
    expect(providerCostMicros(veo, "google", { count: 1, durationSeconds: 8, resolution: "720p", audio: true })).toBe(8 * 400_000);
    expect(providerCostMicros(findModel("darkroom/lumen-image")!, "local", { count: 1 })).toBeNull();
    expect(providerCostMicros(findModel("cloudflare/flux-1-schnell")!, "cloudflare", { count: 4 })).toBe(2600);
  });

  it("never sells a model below a provider's cost, for any option", () => {
    const below: string[] = [];
    for (const model of listModels()) {
      const selections =
        model.type === "image"
          ? model.ratios.map((ratio) => ({ count: 1, ratio }))
          : model.resolutions.flatMap((resolution) =>
              model.durations.flatMap((durationSeconds) =>
                (model.audioPerSecondMillis === null ? [false] : [false, true]).map((audio) => ({
                  count: 1,
                  resolution: resolution.id,
                  durationSeconds,
                  audio,
                })),
              ),
            );
      for (const selection of selections) {
        const priceMicros = priceGeneration(model, selection).totalMillis * 1000;
        for (const provider of model.providers) {
          const cost = providerCostMicros(model, provider, selection);
          if (cost !== null && cost > priceMicros)
            below.push(`${model.identifier} on ${provider} ${JSON.stringify(selection)}: price ${priceMicros} < cost ${cost}`);
        }
      }
    }
    expect(below).toEqual([]);
  });
});
