import { invalidRequest } from "../base/error-table";
import type { ModelDefinition, VideoModel } from "./models";
import { priceGeneration, type PriceBreakdown } from "./pricing";

// GET /v1/estimate/{model}: the query as its schema parsed it (count clamped, types checked) in,
// the same breakdown create will reserve out. What only the model can judge is checked here.

export type EstimateQuery = { count: number; ratio?: string; duration?: number; resolution?: string; audio?: boolean };

export type CostEstimate = PriceBreakdown & { assetsCount: number };

export const ESTIMATE_MAX_COUNT = 100;

export function estimateCost(model: ModelDefinition, query: EstimateQuery): CostEstimate {
  const count = query.count;
  // Image prices have no duration, resolution or audio, so those parameters mean nothing there.
  const ratio = checkRatio(model, query.ratio);
  const breakdown =
    model.type === "image"
      ? priceGeneration(model, { count, ratio })
      : priceGeneration(model, {
          count,
          ratio,
          durationSeconds: checkDuration(model, query.duration),
          resolution: checkResolution(model, query.resolution),
          audio: checkAudio(model, query.audio),
        });
  return { ...breakdown, assetsCount: count };
}

function checkRatio(model: ModelDefinition, ratio: string | undefined): string {
  if (ratio === undefined) return model.ratios[0];
  if (!model.ratios.includes(ratio.trim())) throw fieldError("ratio", `must be one of ${model.ratios.join(", ")}`);
  return ratio.trim();
}

function checkDuration(model: VideoModel, seconds: number | undefined): number {
  if (seconds === undefined) return model.defaultDuration;
  if (!model.durations.includes(seconds)) throw fieldError("duration", `must be one of ${model.durations.join(", ")}`);
  return seconds;
}

function checkResolution(model: VideoModel, resolution: string | undefined): string {
  if (resolution === undefined) return model.defaultResolution;
  const ids = model.resolutions.map((entry) => entry.id);
  if (!ids.includes(resolution.trim())) throw fieldError("resolution", `must be one of ${ids.join(", ")}`);
  return resolution.trim();
}

function checkAudio(model: VideoModel, audio: boolean | undefined): boolean {
  // Asking for no audio on a silent model is harmless; asking for audio is not possible.
  if (audio && model.audioPerSecondMillis === null) throw fieldError("audio", `${model.identifier} does not generate audio`);
  return audio ?? false;
}

function fieldError(field: string, message: string) {
  return invalidRequest(`Invalid ${field}: ${message}.`, [{ field, message }]);
}
