import { invalidRequest } from "../http/errors";
import type { ModelDefinition, VideoModel } from "./models";
import { priceGeneration, type PriceBreakdown } from "./pricing";

// GET /v1/estimate/{model}: the raw query in, the same breakdown create will reserve out.

export type EstimateQuery = Partial<Record<"count" | "duration" | "resolution" | "audio", string | null>>;

export type CostEstimate = PriceBreakdown & { assetsCount: number };

export const ESTIMATE_MAX_COUNT = 100;

export function estimateCost(model: ModelDefinition, query: EstimateQuery | URLSearchParams): CostEstimate {
  const read = (name: keyof EstimateQuery) => (query instanceof URLSearchParams ? query.get(name) : query[name]) ?? undefined;
  const count = parseCount(read("count"));
  // Image prices have no duration, resolution or audio, so those parameters mean nothing there.
  const breakdown =
    model.type === "image"
      ? priceGeneration(model, { count })
      : priceGeneration(model, {
          count,
          durationSeconds: parseDuration(model, read("duration")),
          resolution: parseResolution(model, read("resolution")),
          audio: parseAudio(model, read("audio")),
        });
  return { ...breakdown, assetsCount: count };
}

// The spec caps count rather than refusing it; only text that is not an integer is an error.
function parseCount(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return 1;
  if (!/^-?\d+$/.test(raw.trim())) throw fieldError("count", "must be an integer");
  return Math.min(ESTIMATE_MAX_COUNT, Math.max(1, Number(raw.trim())));
}

function parseDuration(model: VideoModel, raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return model.defaultDuration;
  const seconds = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!model.durations.includes(seconds)) throw fieldError("duration", `must be one of ${model.durations.join(", ")}`);
  return seconds;
}

function parseResolution(model: VideoModel, raw: string | undefined): string {
  if (raw === undefined || raw.trim() === "") return model.defaultResolution;
  const ids = model.resolutions.map((entry) => entry.id);
  if (!ids.includes(raw.trim())) throw fieldError("resolution", `must be one of ${ids.join(", ")}`);
  return raw.trim();
}

function parseAudio(model: VideoModel, raw: string | undefined): boolean {
  if (raw === undefined || raw.trim() === "") return false;
  const value = raw.trim().toLowerCase();
  if (value !== "true" && value !== "false" && value !== "1" && value !== "0") throw fieldError("audio", "must be true, false, 1 or 0");
  const audio = value === "true" || value === "1";
  // Asking for no audio on a silent model is harmless; asking for audio is not possible.
  if (audio && model.audioPerSecondMillis === null) throw fieldError("audio", `${model.identifier} does not generate audio`);
  return audio;
}

function fieldError(field: string, message: string) {
  return invalidRequest(`Invalid ${field}: ${message}.`, [{ field, message }]);
}
