import type { ProviderJob } from "./types";

// What the hosted providers' input builders (fal, Replicate) share.

/** The video fields both hosts publish under the same names (Veo's input schema), without the input files. */
export function videoFields(job: ProviderJob): Record<string, unknown> {
  return {
    prompt: job.prompt,
    aspect_ratio: job.ratio,
    duration: job.durationSeconds,
    resolution: job.resolution,
    generate_audio: job.generateAudio,
    seed: job.seed,
  };
}

/** Absent beats null: Replicate validates null against the field's type and rejects it. */
export function withoutEmptyFields(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));
}
