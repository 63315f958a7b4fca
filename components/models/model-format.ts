import { formatCredits } from "@/components/dashboard/format-credits";

// How the Models pages write prices and times.

/** `model_pricing` with its unit: per image for image models, per second of output for videos. */
export function listPrice(entry: { model_type: string; model_pricing: number }): string {
  return `${formatCredits(entry.model_pricing)} credits / ${entry.model_type === "image" ? "image" : "second"}`;
}

/** 0.8 → "0.8 s", 12.4 → "12 s", 95 → "1 min 35 s". */
export function formatSeconds(seconds: number): string {
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds - minutes * 60);
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
