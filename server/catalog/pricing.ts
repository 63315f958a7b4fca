import type { ModelDefinition, VideoModel } from "./models";
import type { Millicredits } from "../money";

// THE cost function: estimate and create both call priceGeneration, so the
// amount reserved is always the amount quoted. All arithmetic is on integer millicredits.

export { formatCredits, parseCreditsToMillis, type Millicredits } from "../money";

/** What the caller chose; omitted video options take the model's defaults. */
export type PriceSelection = {
  count: number;
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
    return { costPerGenerationMillis: model.pricePerOutputMillis, totalMillis: checkedProduct(model.pricePerOutputMillis, count) };
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
