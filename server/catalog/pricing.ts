import type { CostRule, ModelDefinition, VideoModel } from "./models";
import { formatCredits, type Millicredits } from "../base/money";
import { pricePerImage } from "./load-models";
import type { ProviderId } from "./providers";

// THE cost function: estimate and create both call priceGeneration, so the
// amount reserved is always the amount quoted. All arithmetic is on integer millicredits.

export { formatCredits, parseCreditsToMillis, type Millicredits } from "../base/money";

/** What the caller chose; omitted video options take the model's defaults. */
export type PriceSelection = {
  count: number;
  /** Images: the ratio priced (megapixel and by-ratio prices differ by size); the default ratio when absent. */
  ratio?: string;
  durationSeconds?: number;
  resolution?: string;
  audio?: boolean;
};

export type PriceBreakdown = {
  costPerGenerationMillis: Millicredits;
  totalMillis: Millicredits;
  /** Video only: resolution price plus audio price, per second of output. */
  costPerSecondMillis?: Millicredits;
  durationSeconds?: number;
  resolution?: string;
  audio?: boolean;
};

// Callers validate against the model first (request schema, estimate query), so a value
// outside the model's lists here is a bug, not a client error.
export function priceGeneration(model: ModelDefinition, selection: PriceSelection): PriceBreakdown {
  const { count } = selection;
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`Output count must be a positive integer, got ${count}`);
  if (model.type === "image") {
    const perImage = selection.ratio === undefined ? model.pricePerOutputMillis : model.priceByRatioMillis[selection.ratio];
    if (perImage === undefined) throw new RangeError(`${model.identifier} has no ${selection.ratio} ratio`);
    return { costPerGenerationMillis: perImage, totalMillis: checkedProduct(perImage, count) };
  }
  const durationSeconds = selection.durationSeconds ?? model.defaultDuration;
  const resolution = selection.resolution ?? model.defaultResolution;
  const audio = selection.audio ?? false;
  const costPerSecondMillis = perSecondMillis(model, durationSeconds, resolution, audio);
  const costPerGenerationMillis = checkedProduct(costPerSecondMillis, durationSeconds);
  return {
    costPerGenerationMillis,
    totalMillis: checkedProduct(costPerGenerationMillis, count),
    costPerSecondMillis,
    durationSeconds,
    resolution,
    audio,
  };
}

/** The single `model_pricing` number: per output for images, per second at the default resolution without audio for videos. */
export function listPriceMillis(model: ModelDefinition): Millicredits {
  if (model.type === "image") return model.pricePerOutputMillis;
  return perSecondMillis(model, model.defaultDuration, model.defaultResolution, false);
}

function perSecondMillis(model: VideoModel, durationSeconds: number, resolution: string, audio: boolean): Millicredits {
  if (!model.durations.includes(durationSeconds)) throw new RangeError(`${model.identifier} has no ${durationSeconds}s duration`);
  const tier = model.resolutions.find((entry) => entry.id === resolution);
  if (!tier) throw new RangeError(`${model.identifier} has no ${resolution} resolution`);
  if (!audio) return tier.perSecondMillis;
  if (model.audioPerSecondMillis === null) throw new RangeError(`${model.identifier} does not generate audio`);
  return tier.perSecondMillis + model.audioPerSecondMillis;
}

function checkedProduct(a: Millicredits, b: number): Millicredits {
  const product = a * b;
  if (!Number.isSafeInteger(product)) throw new RangeError(`Cost overflow: ${a} × ${b}`);
  return product;
}

export type PricingBreakdown =
  | { unit: "image"; price_per_image: number; price_per_image_by_ratio: Record<string, number> }
  | {
      unit: "megapixel";
      price_per_megapixel: number;
      megapixels_by_ratio: Record<string, number>;
      price_per_image_by_ratio: Record<string, number>;
    }
  | { unit: "second"; price_per_second_by_resolution: Record<string, number>; audio_price_per_second: number | null };

/** The library's `model_pricing_breakdown`: the price in the unit the model is priced in, in credits. */
export function pricingBreakdown(model: ModelDefinition): PricingBreakdown {
  if (model.type === "video") {
    return {
      unit: "second",
      price_per_second_by_resolution: Object.fromEntries(
        model.resolutions.map((entry) => [entry.id, formatCredits(entry.perSecondMillis)]),
      ),
      audio_price_per_second: model.audioPerSecondMillis === null ? null : formatCredits(model.audioPerSecondMillis),
    };
  }
  const byRatio = Object.fromEntries(model.ratios.map((ratio) => [ratio, formatCredits(model.priceByRatioMillis[ratio]!)]));
  if (model.pricing.unit === "image")
    return { unit: "image", price_per_image: formatCredits(model.pricePerOutputMillis), price_per_image_by_ratio: byRatio };
  return {
    unit: "megapixel",
    price_per_megapixel: formatCredits(model.pricing.perMegapixel),
    megapixels_by_ratio: { ...model.pricing.megapixelsByRatio },
    price_per_image_by_ratio: byRatio,
  };
}

/** What the provider charges us for the outputs of one attempt, in micro-USD; null when the data gives no cost. */
export function providerCostMicros(model: ModelDefinition, provider: ProviderId, selection: PriceSelection): number | null {
  const rule: CostRule | undefined = model.providerCosts[provider];
  if (!rule) return null;
  if (rule.unit === "second") {
    if (model.type !== "video") return null;
    const seconds = selection.durationSeconds ?? model.defaultDuration;
    const perSecond = rule.byResolution[selection.resolution ?? model.defaultResolution];
    if (perSecond === undefined) return null;
    return (perSecond + (selection.audio ? (rule.audioPerSecond ?? 0) : 0)) * seconds * selection.count;
  }
  return pricePerImage(rule, selection.ratio ?? model.ratios[0]) * selection.count;
}
